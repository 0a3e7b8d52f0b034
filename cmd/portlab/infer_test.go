package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/pmu"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/resource"
	"github.com/portlab/portlab/lib/source"
	"github.com/portlab/portlab/lib/throughput"
)

func TestInferPMEvo(t *testing.T) {
	dir := t.TempDir()
	truth := pmevoToy()
	mfile := writeMapping(t, dir, truth)
	prefix := filepath.Join(dir, "out")
	var out, errs bytes.Buffer
	err := run(t.Context(), []string{"infer", "pmevo", "-simulate", mfile, "-population", "200", "-generations", "30",
		"-eval", "random:5:200", "-out", prefix}, &out, &errs)
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errs.String())
	}
	for _, want := range []string{"6 instructions in 6 congruence classes", "training MAPE", "on random:5:200: n=200"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(errs.String(), "generation ") {
		t.Errorf("no progress bar on stderr: %q", errs.String())
	}
	m, err := portmap.ReadMapping(prefix + ".json")
	if err != nil {
		t.Fatal(err)
	}
	if m.Len() != truth.Len() || m.NumPorts() != 4 {
		t.Errorf("inferred mapping %v", m)
	}
	for _, f := range []string{prefix + ".pmevo.json", prefix + ".report.json"} {
		if _, err := os.Stat(f); err != nil {
			t.Error(err)
		}
	}
	// The written mapping trains again from a campaign-style file.
	for _, bad := range [][]string{
		{"infer", "pmevo"},
		{"infer", "pmevo", "-simulate", mfile, "-experiments", mfile},
		{"infer", "cegis"},
		{"infer", "pmevo", "-experiments", prefix + ".json", "-ports", "4"},
	} {
		if err := run(t.Context(), bad, &out, &errs); err == nil {
			t.Errorf("%v succeeded", bad)
		}
	}
}

// TestInferRefusesBadNamesFirst gives portlab infer bad names: each is
// refused with an error naming the flag and the valid forms before
// anything is inferred or measured (no progress on stderr, nothing on
// stdout). A malformed -eval used to fail only after the inference.
func TestInferRefusesBadNamesFirst(t *testing.T) {
	dir := t.TempDir()
	mfile := writeMapping(t, dir, pmevoToy())
	missing := filepath.Join(dir, "missing.jsonl")
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"-simulate", mfile, "-eval", "random:5"}, []string{"-eval: ", `"random:5"`, "random:LENGTH:COUNT[:SEED]"}},
		{[]string{"-simulate", mfile, "-eval", "random:5:x"}, []string{"-eval: ", "random:LENGTH:COUNT[:SEED]"}},
		{[]string{"-simulate", mfile, "-eval", "pmevo:SKL/eval_small,nosuch:set"}, []string{"-eval: ", `unknown data-set prefix "nosuch:"`, "pmevo:ARCH/SET"}},
		{[]string{"-simulate", mfile, "-eval", missing}, []string{"-eval: ", missing, "no such file"}},
		{[]string{"-experiments", mfile, "-eval", "random:5:100"}, []string{`-eval "random:5:100": random experiments need -simulate`}},
		{[]string{"-simulate", mfile, "-noise", "-0.1"}, []string{"-noise: ", "[0, 1)"}},
		{[]string{"-simulate", "uops.inf:SKL"}, []string{"-simulate: ", `unknown data-set prefix "uops.inf:"`, "uops.info:"}},
		{[]string{"-simulate", filepath.Join(dir, "nomapping.json")}, []string{"-simulate: ", "nomapping.json", "no such file"}},
		{[]string{"-experiments", missing, "-ports", "4"}, []string{"-experiments: ", missing, "no such file"}},
		{[]string{"-simulate", mfile, "-stored", "random:5:10"}, []string{`-stored "random:5:10"`, "-eval"}},
		{[]string{"-measure", "-insns", "curated:0"}, []string{"-insns: ", "curated:N with N ≥ 1"}},
		{[]string{"-measure", "-insns", "curated:3", "-cpu", "4096"}, []string{"-cpu: ", "CPU 4096 is not one this machine lets portlab run on"}},
	} {
		var out, errs bytes.Buffer
		args := append([]string{"infer", "pmevo", "-population", "50", "-generations", "2"}, c.args...)
		err := run(t.Context(), args, &out, &errs)
		if err == nil {
			t.Errorf("%v succeeded", c.args)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: %v, want %q", c.args, err, w)
			}
		}
		if out.Len() > 0 || strings.Contains(errs.String(), "generation") || strings.Contains(errs.String(), "measuring") {
			t.Errorf("%v: work done before the error:\n%s\n%s", c.args, out.String(), errs.String())
		}
	}
}

