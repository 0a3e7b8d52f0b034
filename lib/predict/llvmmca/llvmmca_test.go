package llvmmca

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/dataset/datasettest"
	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// needLLVMMCA skips t when llvm-mca is not installed, unless CI is set.
func needLLVMMCA(t *testing.T) {
	t.Helper()
	if _, err := Find(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%v (CI is set: install LLVM, e.g. apt-get install llvm-14)", err)
		}
		t.Skipf("%v: install LLVM (e.g. apt-get install llvm-14) to run the llvm-mca tests", err)
	}
}

const (
	add  = "add RW:GPR:64, R:GPR:64"
	imul = "imul RW:GPR:64, R:GPR:64"
	vadd = "vaddps W:YMM0..15, R:YMM0..15, R:YMM0..15"
	zmm  = "vaddps W:ZMM0..31, R:ZMM0..31, R:ZMM0..31" // AVX-512: no Skylake (client) model
)

func near(got, want, rel float64) bool { return math.Abs(got-want) <= rel*want }

// TestLLVMMCAKnown checks steady-state throughputs everyone knows for
// Skylake: four ALU ports for add, port 1 for imul, ports 0 and 1 for a
// vaddps on ymm.
func TestLLVMMCAKnown(t *testing.T) {
	needLLVMMCA(t)
	p := New("skylake")
	if v, err := p.Version(t.Context()); err != nil {
		t.Fatal(err)
	} else {
		t.Logf("llvm-mca %s", v)
	}
	cases := []struct {
		insns  []string
		copies int
		want   float64
	}{
		{[]string{add}, 0, 0.25},
		{[]string{"ADD_((REG:RW:G:64)),_((IMM:32))"}, 0, 0.25}, // PMEvo name
		{[]string{imul}, 0, 1},
		{[]string{imul, vadd, vadd}, 0, 1.5}, // three µops on ports 0 and 1
		{[]string{add, add, add, add}, 1, 1}, // four independent adds: one cycle
		{[]string{imul}, 1, 3},               // one copy: the loop-carried chain, imul's latency
	}
	for _, c := range cases {
		p.Copies = c.copies
		e := portmap.NewExperiment(c.insns...)
		got, err := p.Predict(t.Context(), []portmap.Experiment{e})
		if err != nil {
			t.Errorf("%v: %v", e, err)
			continue
		}
		// Total Cycles include a few cycles of pipeline fill.
		if !near(got[0], c.want, 0.05) {
			t.Errorf("%v with copies %d: %.3f cycles, want %.3f ± 5 %%", e, c.copies, got[0], c.want)
		}
	}

	// The static bound is exact.
	p.Copies, p.Metric = 0, BlockRThroughput
	got, err := p.Predict(t.Context(), []portmap.Experiment{portmap.NewExperiment(add), portmap.NewExperiment(imul)})
	if err != nil || got[0] != 0.25 || got[1] != 1 {
		t.Errorf("Block RThroughput: %v, %v; want [0.25 1]", got, err)
	}
	if p.Name() != "llvm-mca -mcpu=skylake (Block RThroughput)" {
		t.Errorf("Name = %q", p.Name())
	}
}

