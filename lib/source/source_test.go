package source

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/dataset/datasettest"
	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// write writes content to dir/name and returns the path.
func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// toy is a two-port mapping written to dir/toy.json.
func toy(t *testing.T, dir string) (*portmap.Mapping, string) {
	t.Helper()
	m := portmap.MustMapping("toy", "0", "1")
	m.MustSetUsage("add", "1*p01").MustSetUsage("mul", "1*p1").MustSetUsage("ld", "1*p0")
	p := filepath.Join(dir, "toy.json")
	if err := portmap.WriteMapping(p, m); err != nil {
		t.Fatal(err)
	}
	return m, p
}

func cycles(s *portmap.ExperimentSet) string {
	var got []string
	for _, m := range s.Measurements {
		got = append(got, fmt.Sprintf("%v=%v", m.Experiment, m.Cycles))
	}
	return strings.Join(got, " ")
}

// A comma-separated list merges its files in order, the last file's value
// winning; a campaign's failed experiments are left out and counted.
func TestExperimentsMerge(t *testing.T) {
	dir := t.TempDir()
	a := write(t, dir, "a.jsonl", `{"insns":{"add":1},"cycles":0.5}
{"insns":{"add":1,"mul":1},"cycles":1.5}
{"insns":{"ld":1},"error":"does not build"}
`)
	b := write(t, dir, "b.jsonl", `{"insns":{"add":1},"cycles":0.25}
{"insns":{"mul":1},"cycles":1}
`)
	e, err := ParseExperiments(a + "," + b)
	if err != nil {
		t.Fatal(err)
	}
	if e.String() != a+","+b || e.NeedsTruth() {
		t.Errorf("String %q, NeedsTruth %v", e, e.NeedsTruth())
	}
	var notes bytes.Buffer
	s, err := e.Load(t.Context(), &Options{Notes: &notes})
	if err != nil {
		t.Fatal(err)
	}
	if want := "{add ↦ 1}=0.25 {add ↦ 1, mul ↦ 1}=1.5 {mul ↦ 1}=1"; cycles(s) != want {
		t.Errorf("merged %s, want %s", cycles(s), want)
	}
	if want := a + ": 1 failed experiments left out\n"; notes.String() != want {
		t.Errorf("notes %q, want %q", notes.String(), want)
	}
	// A portlab JSON file alone.
	j := filepath.Join(dir, "c.json")
	if err := portmap.WriteExperiments(j, s); err != nil {
		t.Fatal(err)
	}
	s2, err := LoadExperiments(t.Context(), j)
	if err != nil || cycles(s2) != cycles(s) {
		t.Errorf("JSON file: %v, %v", s2, err)
	}
}

// A data-set name loads the data set.
func TestExperimentsDataSet(t *testing.T) {
	datasettest.Need(t)
	s, err := LoadExperiments(t.Context(), "pmevo:SKL/eval_tiny")
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 20 {
		t.Errorf("pmevo:SKL/eval_tiny: %d experiments, want 20", s.Len())
	}
}

