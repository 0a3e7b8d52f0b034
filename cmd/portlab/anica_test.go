package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/anica"
	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/measure"
	"github.com/portlab/portlab/lib/predict/llvmmca"
	"github.com/portlab/portlab/lib/source"
)

// slowMachine writes the zenplus-like machine with every vpmullw form
// taking 24 µops on port 0.
func slowMachine(t *testing.T) string {
	t.Helper()
	m, err := machine.Lookup(machine.ZenPlusLikeName)
	if err != nil {
		t.Fatal(err)
	}
	m.Name = "slow-vpmullw"
	for _, insn := range m.Mapping.Instructions() {
		if strings.HasPrefix(insn, "vpmullw ") {
			if err := m.Mapping.SetUsage(insn, "24*p0"); err != nil {
				t.Fatal(err)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "slow.json")
	if err := machine.Write(path, m); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestAnica(t *testing.T) {
	var buf bytes.Buffer
	dir := filepath.Join(t.TempDir(), "campaign")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-predictors", "sim:zenplus-like"}, "needs -predictors, -budget and -out"},
		{[]string{"-predictors", "host:x,sim:zenplus-like", "-budget", "10", "-out", dir}, `"x" is not a CPU number`},
		{[]string{"-predictors", "sim:portlab:nope", "-budget", "10", "-out", dir}, "unknown simulated machine"},
		{[]string{"-predictors", "iaca:skl", "-budget", "10", "-out", dir}, `unknown kind "iaca"`},
		{[]string{"-predictors", "sim:zenplus-like", "-budget", "-3", "-out", dir}, "-budget"},
		{[]string{"-predictors", "sim:zenplus-like", "-budget", "10", "-threshold", "0", "-out", dir}, "threshold"},
		{[]string{"-predictors", "sim:zenplus-like", "-budget", "10", "-generalisations", "0", "-out", dir}, "-generalisations 0"},
		{[]string{"-predictors", "sim:zenplus-like", "-budget", "1m", "-check-time", "1m", "-out", dir}, "less than -budget"},
		// One predictor, or one named twice, has nothing to disagree with.
		{[]string{"-predictors", "sim:zenplus-like", "-budget", "10", "-out", dir}, "want at least two predictors"},
		{[]string{"-predictors", "sim:zenplus-like,sim:zenplus-like", "-budget", "10", "-out", dir}, "named twice"},
	} {
		err := run(t.Context(), append([]string{"anica"}, c.args...), &buf, &buf)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(dir); err == nil {
		t.Fatal("a refused campaign created its directory")
	}

	slow := slowMachine(t)
	args := []string{"anica", "-predictors", "sim:zenplus-like,sim:" + slow, "-samples", "20", "-test", "300", "-out", dir}
	var out, progress bytes.Buffer
	if err := run(t.Context(), append(args, "-budget", "50"), &out, &progress); err != nil {
		t.Fatalf("%v\n%s", err, progress.String())
	}
	// The same command with a larger budget continues the campaign.
	out.Reset()
	progress.Reset()
	if err := run(t.Context(), append(args, "-budget", "100"), &out, &progress); err != nil {
		t.Fatalf("%v\n%s", err, progress.String())
	}
	if !strings.Contains(progress.String(), "resuming after 1 batches") {
		t.Errorf("no resumption:\n%s", progress.String())
	}
	rep := out.String()
	for _, want := range []string{"100 blocks sampled", "i1: mnemonic vpmullw", "soundness", "of 100 fresh samples", "#1 1.000", "coverage: 300 test blocks"} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q:\n%s", want, rep)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "discoveries.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ds []map[string]any
	if err := json.Unmarshal(data, &ds); err != nil || len(ds) != 1 {
		t.Errorf("discoveries.json: %d discoveries, %v", len(ds), err)
	}
}

// TestAnicaBudget: a time budget bounds the whole run, the soundness and
// coverage steps included; a test set too large for the time left is
// cut short and the report says so.
func TestAnicaBudget(t *testing.T) {
	slow := slowMachine(t)
	dir := filepath.Join(t.TempDir(), "campaign")
	var out, progress bytes.Buffer
	start := time.Now()
	err := run(t.Context(), []string{"anica", "-predictors", "sim:zenplus-like,sim:" + slow, "-budget", "6s", "-check-time", "3s",
		"-test", "10000000", "-out", dir}, &out, &progress)
	elapsed := time.Since(start)
	if err != nil {
		t.Fatalf("%v\n%s", err, progress.String())
	}
	// The work under way at the deadline (a check of 100 blocks, 50 test
	// blocks) is finished: a second or two on a loaded machine.
	if elapsed > 10*time.Second {
		t.Errorf("a 6 s budget ran %v", elapsed)
	}
	rep := out.String()
	for _, want := range []string{"budget 6s for the whole run: discovery until 3s before its end", "of 10000000 planned: the time budget ended the rest"} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q:\n%s", want, rep)
		}
	}
}

// TestAnicaHostFault: with the host as predictor, a block that faults
// when run is a crash of the host side, with the signal as its message
// (interesting, score +Inf), while a block the harness cannot run at all
// is outside the host (left out, score NaN).
func TestAnicaHostFault(t *testing.T) {
	cpu, err := measure.DefaultCPU()
	if err != nil {
		t.Fatal(err)
	}
	bp, err := source.ParseBlockPredictor(fmt.Sprintf("host:%d", cpu))
	if err != nil {
		t.Fatal(err)
	}
	host, _, err := bp.Open(t.Context(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer bp.Close()
	var blocks []*block.Block
	for _, src := range []string{"xor ecx, ecx\ndiv ecx", "mov rax, [rip+x]", "add rax, 1"} {
		b, err := block.Parse(src, block.Intel)
		if err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, b)
	}
	got, err := anica.NewCache(host).Predict(t.Context(), blocks)
	if err != nil {
		t.Fatal(err)
	}
	other := anica.Prediction{Cycles: 1}
	if p := got[0]; p.Outside || !strings.Contains(p.Err, "SIGFPE") || !math.IsInf(anica.Score([]anica.Prediction{other, p}, false), 1) {
		t.Errorf("faulting block: %+v, want a crash naming SIGFPE", p)
	}
	if p := got[1]; !p.Outside || !math.IsNaN(anica.Score([]anica.Prediction{other, p}, false)) {
		t.Errorf("block outside the harness: %+v, want outside", p)
	}
	if p := got[2]; p.Err != "" || !(p.Cycles > 0) {
		t.Errorf("add: %+v", p)
	}
	t.Logf("fault: %s", got[0].Err)
}

// An llvm-mca CPU that llvm-mca does not know is refused at the flag,
// before the journal is created: not a campaign in which no form is
// supported.
func TestAnicaUnknownCPU(t *testing.T) {
	if _, err := llvmmca.Find(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	dir := filepath.Join(t.TempDir(), "campaign")
	var buf bytes.Buffer
	err := run(t.Context(), []string{"anica", "-predictors", "sim:zenplus-like,llvm-mca:znver9", "-budget", "10", "-out", dir}, &buf, &buf)
	if err == nil || !strings.Contains(err.Error(), "-predictors") || !strings.Contains(err.Error(), "znver9") {
		t.Errorf("unknown CPU: %v, want an error naming -predictors and znver9", err)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Error("a refused campaign created its directory")
	}
}