// -heldout learns from the singletons and pairs of -experiments and
// evaluates on the rest.
func TestInferHeldOut(t *testing.T) {
	dir := t.TempDir()
	truth := pmevoToy()
	insns := truth.Instructions()
	exps := append(design.Singletons(insns), design.Pairs(insns)...)
	exps = append(exps, design.Random(insns, 4, 30, 1)...)
	set, _, err := oracle.MeasureAll(t.Context(), oracle.Simulate(truth, 0, 1), exps, nil)
	if err != nil {
		t.Fatal(err)
	}
	efile := filepath.Join(dir, "exps.json")
	if err := portmap.WriteExperiments(efile, set); err != nil {
		t.Fatal(err)
	}
	train, held := source.SplitHeldOut(set)
	var out, errs bytes.Buffer
	err = run(t.Context(), []string{"infer", "pmevo", "-experiments", efile, "-ports", "4", "-heldout", "-population", "100", "-generations", "5"}, &out, &errs)
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errs.String())
	}
	if want := fmt.Sprintf("training: %d experiments", train.Len()); train.Len() < len(insns)*(len(insns)+1)/2 || !strings.Contains(errs.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, errs.String())
	}
	if want := fmt.Sprintf("on the %d held-out experiments: n=%d ", held.Len(), held.Len()); held.Len() < 20 || !strings.Contains(out.String(), want) {
		t.Errorf("stdout lacks %q:\n%s", want, out.String())
	}
	err = run(t.Context(), []string{"infer", "pmevo", "-simulate", efile, "-heldout"}, &out, &errs)
	if err == nil || !strings.Contains(err.Error(), "-heldout needs -experiments") {
		t.Errorf("-heldout with -simulate: %v", err)
	}
}

// TestInferInterruptedStillEvaluates interrupts an inference that would
// run for minutes: the best mapping so far is written and evaluated, and
// the command reports the interruption ("-eval" once failed with
// "context canceled" after the files had been written).
func TestInferInterruptedStillEvaluates(t *testing.T) {
	dir := t.TempDir()
	truth := pmevoToy()
	mfile := writeMapping(t, dir, truth)
	prefix := filepath.Join(dir, "out")
	// The interrupt comes with the first progress line of the evolution.
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var out bytes.Buffer
	errs := &cancelOn{what: "generation", cancel: cancel}
	err := run(ctx, []string{"infer", "pmevo", "-simulate", mfile, "-population", "3000", "-generations", "1000000", "-stall", "0",
		"-eval", "random:5:200", "-out", prefix}, &out, errs)
	if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want the interruption\n%s", err, out.String())
	}
	for _, want := range []string{"interrupted: the result is the best found so far", "wrote ", "on random:5:200: n=200"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if _, err := portmap.ReadMapping(prefix + ".json"); err != nil {
		t.Error(err)
	}
	if !strings.Contains(out.String(), "(interrupted)") {
		t.Errorf("the evolution was not interrupted:\n%s", out.String())
	}
}

// cancelOn is a writer that calls cancel when what is written to it.
type cancelOn struct {
	bytes.Buffer
	what   string
	cancel func()
}

func (c *cancelOn) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte(c.what)) {
		c.cancel()
	}
	return c.Buffer.Write(p)
}