// random:LENGTH:COUNT[:SEED] is measured with the truth; without a seed
// it draws with the run's seed + 1.
func TestExperimentsRandom(t *testing.T) {
	m, _ := toy(t, t.TempDir())
	truth := oracle.Simulate(m, 0, 1)
	opts := &Options{Truth: truth, Instructions: m.Instructions(), Seed: 7}
	for _, c := range []struct {
		spec string
		seed uint64
	}{{"random:3:20", 8}, {"random:3:20:5", 5}} {
		e, err := ParseExperiments(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if !e.NeedsTruth() {
			t.Errorf("%s: NeedsTruth false", c.spec)
		}
		s, err := e.Load(t.Context(), opts)
		if err != nil {
			t.Fatal(err)
		}
		want, _, _ := oracle.MeasureAll(t.Context(), truth, design.Random(m.Instructions(), 3, 20, c.seed), nil)
		if s.Len() != 20 || cycles(s) != cycles(want) {
			t.Errorf("%s: %s, want seed %d: %s", c.spec, cycles(s), c.seed, cycles(want))
		}
		if _, err := e.Load(t.Context(), nil); err == nil || !strings.Contains(err.Error(), "need a truth") {
			t.Errorf("%s without a truth: %v", c.spec, err)
		}
	}
}

// Bad names are refused by ParseExperiments, before any data are read,
// with the name and the valid forms.
func TestExperimentsBadNames(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.jsonl")
	ok := write(t, dir, "ok.jsonl", `{"insns":{"add":1},"cycles":0.5}`+"\n")
	for _, c := range []struct{ spec, want string }{
		{"random:5", `experiments "random:5": want random:LENGTH:COUNT[:SEED]`},
		{"random:5:0", `experiments "random:5:0": want random:LENGTH:COUNT[:SEED]`},
		{"random:5:10:-1", "positive whole numbers"},
		{"random:a:b", "want random:LENGTH:COUNT[:SEED]"},
		{"pmevo:SKL", `experiments "pmevo:SKL": want pmevo:ARCH/SET`},
		{"nosuch:set", `experiments "nosuch:set": unknown data-set prefix "nosuch:" (known: pmevo:ARCH/SET, random:LENGTH:COUNT[:SEED]; or a file)`},
		{"uops.info:SKL", "names a mapping or a machine, not experiments"},
		{missing, fmt.Sprintf("experiments %q: no such file (want a file", missing)},
		{ok + "," + missing, missing + `": no such file`},
		{ok + ",", "an empty name in the list"},
		{"", "experiments: no name given"},
		{dir, "a directory, not a file"},
	} {
		_, err := ParseExperiments(c.spec)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseExperiments(%q) = %v, want %q", c.spec, err, c.want)
		}
	}
	// A file whose name looks like a prefix is a file.
	odd := write(t, dir, "run:2.jsonl", `{"insns":{"add":1},"cycles":0.5}`+"\n")
	t.Chdir(dir)
	if _, err := LoadExperiments(context.Background(), filepath.Base(odd)); err != nil {
		t.Errorf("file run:2.jsonl: %v", err)
	}
}

func TestForms(t *testing.T) {
	dir := t.TempDir()
	got, err := LoadForms("curated:3")
	if err != nil || len(got) != 3 {
		t.Fatalf("curated:3: %v, %v", got, err)
	}
	all, err := LoadForms("curated")
	if err != nil || len(all) < 100 || all[0] != got[0] {
		t.Errorf("curated: %d forms, %v", len(all), err)
	}
	f := write(t, dir, "forms.txt", "# two forms\n"+got[0]+"\n\n  "+got[1]+"  \n")
	if fs, err := LoadForms(f); err != nil || strings.Join(fs, "|") != got[0]+"|"+got[1] {
		t.Errorf("%s: %q, %v", f, fs, err)
	}
	bad := write(t, dir, "bad.txt", got[0]+"\nfrobnicate the widget\n")
	fs, err := ParseForms(bad)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Load(); err == nil || !strings.Contains(err.Error(), bad+":2:") {
		t.Errorf("bad line: %v, want %s:2:", err, bad)
	}
	// A well-formed scheme of an instruction nobody knows is refused
	// when the list is read, naming its line, before anything is measured.
	unknown := write(t, dir, "unknown.txt", got[0]+"\nfrobnicate RW:GPR:64, R:GPR:64\n")
	if _, err := LoadForms(unknown); err == nil || !strings.Contains(err.Error(), unknown+`:2: unknown mnemonic "frobnicate"`) {
		t.Errorf("unknown mnemonic: %v, want %s:2: unknown mnemonic", err, unknown)
	}
	// PMEvo names and AArch64 forms are known.
	known := write(t, dir, "known.txt", "add RW:GPR:64, R:GPR:64\nnop dword ptr R:MEM(32)\n")
	if _, err := LoadForms(known); err != nil {
		t.Errorf("known forms: %v", err)
	}
	// A file without a form (empty, or only comments) is an error, not
	// an empty campaign.
	for _, text := range []string{"", "# nothing yet\n\n"} {
		empty := write(t, dir, "empty.txt", text)
		if fs, err := LoadForms(empty); err == nil || !strings.Contains(err.Error(), empty+": no instruction forms") {
			t.Errorf("%q: %q, %v; want an error naming the file", text, fs, err)
		}
	}
	for _, c := range []struct{ spec, want string }{
		{"curated:0", `forms "curated:0": want curated, curated:N with N ≥ 1`},
		{"curated:x", `forms "curated:x": want curated`},
		{filepath.Join(dir, "none.txt"), `none.txt": no such file (want curated`},
		{"", "forms: no name given"},
	} {
		if _, err := ParseForms(c.spec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseForms(%q) = %v, want %q", c.spec, err, c.want)
		}
	}
}