// TestLLVMMCAUnsupported checks that experiments llvm-mca cannot handle
// fail alone, each with the instruction and llvm-mca's reason.
func TestLLVMMCAUnsupported(t *testing.T) {
	needLLVMMCA(t)
	exps := []portmap.Experiment{
		portmap.NewExperiment(add),
		portmap.NewExperiment(zmm, add),                                       // no scheduling information: the run stops here
		portmap.NewExperiment(imul),                                           // … and goes on after it
		portmap.NewExperiment("frobnicate RW:GPR:64, R:GPR:64", add),          // a form llvm-mca cannot parse
		portmap.NewExperiment("not an instruction"),                           // not a form at all
		portmap.NewExperiment("_add_((REG:W:G:64)),_((REG:R:G:64)),_#1"),      // AArch64 on an x86 CPU
		portmap.NewExperiment(zmm),                                            // twice in one batch
		portmap.NewExperiment(add, "_add_((REG:W:G:64)),_((REG:R:G:64)),_#1"), // mixed ISAs
		portmap.NewExperiment(add),                                            // a duplicate
	}
	p := New("skylake")
	got, err := p.Predict(t.Context(), exps)
	var ue *oracle.UnsupportedError
	if !errors.As(err, &ue) {
		t.Fatalf("err = %v, want *oracle.UnsupportedError", err)
	}
	if !near(got[0], 0.25, 0.05) || !near(got[2], 1, 0.05) || got[8] != got[0] {
		t.Errorf("supported experiments: %v", got)
	}
	want := map[int]struct{ insn, reason string }{
		1: {zmm, `llvm-mca -mcpu=skylake cannot analyse "vaddps zmm`},
		3: {"frobnicate RW:GPR:64, R:GPR:64", `llvm-mca rejects "frobnicate r`},
		4: {"not an instruction", "neither an iwho x86 scheme"},
		5: {"", "llvm-mca -mcpu=skylake is not a CPU of aarch64"},
		6: {zmm, "unsupported instruction"},
		7: {add, "an x86-64 instruction in an aarch64 experiment"}, // "_add…" sorts first
	}
	if len(ue.Failures) != len(want) {
		t.Errorf("%d failures, want %d: %v", len(ue.Failures), len(want), ue.Failures)
	}
	for _, f := range ue.Failures {
		w, ok := want[f.Index]
		if !ok || f.Insn != w.insn || !strings.Contains(f.Reason, w.reason) || !math.IsNaN(got[f.Index]) {
			t.Errorf("failure %v, want instruction %q and reason with %q", f, w.insn, w.reason)
		}
	}
	t.Log(err)

	// An unknown CPU is an error, not a generic model.
	if _, err := New("pentium-9000").Predict(t.Context(), exps[:1]); err == nil || !strings.Contains(err.Error(), "-mcpu=pentium-9000 is not a processor") {
		t.Errorf("unknown CPU: %v", err)
	}
	if _, err := (&Predictor{}).Predict(t.Context(), exps[:1]); err == nil || !strings.Contains(err.Error(), "CPU") {
		t.Errorf("no CPU: %v", err)
	}
	bad := New("skylake")
	bad.Binary = "/nonexistent/llvm-mca"
	if _, err := bad.Predict(t.Context(), exps[:1]); err == nil || !strings.Contains(err.Error(), "/nonexistent/llvm-mca") {
		t.Errorf("missing binary: %v", err)
	}
}

// randomExperiments draws experiments of x86 forms — AVX-512 ones
// included, which llvm-mca cannot analyse for Skylake.
func randomExperiments(n, length int, seed uint64) []portmap.Experiment {
	var names []string
	for _, f := range isa.X86Forms() {
		names = append(names, f.Key())
	}
	return design.Random(names, length, n, seed)
}

// TestLLVMMCABatching checks that batching — regions, re-runs after an
// unsupported instruction, parallel runs — gives exactly what analysing
// each experiment alone gives.
func TestLLVMMCABatching(t *testing.T) {
	needLLVMMCA(t)
	exps := randomExperiments(40, 3, 7)
	batched := New("skylake")
	var mu sync.Mutex
	var calls, last int
	batched.BatchSize = 15
	batched.Progress = func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if done < last || total != len(exps) {
			t.Errorf("progress %d of %d after %d", done, total, last)
		}
		calls, last = calls+1, done
	}
	v1, f1, err := oracle.Predict(t.Context(), batched, exps)
	if err != nil {
		t.Fatal(err)
	}
	alone := New("skylake")
	alone.BatchSize = 1
	v2, f2, err := oracle.Predict(t.Context(), alone, exps)
	if err != nil {
		t.Fatal(err)
	}
	for i := range exps {
		if v1[i] != v2[i] && !(math.IsNaN(v1[i]) && math.IsNaN(v2[i])) {
			t.Errorf("%v: batched %v, alone %v", exps[i], v1[i], v2[i])
		}
	}
	if !reflect.DeepEqual(f1, f2) {
		t.Errorf("failures differ:\nbatched %v\nalone   %v", f1, f2)
	}
	if len(f1) == 0 || len(f1) == len(exps) || last != len(exps) || calls < 3 {
		t.Errorf("%d of %d unsupported, progress reached %d in %d calls", len(f1), len(exps), last, calls)
	}
	t.Logf("%d of %d experiments unsupported", len(f1), len(exps))
}

