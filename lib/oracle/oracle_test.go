package oracle

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

func toy() *portmap.Mapping {
	m := portmap.MustMapping("fig3.1", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]")
	return m
}

func TestFromMapping(t *testing.T) {
	exps := []portmap.Experiment{
		portmap.NewExperiment("add", "add", "mul", "store"),
		portmap.NewExperiment("div", "add"),
		{}, // the empty experiment costs nothing
		portmap.NewExperiment("mul", "mul", "sqrt"),
	}
	p := FromMapping(toy())
	got, err := p.Predict(t.Context(), exps)
	var ue *UnsupportedError
	if !errors.As(err, &ue) || !errors.Is(err, ErrUnsupported) {
		t.Fatalf("err = %v, want *UnsupportedError", err)
	}
	if len(got) != 4 || got[0] != 1.5 || !math.IsNaN(got[1]) || got[2] != 0 || !math.IsNaN(got[3]) {
		t.Errorf("predictions %v, want [1.5 NaN 0 NaN]", got)
	}
	if len(ue.Failures) != 2 || ue.Failures[0].Index != 1 || ue.Failures[0].Insn != "div" || ue.Failures[1].Insn != "sqrt" {
		t.Errorf("failures %+v", ue.Failures)
	}
	for _, want := range []string{"fig3.1: 2 of 4 experiments not supported", `instruction "div"`, "and 1 more"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if idx := Supported(got); len(idx) != 2 || idx[0] != 0 || idx[1] != 2 {
		t.Errorf("Supported = %v", idx)
	}

	// The same as the throughput model, front end included.
	p.FrontEnd = throughput.FrontEnd{InstructionsPerCycle: 1}
	got, err = p.Predict(t.Context(), exps[:1])
	if err != nil || got[0] != 4 {
		t.Errorf("with 1 IPC: %v, %v; want [4]", got, err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := p.Predict(ctx, exps[:1]); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestStored(t *testing.T) {
	arch, err := portmap.NewArchitecture("toy", []string{"p1"}, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	set := &portmap.ExperimentSet{Arch: arch, Measurements: []portmap.Measurement{
		{Experiment: portmap.NewExperiment("a", "b"), Cycles: 2, Others: map[string]float64{"IACA": 1.5, "llvm-mca": 3}},
		{Experiment: portmap.NewExperiment("b"), Cycles: 1, Others: map[string]float64{"IACA": 0.5}},
		{Experiment: portmap.NewExperiment("b", "a"), Cycles: 2, Others: map[string]float64{"IACA": 9}}, // duplicate
	}}
	exps := []portmap.Experiment{portmap.NewExperiment("b", "a"), portmap.NewExperiment("b"), portmap.NewExperiment("a")}
	got, fails, err := Predict(t.Context(), Stored(set, "llvm-mca"), exps)
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != 3 || !math.IsNaN(got[1]) || !math.IsNaN(got[2]) || len(fails) != 2 {
		t.Fatalf("got %v, failures %v", got, fails)
	}
	if fails[0].Reason != "no stored llvm-mca prediction" || fails[1].Reason != "not in the experiment set" {
		t.Errorf("reasons %q, %q", fails[0].Reason, fails[1].Reason)
	}
	got, err = Stored(set, "IACA").Predict(t.Context(), exps[:2])
	if err != nil || got[0] != 1.5 || got[1] != 0.5 {
		t.Errorf("IACA: %v, %v; want [1.5 0.5] (first occurrence wins)", got, err)
	}
}

func TestSimulated(t *testing.T) {
	ctx := t.Context()
	e := portmap.NewExperiment("add", "add", "mul", "store")
	exact := Simulate(toy(), 0, 1)
	if m, err := exact.Measure(ctx, e); err != nil || m.Cycles != 1.5 || m.Uops != 4 {
		t.Fatalf("exact: %+v, %v", m, err)
	}
	noisy := Simulate(toy(), 0.02, 1)
	var sum, sq float64
	const n = 4000
	for i := 0; i < n; i++ {
		c, _ := Cycles(ctx, noisy, e)
		sum += c
		sq += c * c
	}
	mean := sum / n
	v := sq/n - mean*mean
	if mean < 1.49 || mean > 1.51 || v < 0.0004 || v > 0.0011 { // variance (0.02·1.5)² = 0.0009
		t.Errorf("noise: mean %v variance %v, want 1.5 and 0.0009", mean, v)
	}
	// Repeatable per seed.
	a, b := Simulate(toy(), 0.05, 7), Simulate(toy(), 0.05, 7)
	for i := 0; i < 10; i++ {
		x, _ := Cycles(ctx, a, e)
		y, _ := Cycles(ctx, b, e)
		if x != y {
			t.Fatalf("draw %d: %v vs %v for the same seed", i, x, y)
		}
	}
	_, err := exact.Measure(ctx, portmap.NewExperiment("div", "add"))
	var ie *InsnError
	if !errors.As(err, &ie) || ie.Insn != "div" {
		t.Errorf("unmapped instruction: %v", err)
	}
}

func TestSimulatedPortCounters(t *testing.T) {
	ctx := t.Context()
	e := portmap.NewExperiment("add", "add", "mul", "store")
	if m, _ := Simulate(toy(), 0, 1).Measure(ctx, e); m.PortUops != nil {
		t.Errorf("port counters off: PortUops %v, want nil", m.PortUops)
	}
	exact := SimulateWithPortCounters(toy(), 0, 1)
	// mul and one add fill p1 and p2 for 1.5 cycles together; the balanced
	// schedule splits the adds so that both carry 1.5 µops.
	m, err := exact.Measure(ctx, e)
	if err != nil || m.Cycles != 1.5 || m.Uops != 4 || len(m.PortUops) != 3 || m.PortUops[0] != 1.5 || m.PortUops[1] != 1.5 || m.PortUops[2] != 1 {
		t.Fatalf("exact: %+v, %v; want 1.5 cycles, 4 µops, [1.5 1.5 1] per port", m, err)
	}
	if want := "µops per port [1.5 1.5 1]"; !strings.Contains(m.String(), want) {
		t.Errorf("%v: lacks %q", m, want)
	}
	// Two muls and an add: p1 is the bottleneck (2 cycles) and the add runs
	// on p2 in every optimal schedule.
	if m, _ := exact.Measure(ctx, portmap.NewExperiment("mul", "mul", "add")); m.PortUops[0] != 2 || m.PortUops[1] != 1 || m.PortUops[2] != 0 {
		t.Errorf("{mul ↦ 2, add ↦ 1}: per port %v, want [2 1 0]", m.PortUops)
	}
	noisy := SimulateWithPortCounters(toy(), 0.02, 3)
	var sum [3]float64
	const n = 2000
	for i := 0; i < n; i++ {
		m, err := noisy.Measure(ctx, portmap.NewExperiment("add", "add", "mul"))
		if err != nil {
			t.Fatal(err)
		}
		if m.PortUops[2] != 0 {
			t.Fatalf("noise put %v µops on p3, which no µop of the experiment can use", m.PortUops[2])
		}
		for k, u := range m.PortUops {
			sum[k] += u
		}
	}
	if math.Abs(sum[0]/n-1.5) > 0.005 || math.Abs(sum[1]/n-1.5) > 0.005 {
		t.Errorf("noisy mean per port %v, want about [1.5 1.5 0]", []float64{sum[0] / n, sum[1] / n, sum[2] / n})
	}
	if _, err := exact.Measure(ctx, portmap.NewExperiment("div", "add")); err == nil {
		t.Error("unmapped instruction with port counters: no error")
	}
}

func TestReplay(t *testing.T) {
	ctx := t.Context()
	e := portmap.NewExperiment("add", "add", "mul", "store")
	set := &portmap.ExperimentSet{Measurements: []portmap.Measurement{{Experiment: e, Cycles: 1.6, Dispersion: 0.01}}}
	rp := NewReplay("test set", set)
	if m, err := rp.Measure(ctx, portmap.NewExperiment("mul", "store", "add", "add")); err != nil || m.Cycles != 1.6 || m.Dispersion != 0.01 {
		t.Errorf("replay: %+v %v", m, err)
	}
	if _, err := rp.Measure(ctx, portmap.NewExperiment("div")); err == nil || !strings.Contains(err.Error(), "test set") {
		t.Errorf("replay of unknown: %v", err)
	}
	got, fails, err := Predict(ctx, rp, []portmap.Experiment{portmap.NewExperiment("div"), e})
	if err != nil || !math.IsNaN(got[0]) || got[1] != 1.6 || len(fails) != 1 || fails[0].Index != 0 {
		t.Errorf("replay as predictor: %v %v %v", got, fails, err)
	}
}

func TestConversions(t *testing.T) {
	ctx := t.Context()
	exps := []portmap.Experiment{portmap.NewExperiment("add", "mul"), portmap.NewExperiment("div"), portmap.NewExperiment("store", "store")}
	o := AsOracle(FromMapping(toy()))
	if c, err := Cycles(ctx, o, exps[0]); err != nil || c != 1 {
		t.Errorf("predictor as oracle: %v %v", c, err)
	}
	_, err := o.Measure(ctx, exps[1])
	var ie *InsnError
	if !errors.As(err, &ie) || ie.Insn != "div" {
		t.Errorf("predictor as oracle, unmapped: %v", err)
	}
	p := AsPredictor("simulated", Simulate(toy(), 0, 1))
	got, fails, err := Predict(ctx, p, exps)
	if err != nil || got[0] != 1 || !math.IsNaN(got[1]) || got[2] != 2 || len(fails) != 1 || fails[0].Insn != "div" {
		t.Errorf("oracle as predictor: %v %v %v", got, fails, err)
	}
}

// flaky fails each experiment containing fail; the first transient
// failures are transient.
type flaky struct {
	Oracle
	calls     atomic.Int64
	fail      string
	transient atomic.Int64
}

type transientErr struct{}

func (transientErr) Error() string   { return "worker killed" }
func (transientErr) Transient() bool { return true }

func (o *flaky) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	o.calls.Add(1)
	if o.transient.Add(-1) >= 0 {
		return portmap.Measurement{}, transientErr{}
	}
	if o.fail != "" && e.Count(o.fail) > 0 {
		return portmap.Measurement{}, &InsnError{Insn: o.fail, Err: errors.New("cannot run")}
	}
	return o.Oracle.Measure(ctx, e)
}

type preparing struct {
	Oracle
	chunks []int
}

func (p *preparing) Prepare(_ context.Context, exps []portmap.Experiment) error {
	p.chunks = append(p.chunks, len(exps))
	return nil
}

func TestMeasureAll(t *testing.T) {
	ctx := t.Context()
	insns := []string{"add", "mul", "store", "bad"}
	var exps []portmap.Experiment
	for i := 0; i < 600; i++ {
		exps = append(exps, portmap.NewExperiment(insns[i%4], insns[(i/4)%3]))
	}
	o := &flaky{Oracle: Simulate(toy(), 0, 1), fail: "bad"}
	o.transient.Store(1) // the first call fails transiently, the retry succeeds
	var last Progress
	set, fails, err := MeasureAll(ctx, o, exps, func(p Progress) { last = p })
	if err != nil {
		t.Fatal(err)
	}
	if set.Len() != 450 || len(fails) != 150 || last.Done != 600 || last.Failed != 150 {
		t.Fatalf("%d measured, %d failed, last progress %+v", set.Len(), len(fails), last)
	}
	if fails[0].Index != 3 || fails[0].Insn != "bad" || !strings.Contains(fails[0].Reason, "cannot run") {
		t.Errorf("first failure %+v", fails[0])
	}
	if o.calls.Load() != 601 {
		t.Errorf("%d calls, want 600 and one retry", o.calls.Load())
	}
	p := &preparing{Oracle: Simulate(toy(), 0, 1)}
	if _, _, err := MeasureAll(ctx, p, exps[:300], nil); err != nil {
		t.Fatal(err)
	}
	if len(p.chunks) != 2 || p.chunks[0] != PrepareChunk || p.chunks[1] != 300-PrepareChunk {
		t.Errorf("prepared chunks %v", p.chunks)
	}
	cctx, cancel := context.WithCancel(ctx)
	n := 0
	set, _, err = MeasureAll(cctx, Simulate(toy(), 0, 1), exps, func(Progress) {
		if n++; n == 10 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || set.Len()+0 > 10 {
		t.Errorf("cancelled: %d measured, %v", set.Len(), err)
	}
}

// batching measures a batch and reports it backwards, as a batch oracle
// may report in any order.
type batching struct {
	*flaky
	batches []int
}

func (b *batching) MeasureBatch(ctx context.Context, exps []portmap.Experiment, done func(int, portmap.Measurement, error)) error {
	b.batches = append(b.batches, len(exps))
	for i := len(exps) - 1; i >= 0; i-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		m, err := b.flaky.Measure(ctx, exps[i])
		done(i, m, err)
	}
	return nil
}

// TestMeasureAllBatches: a BatchMeasurer gets the experiments in chunks
// and may report them in any order; MeasureAll keeps the order of the
// experiments, counts failures and progress, measures a transient failure
// once more, and stops when cancelled.
func TestMeasureAllBatches(t *testing.T) {
	ctx := t.Context()
	insns := []string{"add", "mul", "store", "bad"}
	var exps []portmap.Experiment
	const n = BatchChunk + 76
	for i := 0; i < n; i++ {
		exps = append(exps, portmap.NewExperiment(insns[i%4], insns[(i/4)%3], insns[(i/12)%3]))
	}
	b := &batching{flaky: &flaky{Oracle: Simulate(toy(), 0, 1), fail: "bad"}}
	b.transient.Store(1)
	var progress []int
	set, fails, err := MeasureAll(ctx, b, exps, func(p Progress) { progress = append(progress, p.Done) })
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(b.batches, []int{BatchChunk, n - BatchChunk}) {
		t.Errorf("batches %v", b.batches)
	}
	if set.Len() != 3*n/4 || len(fails) != n/4 || len(progress) != n || progress[n-1] != n || b.calls.Load() != n+1 {
		t.Fatalf("%d measured, %d failed, %d progress calls, %d oracle calls", set.Len(), len(fails), len(progress), b.calls.Load())
	}
	want := Simulate(toy(), 0, 1)
	j := 0
	for i, e := range exps {
		if e.Count("bad") > 0 {
			continue
		}
		if got := set.Measurements[j]; got.Experiment.Key() != e.Key() {
			t.Fatalf("measurement %d is %v, want experiment %d, %v", j, got.Experiment, i, e)
		} else if c, _ := Cycles(ctx, want, e); got.Cycles != c {
			t.Errorf("%v: %v cycles, want %v", e, got.Cycles, c)
		}
		j++
	}
	for k := 1; k < len(fails); k++ {
		if fails[k-1].Index >= fails[k].Index {
			t.Fatalf("failures out of order: %d before %d", fails[k-1].Index, fails[k].Index)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	calls := 0
	b = &batching{flaky: &flaky{Oracle: Simulate(toy(), 0, 1)}}
	set, _, err = MeasureAll(cctx, b, exps, func(Progress) {
		if calls++; calls == 10 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || set.Len() > 10 || len(b.batches) != 1 {
		t.Errorf("cancelled: %d measured, %d batches, %v", set.Len(), len(b.batches), err)
	}
}