func TestCPUs(t *testing.T) {
	avail := availableCPUs()
	if len(avail) == 0 {
		t.Fatal("no CPU available")
	}
	first := avail[0]
	if cpus, err := ParseCPUs(fmt.Sprint(" ", first)); err != nil || len(cpus) != 1 || cpus[0] != first {
		t.Errorf("ParseCPUs(%d) = %v, %v", first, cpus, err)
	}
	if cpus, err := ParseCPUs("-1"); err != nil || cpus[0] != -1 {
		t.Errorf("ParseCPUs(-1) = %v, %v", cpus, err)
	}
	if cpus, err := ParseCPUs("affinity"); err != nil || !slices.Equal(cpus, avail) {
		t.Errorf("ParseCPUs(affinity) = %v, %v; want %v", cpus, err, avail)
	}
	if len(avail) > 1 {
		spec := fmt.Sprintf("%d, %d", avail[0], avail[1])
		if cpus, err := ParseCPUs(spec); err != nil || len(cpus) != 2 || cpus[1] != avail[1] {
			t.Errorf("ParseCPUs(%q) = %v, %v", spec, cpus, err)
		}
	}
	beyond := avail[len(avail)-1] + 1
	for _, c := range []struct{ spec, want string }{
		{"x", `CPUs "x": "x" is not a CPU number (want one CPU number`},
		{"0,", `"" is not a CPU number`},
		{"-2", `"-2" is not a CPU number`},
		{"0,-1", "CPU -1: not a CPU number (-1, a worker not pinned, only alone)"},
		{"0,0", `CPUs "0,0": CPU 0 listed twice`},
		{fmt.Sprint(beyond), fmt.Sprintf("CPU %d is not one this machine lets portlab run on (%s)", beyond, cpuRanges(avail))},
	} {
		if _, err := ParseCPUs(c.spec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseCPUs(%q) = %v, want %q", c.spec, err, c.want)
		}
	}
	for _, c := range []struct {
		cpus []int
		want string
	}{{[]int{0, 1}, "CPUs 0-1"}, {[]int{3}, "CPU 3"}, {[]int{0, 1, 2, 5, 7, 8}, "CPUs 0-2, 5, 7-8"}} {
		if got := cpuRanges(c.cpus); got != c.want {
			t.Errorf("cpuRanges(%v) = %q, want %q", c.cpus, got, c.want)
		}
	}
}