func TestLLVMMCACancel(t *testing.T) {
	needLLVMMCA(t)
	exps := randomExperiments(400, 5, 11)
	p := New("icelake-server")
	p.Iterations = 3000 // slow enough to be caught running
	p.BatchSize = 10
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var once sync.Once
	var started time.Time
	p.Progress = func(done, total int) {
		once.Do(func() { started = time.Now(); cancel() })
	}
	_, err := p.Predict(ctx, exps)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(started); d > 2*time.Second {
		t.Errorf("Predict returned %v after the cancellation", d)
	}
}

// TestLLVMMCAPMEvo runs llvm-mca on PMEvo's measured experiments (named
// by PMEvo) and compares with the measurements and with the llvm-mca
// predictions stored in the data.
func TestLLVMMCAPMEvo(t *testing.T) {
	needLLVMMCA(t)
	datasettest.Need(t)
	const n = 200
	for _, c := range []struct {
		arch, cpu string
		maxMAPE   float64
	}{
		{"SKL", "skylake", 20},        // measured 7.5 % with LLVM 14 (the stored LLVM 9 values: 248 %)
		{"SKL", "icelake-server", 25}, // 9.0 %: a newer core's model
		{"A72", "cortex-a72", 150},    // 77 %, as the stored values (see below)
	} {
		t.Run(c.arch+"/"+c.cpu, func(t *testing.T) {
			set, err := dataset.PMEvoExperiments(c.arch, "eval_small_annotated")
			if err != nil {
				t.Fatal(err)
			}
			ms := set.Measurements[:n]
			exps := set.Experiments()[:n]
			start := time.Now()
			got, fails, err := oracle.Predict(t.Context(), New(c.cpu), exps)
			if err != nil {
				t.Fatal(err)
			}
			elapsed := time.Since(start)
			for _, f := range fails {
				t.Log(f)
			}
			if len(fails) > n/20 {
				t.Errorf("%d of %d experiments unsupported, want ≤ 5 %%", len(fails), n)
			}
			var meas, pred, stored, ratio []float64
			for i, v := range got {
				if math.IsNaN(v) {
					continue
				}
				meas, pred = append(meas, ms[i].Cycles), append(pred, v)
				s := ms[i].Others["llvm-mca"]
				stored, ratio = append(stored, s), append(ratio, s/v)
			}
			sum, err := metrics.Summarize(meas, pred)
			if err != nil {
				t.Fatal(err)
			}
			old, _ := metrics.Summarize(meas, stored)
			r, _ := metrics.Pearson(stored, pred)
			tau, _ := metrics.KendallTauB(stored, pred)
			t.Logf("llvm-mca -mcpu=%s on %d %s experiments (%.2f ms each): %v", c.cpu, n, c.arch, float64(elapsed.Microseconds())/1000/n, sum)
			t.Logf("stored llvm-mca: %v; agreement with it: Pearson %.3f, Kendall τ-b %.3f", old, r, tau)
			if sum.MAPE > c.maxMAPE || sum.Pearson < 0.6 {
				t.Errorf("MAPE %.2f %% (want ≤ %v %%), Pearson %.3f (want ≥ 0.6)", sum.MAPE, c.maxMAPE, sum.Pearson)
			}
			if c.arch == "A72" {
				// llvm-mca's Cortex-A72 model is the one the PMEvo authors
				// ran: the same methodology reproduces most stored values.
				sort.Float64s(ratio)
				within := 0
				for _, x := range ratio {
					if math.Abs(x-1) <= 0.03 {
						within++
					}
				}
				t.Logf("%d of %d stored values reproduced within 3 %%; median stored/ours %.3f", within, len(ratio), ratio[len(ratio)/2])
				if within < len(ratio)/2 {
					t.Errorf("only %d of %d stored A72 values reproduced within 3 %%", within, len(ratio))
				}
			}
		})
	}
}