// TestInferUopsInfo runs uops.info's algorithm from the command line: the
// simulation gets per-port counters because the method asks for them, the
// store (two µops, no single-µop instruction on the store-data port) is
// reported, not guessed, and replayed data without counters is refused.
func TestInferUopsInfo(t *testing.T) {
	dir := t.TempDir()
	truth := portmap.MustMapping("toy", "0", "1", "2", "3")
	truth.MustSetUsage("add", "1*p01").MustSetUsage("mul", "1*p1").MustSetUsage("ld", "1*p2").
		MustSetUsage("fma", "2*p01+1*p1").MustSetUsage("ldadd", "1*p2+1*p01").MustSetUsage("store", "1*p2+1*p3")
	mfile := writeMapping(t, dir, truth)
	prefix := filepath.Join(dir, "out")
	var out, errs bytes.Buffer
	err := run(t.Context(), []string{"infer", "uopsinfo", "-simulate", mfile, "-eval", "random:3:50", "-out", prefix}, &out, &errs)
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errs.String())
	}
	for _, want := range []string{"3 blocking instructions for 3 port sets", "6 instructions: 3 blocking, 2 resolved, 1 incomplete",
		"incomplete store: found 1 of its 2 µops", "on random:3:50: n="} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	m, err := portmap.ReadMapping(prefix + ".json")
	if err != nil {
		t.Fatal(err)
	}
	for _, insn := range truth.Instructions() {
		if insn == "store" {
			if m.Has(insn) {
				t.Errorf("store mapped as %s", m.Usage(insn))
			}
		} else if m.Usage(insn) != truth.Usage(insn) {
			t.Errorf("%s = %s, want %s", insn, m.Usage(insn), truth.Usage(insn))
		}
	}
	report, err := os.ReadFile(prefix + ".report.json")
	if err != nil || !strings.Contains(string(report), `"Outcome": "incomplete"`) {
		t.Errorf("report: %v\n%.300s", err, report)
	}

	// Measurements without per-port counts.
	efile := filepath.Join(dir, "exps.json")
	if err := os.WriteFile(efile, []byte(`{"kind":"ExperimentList","arch":{"kind":"Architecture","insns":["add","mul"],"ports":["0","1"],"name":"toy"},"exps":[`+
		`{"kind":"Experiment","iseq":["add"],"result":{"cycles":0.5}},{"kind":"Experiment","iseq":["mul"],"result":{"cycles":1}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	err = run(t.Context(), []string{"infer", "uopsinfo", "-experiments", efile}, &out, &errs)
	if err == nil || !strings.Contains(err.Error(), "no per-port µop counts") {
		t.Errorf("data without port counters: %v", err)
	}
}

func TestInferCEGIS(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil && os.Getenv("CI") == "" {
		t.Skip("z3 is not installed (apt-get install z3); CI installs it")
	}
	dir := t.TempDir()
	truth := portmap.MustMapping("toy", "0", "1", "2")
	truth.MustSetUsage("add", "1*p012").MustSetUsage("mul", "1*p1").MustSetUsage("fma", "1*p01").MustSetUsage("load", "1*p2")
	mfile := writeMapping(t, dir, truth)
	prefix := filepath.Join(dir, "out")
	var out, errs bytes.Buffer
	err := run(t.Context(), []string{"infer", "cegis", "-simulate", mfile, "-epsilon", "0", "-eval", "random:5:200", "-out", prefix}, &out, &errs)
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errs.String())
	}
	checkInferred(t, out.String(), prefix, truth, "bottleneck encoding, ε = 0", "unique: no consistent mapping", "on random:5:200: n=200 MAPE=0.00%")
	// The thesis encoding, and a bad flag.
	out.Reset()
	if err := run(t.Context(), []string{"infer", "cegis", "-simulate", mfile, "-thesis", "-max-size", "3"}, &out, &errs); err != nil {
		t.Fatalf("-thesis: %v\n%s", err, errs.String())
	}
	if !strings.Contains(out.String(), "thesis encoding, ε = 0.02") {
		t.Errorf("-thesis output:\n%s", out.String())
	}
	if err := run(t.Context(), []string{"infer", "cegis", "-simulate", mfile, "-encoding", "lp"}, &out, &errs); err == nil || !strings.Contains(err.Error(), `"lp"`) {
		t.Errorf("-encoding lp: %v", err)
	}
}

// pmevoToy is the four-port truth the PMEvo tests infer.
func pmevoToy() *portmap.Mapping {
	m := portmap.MustMapping("toy", "0", "1", "2", "3")
	m.MustSetUsage("add", "1*p0123").MustSetUsage("mul", "1*p1").MustSetUsage("shuf", "1*p3").
		MustSetUsage("fma", "1*p01").MustSetUsage("ldadd", "1*p2+1*p0123").MustSetUsage("div", "1*p0+2*p1")
	return m
}

// writeMapping writes m as DIR/truth.json and returns the path.
func writeMapping(t *testing.T, dir string, m *portmap.Mapping) string {
	t.Helper()
	path := filepath.Join(dir, "truth.json")
	if err := portmap.WriteMapping(path, m); err != nil {
		t.Fatal(err)
	}
	return path
}

// palmed on the Fig. 1 toy: -out writes the resource files and the
// equivalent port mapping, which predicts what the resource mapping does;
// with no shape growth the core does not fit: the result is still written
// and evaluated, the misfits are listed, and the command fails.
func TestInferPALMED(t *testing.T) {
	if _, err := exec.LookPath("cbc"); err != nil {
		t.Skip("cbc not installed")
	}
	dir := t.TempDir()
	truth := fig1Mapping()
	mfile := writeMapping(t, dir, truth)
	prefix := filepath.Join(dir, "out")
	var out, errs bytes.Buffer
	err := run(t.Context(), []string{"infer", "palmed", "-simulate", mfile, "-basic", "5", "-eval", "random:4:200", "-out", prefix}, &out, &errs)
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errs.String())
	}
	if !strings.Contains(out.String(), "on random:4:200: n=200 MAPE=") || !strings.Contains(out.String(), "port mapping: an equivalent port mapping") {
		t.Errorf("output:\n%s", out.String())
	}
	pm, err := portmap.ReadMapping(prefix + ".json")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{".pmevo.json", ".resources.json", ".resources-nn.json", ".resources.txt", ".report.json"} {
		if _, err := os.Stat(prefix + f); err != nil {
			t.Error(err)
		}
	}
	// The port mapping predicts what the resource mapping does.
	rm, err := resource.ReadFile(prefix + ".resources.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range truth.Instructions() {
		for _, b := range truth.Instructions() {
			e := portmap.NewExperiment(a, a, b, "JMP")
			x, _ := throughput.NewModel(pm).Cycles(e)
			y, _, _ := rm.Cycles(e)
			if math.Abs(x-y) > 1e-9 {
				t.Errorf("%v: %v cycles on the exported port mapping, %v on the resource mapping", e, x, y)
			}
		}
	}
	out.Reset()
	err = run(t.Context(), []string{"infer", "palmed", "-simulate", mfile, "-basic", "5", "-max-grow", "0", "-eval", "random:4:50", "-out", prefix + "2"}, &out, &errs)
	if err == nil || !strings.Contains(err.Error(), "does not fit") || !strings.Contains(out.String(), "WARNING") || !strings.Contains(out.String(), "on random:4:50") {
		t.Errorf("no growth: %v\n%s", err, out.String())
	}
	if _, err := os.Stat(prefix + "2.resources.json"); err != nil {
		t.Error(err)
	}
}

// TestInferExplainable runs the explainable method through the command on
// a small simulated machine (a mapping file, given a front end of 5
// instructions per cycle with -ipc; the simulation counts total µops) and
// checks the output, the files it writes and the mapping (equal to the
// truth up to renaming ports: a total counter cannot name them); then the
// failure paths: measurements without µop counts, a bad flag value.
func TestInferExplainable(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil && os.Getenv("CI") == "" {
		t.Skip("z3 is not installed (apt-get install z3); CI installs it")
	}
	dir := t.TempDir()
	truth := portmap.MustMapping("toy", "0", "1", "2", "3")
	truth.MustSetUsage("add", "1*p01").MustSetUsage("mul", "1*p1").MustSetUsage("ld", "1*p23").MustSetUsage("shuf", "1*p3").
		MustSetUsage("addm", "1*p01+1*p23").MustSetUsage("fma", "2*p1+1*p01").MustSetUsage("or", "1*p01")
	mfile := writeMapping(t, dir, truth)
	prefix := filepath.Join(dir, "out")
	var out, errs bytes.Buffer
	err := run(t.Context(), []string{"infer", "explainable", "-simulate", mfile, "-ipc", "5", "-improper", "none", "-eval", "random:4:100", "-out", prefix}, &out, &errs)
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errs.String())
	}
	if !strings.Contains(errs.String(), "peak 5 instructions per cycle") {
		t.Errorf("the simulated machine should have the front end of -ipc:\n%s", errs.String())
	}
	checkInferred(t, out.String(), prefix, truth, "4 blocking classes", "stage 3: peak 5 instructions per cycle, given",
		"7 of 7 instructions mapped", "explainable: 7 instructions on 4 ports", "on random:4:100: n=100 MAPE=0.00%")
	if _, err := os.Stat(prefix + ".pmevo.json"); err != nil {
		t.Error(err)
	}
	report, err := os.ReadFile(prefix + ".report.json")
	if err != nil || !strings.Contains(string(report), `"Outcome": "mapped"`) || !strings.Contains(string(report), `"Insn": "fma"`) {
		t.Errorf("report: %v\n%.300s", err, report)
	}

	// Measurements without µop counts: an error that says so and quotes
	// this host's PMU status; nothing written.
	efile := filepath.Join(dir, "exps.json")
	if err := os.WriteFile(efile, []byte(`{"kind":"ExperimentList","arch":{"kind":"Architecture","insns":["add","mul"],"ports":["0","1"],"name":"toy"},"exps":[`+
		`{"kind":"Experiment","iseq":["add"],"result":{"cycles":0.5}},{"kind":"Experiment","iseq":["mul"],"result":{"cycles":1}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	prefix2 := filepath.Join(dir, "nocounter")
	err = run(t.Context(), []string{"infer", "explainable", "-experiments", efile, "-ports", "2", "-out", prefix2}, &out, &errs)
	if err == nil || !strings.Contains(err.Error(), "total µop counter") || !strings.Contains(err.Error(), "PMU") {
		t.Errorf("data without µop counts: %v", err)
	}
	if _, serr := os.Stat(prefix2 + ".json"); serr == nil {
		t.Error("a run without counters wrote a mapping")
	}
	// On this machine (-measure) without a PMU: the counter methods stop
	// before measuring, saying why.
	if st := pmu.Detect(); !st.Available() {
		err = run(t.Context(), []string{"infer", "explainable", "-measure", "-insns", "curated:3", "-ports", "4", "-cpu", "-1"}, &out, &errs)
		if err == nil || !strings.Contains(err.Error(), "needs the µop counter") || !errors.Is(err, pmu.ErrNoPMU) && !errors.Is(err, pmu.ErrNotPermitted) {
			t.Errorf("explainable -measure without a PMU (%v): %v", st, err)
		}
		err = run(t.Context(), []string{"infer", "uopsinfo", "-measure", "-insns", "curated:3", "-ports", "4", "-cpu", "-1"}, &out, &errs)
		if err == nil || !strings.Contains(err.Error(), "reads no per-port µop counters") || !strings.Contains(err.Error(), st.Err().Error()) {
			t.Errorf("uopsinfo -measure: %v", err)
		}
	}
	// A bad flag value names the flag.
	err = run(t.Context(), []string{"infer", "explainable", "-simulate", mfile, "-repeats", "x"}, &out, &errs)
	if err == nil || !strings.Contains(err.Error(), "-repeats") {
		t.Errorf("bad -repeats: %v", err)
	}
}

// -stored answers from a campaign file first and asks the -simulate oracle
// for the rest (counted on stdout); a bad stored file is an error naming
// its line; -stored with -experiments is refused.
func TestInferStored(t *testing.T) {
	if _, err := exec.LookPath("cbc"); err != nil {
		t.Skip("cbc not installed")
	}
	dir := t.TempDir()
	truth := fig1Mapping()
	mfile := writeMapping(t, dir, truth)
	stored := filepath.Join(dir, "train.jsonl")
	var lines []string
	for _, insn := range truth.Instructions() {
		c, _ := throughput.NewModel(truth).Cycles(portmap.NewExperiment(insn))
		lines = append(lines, fmt.Sprintf(`{"insns":{%q:1},"cycles":%g,"passes":3,"spread":0.001}`, insn, c))
	}
	os.WriteFile(stored, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	var out, errs bytes.Buffer
	err := run(t.Context(), []string{"infer", "palmed", "-simulate", mfile, "-stored", stored, "-basic", "5"}, &out, &errs)
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errs.String())
	}
	if !strings.Contains(out.String(), "stored first: 6 answered from "+stored) || !strings.Contains(errs.String(), "noise from their passes: 0.10%") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out.String(), errs.String())
	}
	os.WriteFile(stored, []byte(lines[0]+"\n{oops\n"+lines[1]+"\n"), 0o644)
	err = run(t.Context(), []string{"infer", "palmed", "-simulate", mfile, "-stored", stored}, &out, &errs)
	if err == nil || !strings.Contains(err.Error(), "train.jsonl:2") {
		t.Errorf("bad stored file: %v", err)
	}
	err = run(t.Context(), []string{"infer", "palmed", "-experiments", stored, "-stored", stored}, &out, &errs)
	if err == nil || !strings.Contains(err.Error(), "-stored needs -measure or -simulate") {
		t.Errorf("-stored with -experiments: %v", err)
	}
}

// checkInferred checks that an inference's output holds every string of
// want and that the mapping it wrote to prefix.json is truth up to a
// renaming of the ports.
func checkInferred(t *testing.T, out, prefix string, truth *portmap.Mapping, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	m, err := portmap.ReadMapping(prefix + ".json")
	if err != nil {
		t.Fatal(err)
	}
	if _, equal := portmap.EquivalentByRenaming(truth, m); !equal {
		t.Errorf("inferred %v, want %v up to renaming", m, truth)
	}
}

// fig1Mapping is the toy machine of PALMED's Fig. 1 (paper §2): six
// instructions on ports 0, 1 and 6.
func fig1Mapping() *portmap.Mapping {
	return portmap.MustMapping("fig1", "0", "1", "6").MustSetUsage("DIVPS", "1*p0").MustSetUsage("VCVTT", "2*p01").
		MustSetUsage("ADDSS", "1*p01").MustSetUsage("BSR", "1*p1").MustSetUsage("JNLE", "1*p06").MustSetUsage("JMP", "1*p6")
}

// TestInferCegisUopsRealNames gives cegis -uops known µop counts of x86
// forms, whose names contain ", ": entries NAME=COUNT separated by ";",
// and the same entries one a line in a file (@FILE).
func TestInferCegisUopsRealNames(t *testing.T) {
	if _, err := exec.LookPath("z3"); err != nil && os.Getenv("CI") == "" {
		t.Skip("z3 is not installed (apt-get install z3); CI installs it")
	}
	const add, imul, fma = "add R:GPR:64, R:GPR:64", "imul R:GPR:64, R:GPR:64", "vfmadd231ps W:XMM0..15, R:XMM0..15, R:XMM0..15"
	dir := t.TempDir()
	truth := portmap.MustMapping("x86", "0", "1")
	truth.MustSetUsage(add, "1*p01").MustSetUsage(imul, "1*p1").MustSetUsage(fma, "1*p0+1*p1")
	mfile := writeMapping(t, dir, truth)
	list := filepath.Join(dir, "uops.txt")
	if err := os.WriteFile(list, []byte(fma+"=2\n"+add+" = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, uops := range []string{fma + "=2;" + add + "=1", "@" + list} {
		prefix := filepath.Join(dir, "out")
		var out, errs bytes.Buffer
		if err := run(t.Context(), []string{"infer", "cegis", "-simulate", mfile, "-epsilon", "0", "-uops", uops, "-out", prefix}, &out, &errs); err != nil {
			t.Fatalf("-uops %q: %v\n%s\n%s", uops, err, out.String(), errs.String())
		}
		checkInferred(t, out.String(), prefix, truth, "unique: no consistent mapping")
	}
	var out, errs bytes.Buffer
	if err := run(t.Context(), []string{"infer", "cegis", "-simulate", mfile, "-uops", add + "=x"}, &out, &errs); err == nil || !strings.Contains(err.Error(), "want NAME=COUNT") {
		t.Errorf("-uops with a bad count: %v", err)
	}
}

// TestInferRefusesBadSettings: negative -workers and an out-of-range
// method flag are refused before anything is simulated or measured.
func TestInferRefusesBadSettings(t *testing.T) {
	mfile := writeMapping(t, t.TempDir(), pmevoToy())
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"infer", "pmevo", "-simulate", mfile, "-workers", "-1"}, "-workers -1: want ≥ 0"},
		{[]string{"infer", "pmevo", "-simulate", mfile, "-population", "1"}, "-population 1: want ≥ 2"},
		{[]string{"infer", "palmed", "-simulate", mfile, "-M", "0"}, "-M 0: want ≥ 1"},
	} {
		var out, errs bytes.Buffer
		if err := run(t.Context(), c.args, &out, &errs); err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(errs.String(), "training") {
			t.Errorf("%v: %v, want %q\n%s", c.args, err, c.want, errs.String())
		}
	}
}