func TestSimulation(t *testing.T) {
	dir := t.TempDir()
	m, path := toy(t, dir)
	s, err := ParseSimulation(path, 0.02, 3)
	if err != nil {
		t.Fatal(err)
	}
	s.InstructionsPerCycle = 1.5
	var notes bytes.Buffer
	machine, sim, err := s.Open(&notes)
	if err != nil {
		t.Fatal(err)
	}
	if machine.Mapping.Len() != m.Len() || machine.InstructionsPerCycle != 1.5 || sim.Noise != 0.02 {
		t.Errorf("machine %v, noise %v", machine, sim.Noise)
	}
	if !strings.Contains(notes.String(), "simulating "+path+": 3 instructions on 2 ports, peak 1.5 instructions per cycle") {
		t.Errorf("notes %q", notes.String())
	}
	// The front end given bounds the simulation: three adds on two ports
	// take 1.5 cycles, at most 1.5 instructions per cycle make it 2.
	exact, err := Simulate(path, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	e := portmap.NewExperiment("add", "add", "add")
	if c, _ := oracle.Cycles(t.Context(), exact, e); c != 1.5 {
		t.Errorf("%v: %v cycles, want 1.5", e, c)
	}
	s.Noise = 0
	_, bounded, _ := s.Open(nil)
	if c, _ := oracle.Cycles(t.Context(), bounded, e); c != 2 {
		t.Errorf("%v with 1.5 IPC: %v cycles, want 2", e, c)
	}
	if zp, err := Simulate("portlab:zenplus-like", 0, 1); err != nil || zp.Counted == nil {
		t.Errorf("portlab:zenplus-like: %v", err)
	}
	for _, c := range []struct {
		machine string
		noise   float64
		want    string
	}{
		{path, -0.1, "noise -0.1: want a relative standard deviation in [0, 1)"},
		{path, 1, "noise 1: want"},
		{path, math.NaN(), "noise NaN: want"},
		{"portlab:skylake", 0, `machine "portlab:skylake": unknown simulated machine (have portlab:zenplus-like)`},
		{"pmevo:SKL", 0, `machine "pmevo:SKL": want pmevo:ARCH/WHICH`},
		{"uops.info:", 0, "want uops.info:UARCH"},
		{"uops.inf:SKL", 0, `unknown data-set prefix "uops.inf:" (known: portlab:, pmevo:, uops.info:; or a mapping or machine file)`},
		{"random:5:10", 0, "names experiments, not a machine"},
		{filepath.Join(dir, "none.json"), 0, `none.json": no such file (want a mapping file`},
		{"", 0, "machine: no name given"},
	} {
		if _, err := ParseSimulation(c.machine, c.noise, 1); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseSimulation(%q, %v) = %v, want %q", c.machine, c.noise, err, c.want)
		}
	}
}