// TestLLVMMCACrash checks the fallback for a run that fails without saying
// where: a wrapper around llvm-mca crashes, printing nothing, on any input
// holding an instruction, and each suspect region is confirmed alone.
func TestLLVMMCACrash(t *testing.T) {
	needLLVMMCA(t)
	real, _ := Find()
	wrapper := filepath.Join(t.TempDir(), "llvm-mca-crashy")
	script := "#!/bin/sh\nin=$(cat)\ncase \"$in\" in *bswap*) echo 'Stack dump: boom' >&2; exit 139;; esac\nprintf '%s\\n' \"$in\" | exec " + real + " \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	p := New("skylake")
	p.Binary = wrapper
	exps := []portmap.Experiment{
		portmap.NewExperiment(add),
		portmap.NewExperiment(imul, "bswap RW:GPR:64"),
		portmap.NewExperiment(imul),
		portmap.NewExperiment(vadd, vadd),
	}
	got, fails, err := oracle.Predict(t.Context(), p, exps)
	if err != nil {
		t.Fatal(err)
	}
	if !near(got[0], 0.25, 0.05) || !near(got[2], 1, 0.05) || !near(got[3], 1, 0.05) {
		t.Errorf("predictions %v", got)
	}
	if len(fails) != 1 || fails[0].Index != 1 || !strings.Contains(fails[0].Reason, "Stack dump: boom") {
		t.Errorf("failures %v", fails)
	}
}

func TestParseOutput(t *testing.T) {
	out := `
[0] Code Region - e0

Iterations:        100
Instructions:      1000
Total Cycles:      610
Total uOps:        2400

Dispatch Width:    6
uOps Per Cycle:    3.93
IPC:               1.64
Block RThroughput: 4.0

[1] Code Region - e2

Iterations:        200
Instructions:      200
Total Cycles:      103
Block RThroughput: 0.3
`
	res := parseOutput(out)
	if len(res) != 2 || res[0].totalCycles != 610 || res[0].iterations != 100 || res[0].rthroughput != 4 || res[2].iterations != 200 {
		t.Fatalf("parsed %+v", res)
	}
	p := &Predictor{}
	if v, ok := p.value(res[0], 2); !ok || v != 3.05 {
		t.Errorf("Total Cycles per copy = %v, want 3.05", v)
	}
	p.Metric = BlockRThroughput
	if v, ok := p.value(res[0], 2); !ok || v != 2 {
		t.Errorf("Block RThroughput per copy = %v, want 2", v)
	}
}

func TestSource(t *testing.T) {
	p := New("skylake")
	src, copies, err := p.Source(portmap.NewExperiment("add RW:GPR:64, R:GPR:64", "add RW:GPR:64, R:GPR:64", "imul RW:GPR:64, R:GPR:64"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(src), "\n")
	// round(10/3) = 3 copies of add, imul, add.
	if copies != 3 || len(lines) != 3+9 || lines[0] != ".intel_syntax noprefix" || lines[1] != "# LLVM-MCA-BEGIN e0" || lines[11] != "# LLVM-MCA-END" {
		t.Fatalf("copies %d, source:\n%s", copies, src)
	}
	if !strings.HasPrefix(lines[2], "add ") || !strings.HasPrefix(lines[3], "imul ") || !strings.HasPrefix(lines[4], "add ") {
		t.Errorf("not round-robin:\n%s", src)
	}
	// PMEvo's 5-instruction experiments get PMEvo's 2 copies; memory is
	// addressed through r14.
	_, copies, err = p.Source(portmap.NewExperiment("ADD_((REG:RW:G:64)),_((IMM:32))", "NEG_((REG:RW:G:64))", "INC_((REG:RW:G:64))",
		"BSWAP_((REG:RW:G:64))", "ADD_qword_ptr_[((MEM:64))_+_((MIMM:16))],_((IMM:32))"))
	if err != nil || copies != 2 {
		t.Errorf("PMEvo experiment: %d copies, %v", copies, err)
	}
	p.Copies = 1
	src, _, err = p.Source(portmap.NewExperiment("_add_((REG:W:G:64)),_((REG:R:G:64)),_((REG:R:G:64))"))
	if err != nil || strings.Contains(src, "intel_syntax") || strings.Count(src, "add x") != 1 {
		t.Errorf("AArch64 source %q, %v", src, err)
	}
	if _, _, err := p.Source(portmap.NewExperiment("no such instruction")); err == nil || !strings.Contains(err.Error(), `"no such instruction"`) {
		t.Errorf("bad name: %v", err)
	}
}
