package palmed

import (
	"context"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/resource"
	"github.com/portlab/portlab/lib/solver"
)

// toy is the port mapping of PALMED Fig. 1a.
func toy() *portmap.Mapping {
	m := portmap.MustMapping("fig1", "0", "1", "6")
	return m.MustSetUsage("DIVPS", "1*p0").MustSetUsage("VCVTT", "2*p01").
		MustSetUsage("ADDSS", "1*p01").MustSetUsage("BSR", "1*p1").
		MustSetUsage("JNLE", "1*p06").MustSetUsage("JMP", "1*p6")
}

func toyConfig() Config {
	cfg := DefaultConfig()
	cfg.Basic = 5
	return cfg
}

// TestToy infers the Fig. 1 machine and checks the paper's basic
// instructions, the fit of the core and the predictions on every kernel of
// up to two instructions (each at most 3 times).
func TestToy(t *testing.T) {
	truth := toy()
	res, err := Infer(context.Background(), oracle.Simulate(truth, 0, 1), truth.Instructions(), toyConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	basic := append([]string(nil), res.Basic...)
	if got := strings.Join(sorted(basic), " "); got != "ADDSS BSR DIVPS JMP JNLE" {
		t.Errorf("basic instructions %s, want the paper's ADDSS BSR DIVPS JMP JNLE", got)
	}
	if res.WorstFit > toyConfig().FitTol {
		t.Errorf("core accepted with worst fit %.3g", res.WorstFit)
	}
	// LP2's weights are not unique: the inferred mapping predicts like
	// the truth without being its dual, and its port mapping has more
	// ports than the truth's three; it must predict exactly the same.
	if res.PortMapping == nil {
		t.Errorf("no equivalent port mapping: %s", res.PortMappingNote)
	}
	exact := oracle.Simulate(truth, 0, 1)
	insns := truth.Instructions()
	for i, a := range insns {
		for _, b := range insns[i:] {
			for na := 1; na <= 3; na++ {
				for nb := 0; nb <= 3; nb++ {
					e := portmap.NewExperiment(a).Scale(na).Plus(portmap.NewExperiment(b).Scale(nb))
					want, _ := oracle.Cycles(context.Background(), exact, e)
					got, _, err := res.Mapping.Cycles(e)
					if err != nil {
						t.Fatal(err)
					}
					if math.Abs(got-want) > 1e-6*want {
						t.Errorf("%v: %v cycles predicted, %v true", e, got, want)
					}
					if res.PortMapping != nil {
						ports, _ := oracle.Cycles(context.Background(), oracle.Simulate(res.PortMapping, 0, 1), e)
						if math.Abs(ports-got) > 1e-9 {
							t.Errorf("%v: %v cycles on the exported port mapping, %v on the resource mapping", e, ports, got)
						}
					}
				}
			}
		}
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// failing fails every kernel for which fail returns true.
type failing struct {
	inner oracle.Oracle
	fail  func(portmap.Experiment) bool
}

func (f failing) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	if f.fail(e) {
		return portmap.Measurement{}, &oracle.InsnError{Insn: e.Items()[0].Insn, Err: errors.New("cannot be benchmarked")}
	}
	return f.inner.Measure(ctx, e)
}

func TestFailingKernels(t *testing.T) {
	truth := toy()
	o := failing{oracle.Simulate(truth, 0, 1), func(e portmap.Experiment) bool {
		return e.Count("VCVTT") > 0 && e.Distinct() == 1 || e.Count("BSR") > 0 && e.Count("JMP") > 0 && e.Distinct() == 2 && e.Count("BSR") > 1
	}}
	res, err := Infer(context.Background(), o, truth.Instructions(), toyConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if why := res.Unmapped["VCVTT"]; !strings.Contains(why, "cannot be benchmarked") || res.Mapping.Has("VCVTT") {
		t.Errorf("VCVTT, which cannot be measured alone: unmapped because %q, mapped %v", why, res.Mapping.Has("VCVTT"))
	}
	found := false
	for _, f := range res.Skipped {
		if f.Experiment.Count("BSR") > 1 && f.Experiment.Count("JMP") > 0 {
			found = true
		}
	}
	if !found || len(res.Skipped) == 0 {
		t.Errorf("skipped kernels %v, want the BSR^n JMP kernels", res.Skipped)
	}
}

func TestMissingAndTimedOutSolver(t *testing.T) {
	truth := toy()
	t.Setenv("PATH", t.TempDir())
	counting := &countingOracle{Oracle: oracle.Simulate(truth, 0, 1)}
	_, err := Infer(context.Background(), counting, truth.Instructions(), toyConfig(), nil)
	if !errors.Is(err, solver.ErrNoSolver) || !strings.Contains(err.Error(), "coinor-cbc") {
		t.Errorf("without cbc: %v, want ErrNoSolver naming coinor-cbc", err)
	}
	if counting.asked != 0 {
		t.Errorf("without cbc: %d benchmarks measured before the error, want none", counting.asked)
	}
	dir := t.TempDir()
	script := "#!/bin/sh\nfor a; do last=$a; done\nprintf 'Stopped on time - objective value 3\\n' > \"$last\"\n"
	if err := os.WriteFile(filepath.Join(dir, "cbc"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	_, err = Infer(context.Background(), oracle.Simulate(truth, 0, 1), truth.Instructions(), toyConfig(), nil)
	if !errors.Is(err, solver.ErrTimeout) || !strings.Contains(err.Error(), "LP1") {
		t.Errorf("cbc out of time: %v, want ErrTimeout in LP1", err)
	}
}

func TestCancelled(t *testing.T) {
	truth := toy()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Infer(ctx, oracle.Simulate(truth, 0, 1), truth.Instructions(), toyConfig(), nil)
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Errorf("cancelled: %v, %v", res, err)
	}
}

// An instruction on a unit no basic instruction uses (a divider) gets a
// private resource; one whose ports no basic instruction covers, {1,6},
// shows LPAUX's limitation (paper §4.3, Alg. 5) unless it becomes basic.
func TestPrivateResource(t *testing.T) {
	truth := toy()
	m := portmap.MustMapping("fig1+div", "0", "1", "6", "7")
	for _, insn := range truth.Instructions() {
		m.MustSetUsage(insn, truth.Usage(insn))
	}
	m.MustSetUsage("DIV", "1*p0+3*p7")
	res, err := Infer(context.Background(), oracle.Simulate(m, 0, 1), m.Instructions(), toyConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := res.Mapping.Resource("R:DIV"); !ok {
		t.Fatalf("no private resource for DIV:\n%v", res.Mapping)
	}
	for _, e := range []portmap.Experiment{portmap.NewExperiment("DIV"), portmap.NewExperiment("DIV", "DIVPS", "DIVPS", "DIVPS", "DIVPS")} {
		want, _ := oracle.Cycles(context.Background(), oracle.Simulate(m, 0, 1), e)
		got, _, _ := res.Mapping.Cycles(e)
		if math.Abs(got-want) > 1e-6 {
			t.Errorf("%v: predicted %v, true %v", e, got, want)
		}
	}
}

func TestMethod(t *testing.T) {
	m, err := infer.New("palmed")
	if err != nil {
		t.Fatal(err)
	}
	m.(*Method).Config.Basic = 5
	truth := toy()
	res, err := infer.Infer(context.Background(), infer.Problem{Oracle: oracle.Simulate(truth, 0, 1), Instructions: truth.Instructions(), InstructionsPerCycle: 2}, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report.(*Result)
	if res.Queries < rep.Benchmarks || res.Distinct != rep.Benchmarks {
		t.Errorf("%d queries, %d distinct, %d benchmarks recorded", res.Queries, res.Distinct, rep.Benchmarks)
	}
	// The front-end bound of 2 IPC: JMP ADDSS ADDSS takes 1.5 cycles.
	v, err := res.Predictor.Predict(context.Background(), []portmap.Experiment{portmap.NewExperiment("JMP", "ADDSS", "ADDSS")})
	if err != nil || v[0] != 1.5 {
		t.Errorf("with IPC 2: %v, %v; want 1.5 cycles", v, err)
	}
	prefix := filepath.Join(t.TempDir(), "toy")
	names, err := res.WriteFiles(prefix) // the port mapping, then the report's files
	if err != nil || len(names) != 6 || !strings.HasSuffix(names[1], ".pmevo.json") {
		t.Fatalf("WriteFiles: %v, %v", names, err)
	}
	back, err := resource.ReadFile(prefix + ".resources-nn.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, insn := range back.Instructions() {
		for _, r := range back.Resources() {
			if a, b := back.Load(insn, r), rep.Mapping.Load(insn, r); a.Cmp(b) != 0 {
				t.Errorf("ρ(%s,%s): %s written, %s inferred", insn, r, a.RatString(), b.RatString())
			}
		}
	}
	if !strings.Contains(rep.String(), "LP2: shape accepted") || !strings.Contains(rep.HTML(), "<table>") {
		t.Errorf("report lacks the trace or the table:\n%s", rep)
	}
}

// With 2 % noise the toy is still learned to within a few per cent on
// random kernels.
func TestNoisyToy(t *testing.T) {
	truth := toy()
	res, err := Infer(context.Background(), oracle.Simulate(truth, 0.02, 3), truth.Instructions(), toyConfig(), nil)
	if res == nil {
		t.Fatal(err)
	}
	set, _, _ := oracle.MeasureAll(context.Background(), oracle.Simulate(truth, 0, 1), design.Random(truth.Instructions(), 4, 300, 5), nil)
	ev := metrics.Evaluate(context.Background(), res.Mapping, set)
	t.Logf("noise 2%%: %v (fit error: %v)", ev.Summary, err)
	if ev.Summary.MAPE > 10 {
		t.Errorf("MAPE %.2f%% with 2%% noise", ev.Summary.MAPE)
	}
}

// countingOracle counts the experiments it is asked.
type countingOracle struct {
	oracle.Oracle
	asked int
}

func (o *countingOracle) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	o.asked++
	return o.Oracle.Measure(ctx, e)
}

// A solver that reports an infeasible or unbounded LP1 is an error naming
// LP1, with no mapping.
func TestInfeasibleAndUnboundedLP1(t *testing.T) {
	truth := toy()
	for _, c := range []struct {
		status string
		want   error
	}{{"Infeasible - objective value 0", solver.ErrInfeasible}, {"Unbounded - objective value 0", solver.ErrUnbounded}} {
		dir := t.TempDir()
		script := "#!/bin/sh\nfor a; do last=$a; done\nprintf '" + c.status + "\\n' > \"$last\"\n"
		if err := os.WriteFile(filepath.Join(dir, "cbc"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv("PATH", dir)
		res, err := Infer(context.Background(), oracle.Simulate(truth, 0, 1), truth.Instructions(), toyConfig(), nil)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), "LP1") || res != nil {
			t.Errorf("cbc saying %q: %v, %v; want %v in LP1 and no result", c.status, res, err, c.want)
		}
	}
}

// A core that does not fit (no growth allowed: LP1's smallest toy shape is
// wrong) is returned with ErrNoFit and its misfits named, never as a
// success; the report says so.
func TestNoFitReported(t *testing.T) {
	truth := toy()
	cfg := toyConfig()
	cfg.MaxGrow = 0
	res, err := Infer(context.Background(), oracle.Simulate(truth, 0, 1), truth.Instructions(), cfg, nil)
	if !errors.Is(err, ErrNoFit) || res == nil || len(res.Misfits) == 0 {
		t.Fatalf("no growth: %v, misfits %v; want ErrNoFit with misfits", err, res)
	}
	if m := res.Misfits[0]; m.SubSaturation <= cfg.FitTol || !strings.Contains(err.Error(), m.Kernel.Experiment.String()) {
		t.Errorf("worst misfit %v (%.3f) not in the error %v", m.Kernel.Experiment, m.SubSaturation, err)
	}
	if !strings.Contains(res.String(), "WARNING") || !strings.Contains(res.HTML(), "Warning") {
		t.Errorf("report does not warn:\n%s", res)
	}
	m, _ := infer.New("palmed")
	m.(*Method).Config = cfg
	ir, err := infer.Infer(context.Background(), infer.Problem{Oracle: oracle.Simulate(truth, 0, 1), Instructions: truth.Instructions()}, m, nil)
	if !errors.Is(err, ErrNoFit) || ir == nil || ir.Predictor == nil || ir.Status != infer.NoFit || infer.StatusOf(err) != infer.NoFit {
		t.Errorf("through infer: %v, %v; want the result, ErrNoFit and status no fit", ir, err)
	}
}

// The noise estimate: exact oracle 0, a noisy one about its σ; the
// tolerances widen accordingly.
func TestNoiseEstimate(t *testing.T) {
	truth := toy()
	for _, sigma := range []float64{0, 0.03} {
		res, _ := Infer(context.Background(), oracle.Simulate(truth, sigma, 5), truth.Instructions(), toyConfig(), nil)
		if res == nil {
			t.Fatal("no result")
		}
		got := res.Config.Noise
		if sigma == 0 && got != 0 || sigma > 0 && (got < sigma/3 || got > 3*sigma) {
			t.Errorf("noise %g estimated as %g", sigma, got)
		}
		if sigma > 0 && (res.Config.EqTol <= DefaultConfig().EqTol || res.Config.Slack <= 0) {
			t.Errorf("noise %g: tolerances not widened: %+v", sigma, res.Config)
		}
	}
	c := DefaultConfig()
	c.Noise = 0.02
	e := c.Effective(-1)
	if e.FitTol < 3*math.Sqrt2*0.02-1e-12 || e.Slack != 0.02 {
		t.Errorf("Effective(0.02): FitTol %g, Slack %g", e.FitTol, e.Slack)
	}
}

// countingNoisy is an oracle that reports its noise and counts singleton
// queries.
type countingNoisy struct {
	oracle.Oracle
	sigma   float64
	singles int
}

func (o *countingNoisy) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	if e.Len() == 1 {
		o.singles++
	}
	return o.Oracle.Measure(ctx, e)
}

func (o *countingNoisy) Noise() (float64, int) { return o.sigma, 100 }

// An oracle that reports its noise (stored data, whose repeats would all
// agree) is taken at its word: no repeated singletons, tolerances widened
// for its σ; an explicit Config.Noise still wins.
func TestReportedNoise(t *testing.T) {
	truth := toy()
	o := &countingNoisy{Oracle: oracle.Simulate(truth, 0, 1), sigma: 0.02}
	cfg := toyConfig()
	cfg.Remeasure = 0   // binding kernels would be asked again (singletons among them)
	cfg.CoreRepeats = 0 // and so would the representatives alone
	res, _ := Infer(t.Context(), o, truth.Instructions(), cfg, nil)
	if res == nil {
		t.Fatal("no result")
	}
	if res.Config.Noise != 0.02 || res.Config.FitTol < 3*math.Sqrt2*0.02-1e-12 || o.singles != len(truth.Instructions()) {
		t.Errorf("noise %g, FitTol %g, %d singleton queries; want 0.02, ≥ %.3g, %d", res.Config.Noise, res.Config.FitTol, o.singles, 3*math.Sqrt2*0.02, len(truth.Instructions()))
	}
	cfg.Noise = 0
	o.singles = 0
	if res, _ = Infer(t.Context(), o, truth.Instructions(), cfg, nil); res == nil || res.Config.Noise != 0 {
		t.Errorf("explicit noise 0 overridden: %+v", res)
	}
}

// LPAUX maps no instruction onto a core resource that has no saturating
// kernel: with only the instruction alone to bound it, its load there
// would be its whole alone cycles, and such a resource adds up the cycles
// of every kernel as a serial machine would (it made PALMED's host
// predictions 1.7× too slow).
func TestNoLoadWithoutSaturatingKernel(t *testing.T) {
	if _, err := exec.LookPath("cbc"); err != nil {
		t.Skip("cbc not installed")
	}
	truth := portmap.MustMapping("three", "0", "1", "2").MustSetUsage("A", "1*p0").MustSetUsage("B", "1*p1").MustSetUsage("C", "1*p2")
	cfg := DefaultConfig()
	cfg.Noise = 0
	r := &run{cfg: cfg, b: newBench(oracle.Simulate(truth, 0, 1), nil), res: &Result{Saturating: map[string]Kernel{}, Unmapped: map[string]string{}}}
	// R0 is A's, R1 B's; the only core kernel is A alone, so R1 has no
	// saturating kernel.
	core := &coreModel{basic: []string{"A", "B"}, res: []users{1, 2}, w: [][]float64{{1, 0}, {0, 1}}}
	r.res.Core = []Kernel{{Experiment: single("A"), Cycles: 1, Origin: "single"}}
	tAlone := map[string]float64{"A": 1, "B": 1, "C": 1}
	if err := r.complete(t.Context(), core, []string{"A", "B"}, []string{"A", "B", "C"}, tAlone, nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.res.Saturating["R1"]; ok {
		t.Fatal("R1 got a saturating kernel")
	}
	loads, ok := r.res.Mapping.Loads("C")
	if !ok {
		t.Fatal("C not mapped")
	}
	if loads[1] != 0 {
		t.Errorf("C has load %g on R1, which has no saturating kernel", loads[1])
	}
	got, _, err := r.res.Mapping.Cycles(portmap.NewExperiment("B", "C"))
	if err != nil || math.Abs(got-1) > 1e-9 {
		t.Errorf("{B, C}: %v cycles, %v; want 1 (B and C share nothing)", got, err)
	}
	if c, _, _ := r.res.Mapping.Cycles(single("C")); math.Abs(c-1) > 1e-9 {
		t.Errorf("C alone: %v cycles, want 1 (its private resource)", c)
	}
}

// Instructions on units no basic instruction uses get resources of their
// own; two that share such a unit (a divider and a square root on one
// unpipelined unit) share one resource, which the pair kernel of the
// quadratic benchmarks shows, and one on another such unit stays apart.
func TestSharedExtraResource(t *testing.T) {
	truth := toy()
	m := portmap.MustMapping("fig1+div", "0", "1", "6", "7", "8")
	for _, insn := range truth.Instructions() {
		m.MustSetUsage(insn, truth.Usage(insn))
	}
	m.MustSetUsage("DIV", "1*p0+3*p7").MustSetUsage("SQRT", "1*p1+4*p7").MustSetUsage("CRC", "2*p8")
	sim := oracle.Simulate(m, 0, 1)
	res, err := Infer(context.Background(), sim, m.Instructions(), toyConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	k1, ok1 := res.Mapping.Resource("R:DIV (+1)")
	k2, ok2 := res.Mapping.Resource("R:CRC")
	if !ok1 || !ok2 {
		t.Fatalf("want a resource shared by DIV and SQRT and one of CRC's own, got:\n%v", res.Mapping)
	}
	for insn, k := range map[string]int{"DIV": k1, "SQRT": k1, "CRC": k2} {
		if l, _ := res.Mapping.Loads(insn); !(l[k] > 0) {
			t.Errorf("%s has no load on resource %d:\n%v", insn, k, res.Mapping)
		}
	}
	for _, e := range []portmap.Experiment{
		portmap.NewExperiment("DIV", "SQRT"),
		portmap.NewExperiment("DIV", "CRC"),
		portmap.NewExperiment("SQRT", "SQRT", "CRC", "DIVPS"),
	} {
		want, _ := oracle.Cycles(context.Background(), sim, e)
		got, _, _ := res.Mapping.Cycles(e)
		if math.Abs(got-want) > 1e-6*want {
			t.Errorf("%v: predicted %v, true %v", e, got, want)
		}
	}
}