// An Oracle opens replayed experiments, or a simulation with stored
// answers first; its truth measures random evaluation sets.
func TestOracle(t *testing.T) {
	dir := t.TempDir()
	m, path := toy(t, dir)
	stored := write(t, dir, "stored.jsonl", `{"insns":{"add":1},"cycles":0.75,"passes":3,"spread":0.001}`+"\n")
	exps, _ := ParseExperiments(stored)
	sim, _ := ParseSimulation(path, 0, 1)
	random, _ := ParseExperiments("random:2:5")
	for _, c := range []struct {
		o    Oracle
		want string
	}{
		{Oracle{}, "exactly one of"},
		{Oracle{Replay: exps, Simulation: sim}, "exactly one of"},
		{Oracle{Replay: exps, Stored: exps}, "stored answers need a simulation or forms"},
		{Oracle{Replay: random}, "random experiments are measured with a truth"},
		{Oracle{Simulation: sim, Stored: random}, "random experiments are measured with a truth"},
	} {
		if err := c.o.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
		if _, err := c.o.Open(t.Context(), nil); err == nil {
			t.Errorf("%+v opened", c.o)
		}
	}

	replay := &Oracle{Replay: exps}
	op, err := replay.Open(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if op.Data.Len() != 1 || op.Instructions != nil {
		t.Errorf("replay: data %v, instructions %v", op.Data, op.Instructions)
	}
	if c, err := oracle.Cycles(t.Context(), op.Oracle, portmap.NewExperiment("add")); err != nil || c != 0.75 {
		t.Errorf("replayed add: %v, %v", c, err)
	}

	// Held out: the experiments of three or more distinct instructions.
	mixed := write(t, dir, "mixed.jsonl", `{"insns":{"add":1},"cycles":0.5}
{"insns":{"add":1,"mul":2},"cycles":2}
{"insns":{"add":1,"mul":1,"ld":1},"cycles":1.5}
`)
	mixedExps, _ := ParseExperiments(mixed)
	op, err = (&Oracle{Replay: mixedExps, HoldOut: true}).Open(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if cycles(op.Data) != "{add ↦ 1}=0.5 {add ↦ 1, mul ↦ 2}=2" || cycles(op.HeldOut) != "{add ↦ 1, ld ↦ 1, mul ↦ 1}=1.5" {
		t.Errorf("training %s, held out %s", cycles(op.Data), cycles(op.HeldOut))
	}
	if _, err := oracle.Cycles(t.Context(), op.Oracle, portmap.NewExperiment("add", "mul", "ld")); err == nil {
		t.Error("the replay answers a held-out experiment")
	}
	if err := (&Oracle{Simulation: sim, HoldOut: true}).Check(); err == nil {
		t.Error("HoldOut without Replay accepted")
	}

	var notes bytes.Buffer
	o := &Oracle{Simulation: sim, Stored: exps}
	op, err = o.Open(t.Context(), &notes)
	if err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	if err := op.Complete(t.Context()); err != nil {
		t.Fatal(err)
	}
	if op.StoredFirst == nil || op.Machine == nil || len(op.Instructions) != 3 {
		t.Fatalf("opened %+v", op)
	}
	for insn, want := range map[string]float64{"add": 0.75, "mul": 1} {
		if c, err := oracle.Cycles(t.Context(), op.Oracle, portmap.NewExperiment(insn)); err != nil || c != want {
			t.Errorf("%s: %v, %v; want %v", insn, c, err, want)
		}
	}
	if !strings.Contains(notes.String(), "stored: 1 measurements of "+stored+" answer first") {
		t.Errorf("notes %q", notes.String())
	}
	set, err := random.Load(t.Context(), op.Truth(1, nil))
	if err != nil || set.Len() != 5 {
		t.Fatalf("random with the truth: %v, %v", set, err)
	}
	ev, err := Evaluate(t.Context(), "truth", oracle.FromMapping(m), set)
	if err != nil || ev.Summary.MAPE != 0 || ev.Predictor != "truth" {
		t.Errorf("truth on its measurements: %v, %v", ev, err)
	}
}

func TestEvaluate(t *testing.T) {
	m, _ := toy(t, t.TempDir())
	set := &portmap.ExperimentSet{Arch: nil}
	if _, err := Evaluate(t.Context(), "x", oracle.FromMapping(m), set); err == nil || !strings.Contains(err.Error(), "no measured experiments") {
		t.Errorf("empty set: %v", err)
	}
	defer func() {
		if r := recover(); r == nil {
			t.Error("MustEvaluate on an empty set did not panic")
		}
	}()
	MustEvaluate(t.Context(), "x", oracle.FromMapping(m), set)
}

func TestDataFile(t *testing.T) {
	p, err := DataFile("host-forms.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(filepath.ToSlash(p), "notebooks/data/host-forms.txt") {
		t.Errorf("DataFile = %s", p)
	}
	if _, err := DataFile("no-such-file.json"); err == nil || !strings.Contains(err.Error(), "notebooks/data/no-such-file.json: no such file") {
		t.Errorf("missing: %v", err)
	}
}

// ParseDesigns knows every design design.Build does.
func TestDesigns(t *testing.T) {
	names := strings.Split(design.Names, " | ")
	if len(names) != len(designNames)+1 || names[len(names)-1] != "random:LENGTH:COUNT[:SEED]" {
		t.Fatalf("design.Names %q, known here %v", design.Names, designNames)
	}
	for i, d := range designNames {
		if names[i] != d {
			t.Errorf("design %d: %q in design.Names, %q here", i, names[i], d)
		}
		if _, err := design.Build(t.Context(), d, []string{"add"}, oracle.Simulate(portmap.MustMapping("m", "0").MustSetUsage("add", "1*p0"), 0, 1)); err != nil {
			t.Errorf("design.Build(%q): %v", d, err)
		}
	}
	got, err := ParseDesigns("singletons, pairs,random:5:10")
	if err != nil || strings.Join(got, "|") != "singletons|pairs|random:5:10" {
		t.Errorf("ParseDesigns = %q, %v", got, err)
	}
	for _, c := range []struct{ spec, want string }{
		{"random:5", `designs "random:5": "random:5": want random:LENGTH:COUNT[:SEED]`},
		{"singletons,triples", `unknown design "triples" (want singletons | pairs | ratio | pmevo | latency | random:LENGTH:COUNT[:SEED], or a comma-separated list)`},
		{"", `unknown design ""`},
	} {
		if _, err := ParseDesigns(c.spec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseDesigns(%q) = %v, want %q", c.spec, err, c.want)
		}
	}
}
