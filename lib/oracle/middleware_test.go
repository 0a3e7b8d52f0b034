package oracle

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/portlab/portlab/lib/portmap"
)

// probe is an oracle with every capability, recording how it is used:
// the experiments measured alone, the sizes of the batches and the
// experiments prepared.
type probe struct {
	inner     Oracle
	remembers bool

	mu       sync.Mutex
	alone    []string
	batches  []int
	batched  []string
	prepared []string
	switched []string
}

func (p *probe) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	p.mu.Lock()
	p.alone = append(p.alone, e.Key())
	p.mu.Unlock()
	return p.inner.Measure(ctx, e)
}

func (p *probe) MeasureBatch(ctx context.Context, exps []portmap.Experiment, done func(int, portmap.Measurement, error)) error {
	p.mu.Lock()
	p.batches = append(p.batches, len(exps))
	for _, e := range exps {
		p.batched = append(p.batched, e.Key())
	}
	p.mu.Unlock()
	// Results in reverse order, as a benchmarker's passes may finish them.
	for i := len(exps) - 1; i >= 0; i-- {
		m, err := p.inner.Measure(ctx, exps[i])
		done(i, m, err)
	}
	return nil
}

func (p *probe) Prepare(ctx context.Context, exps []portmap.Experiment) error {
	for _, e := range exps {
		p.prepared = append(p.prepared, e.Key())
	}
	return nil
}

func (p *probe) Noise() (float64, int) { return 0.013, 7 }

func (p *probe) Remembers() bool { return p.remembers }

func (p *probe) CountUops() error { p.switched = append(p.switched, "uops"); return nil }

func (p *probe) CountPortUops() error { p.switched = append(p.switched, "ports"); return nil }

// plain is an oracle with no capability but measuring.
type plain struct{ Oracle }

// adapters returns every adapter of this package, each over its own
// oracle made by inner.
func adapters(t *testing.T, inner func() Oracle) map[string]Oracle {
	rep, err := Repeat(inner(), 3)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]Oracle{
		"Wrap":        Wrap(inner(), Hooks{}),
		"Count":       Count(inner()),
		"CorrectUops": CorrectUops(inner(), func(string) (int, error) { return 1, nil }),
		"Repeat":      rep,
		"StoredFirst": NewStoredFirst(&portmap.ExperimentSet{Measurements: []portmap.Measurement{{Experiment: portmap.NewExperiment("store"), Cycles: 1, Uops: 1, PortUops: []float64{0, 0, 1}}}}, "stored", inner()),
	}
}

// TestAdaptersForward: every adapter of this package passes batches,
// preparation, the noise figure and whether it remembers on to the oracle
// it wraps, and, over an oracle that cannot do these, still measures.
func TestAdaptersForward(t *testing.T) {
	exps := []portmap.Experiment{portmap.NewExperiment("add"), portmap.NewExperiment("mul"), portmap.NewExperiment("add", "mul")}
	for name, a := range adapters(t, func() Oracle { return &probe{inner: Simulate(toy(), 0, 1)} }) {
		p := a.(interface{ Unwrap() Oracle }).Unwrap().(*probe)
		if _, ok := a.(BatchMeasurer); !ok {
			t.Errorf("%s: not a BatchMeasurer", name)
		}
		set, failures, err := MeasureAll(t.Context(), a, exps, nil)
		if err != nil || len(failures) != 0 || set.Len() != 3 {
			t.Fatalf("%s: %v, %v, %v", name, set, failures, err)
		}
		for i, m := range set.Measurements {
			if !m.Experiment.Equal(exps[i]) || m.Cycles <= 0 {
				t.Errorf("%s: measurement %d: %v", name, i, m)
			}
		}
		if len(p.batches) != 1 || len(p.alone) != 0 {
			t.Errorf("%s: the oracle got batches of %v and %d alone, want one batch", name, p.batches, len(p.alone))
		}
		if len(p.prepared) != 3 {
			t.Errorf("%s: prepared %q, want the three experiments", name, p.prepared)
		}
		if nr, ok := a.(NoiseReporter); !ok {
			t.Errorf("%s: not a NoiseReporter", name)
		} else if sigma, n := nr.Noise(); name != "StoredFirst" && (sigma != 0.013 || n != 7) {
			t.Errorf("%s: Noise() = %v, %d; want the inner oracle's", name, sigma, n)
		}
		if got, want := Remembers(a), name == "StoredFirst"; got != want {
			t.Errorf("%s: Remembers() = %v, want %v", name, got, want)
		}
		if a.(UopCounter).CountUops() != nil || a.(PortUopCounter).CountPortUops() != nil || !slices.Equal(p.switched, []string{"uops", "ports"}) {
			t.Errorf("%s: counters switched %q, want uops and ports", name, p.switched)
		}
	}
	// Over an oracle that remembers, every adapter does (and Repeat
	// refuses: TestRepeatRefuses).
	for _, a := range []Oracle{Wrap(&probe{remembers: true}, Hooks{}), Count(&probe{remembers: true}), CorrectUops(&probe{remembers: true}, nil)} {
		if !Remembers(a) {
			t.Errorf("%T over an oracle that remembers does not", a)
		}
	}
	// Over an oracle with no capability, batches are measured one by one
	// and the rest does nothing.
	for name, a := range adapters(t, func() Oracle { return plain{Simulate(toy(), 0, 1)} }) {
		set, failures, err := MeasureAll(t.Context(), a, exps, nil)
		if err != nil || len(failures) != 0 || set.Len() != 3 {
			t.Errorf("%s over a plain oracle: %v, %v, %v", name, set, failures, err)
		}
		if err := a.(Preparer).Prepare(t.Context(), exps); err != nil {
			t.Errorf("%s: Prepare: %v", name, err)
		}
		if _, n := a.(NoiseReporter).Noise(); n != 0 && name != "StoredFirst" {
			t.Errorf("%s: a noise figure from nowhere", name)
		}
		if err := a.(UopCounter).CountUops(); !errors.Is(err, ErrNoUopCounter) {
			t.Errorf("%s: CountUops over an oracle without: %v", name, err)
		}
	}
}

// TestRepeat: the median of n fresh samples, of cycles and counters, all
// asked of the inner oracle in one batch.
func TestRepeat(t *testing.T) {
	ctx := t.Context()
	e := portmap.NewExperiment("add", "add", "mul", "store")
	// The median of 5 samples of a noisy simulation is the median of the
	// 5 samples the same simulation gives one by one.
	o, err := Repeat(SimulateWithPortCounters(toy(), 0.05, 3), 5)
	if err != nil {
		t.Fatal(err)
	}
	got, err := o.Measure(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	twin := SimulateWithPortCounters(toy(), 0.05, 3)
	var cycles []float64
	ports := make([][]float64, 3)
	for range 5 {
		x, _ := twin.Measure(ctx, e)
		cycles = append(cycles, x.Cycles)
		for k, n := range x.PortUops {
			ports[k] = append(ports[k], n)
		}
	}
	if got.Cycles != median(cycles) || got.Uops != 4 || !got.Experiment.Equal(e) {
		t.Errorf("median of 5: %v, want %v cycles of %v", got, median(cycles), cycles)
	}
	for k := range ports {
		if got.PortUops[k] != median(ports[k]) {
			t.Errorf("port %d: %v µops, want the median of %v", k, got.PortUops[k], ports[k])
		}
	}
	if !slices.Contains(cycles, got.Cycles) || math.Abs(got.Cycles-1.5) > 0.1 {
		t.Errorf("median %v cycles: not one of the 5 samples %v, or far from 1.5", got.Cycles, cycles)
	}

	// A batch reaches a batching oracle as one batch, each experiment's
	// copies together; a failure of one sample fails its experiment.
	p := &probe{inner: Simulate(toy(), 0, 1)}
	o, _ = Repeat(p, 3)
	exps := []portmap.Experiment{portmap.NewExperiment("add"), portmap.NewExperiment("div"), portmap.NewExperiment("store", "store")}
	set, failures, err := MeasureAll(ctx, o, exps, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.batches) != 1 || p.batches[0] != 9 || len(p.alone) != 0 {
		t.Errorf("batches %v and %d alone, want one batch of 9", p.batches, len(p.alone))
	}
	want := []string{exps[0].Key(), exps[0].Key(), exps[0].Key(), exps[1].Key(), exps[1].Key(), exps[1].Key(), exps[2].Key(), exps[2].Key(), exps[2].Key()}
	if !slices.Equal(p.batched, want) {
		t.Errorf("batch %q, want %q", p.batched, want)
	}
	var ie *InsnError
	if set.Len() != 2 || set.Measurements[1].Cycles != 2 || len(failures) != 1 || failures[0].Index != 1 || failures[0].Insn != "div" {
		t.Errorf("set %v, failures %v", set, failures)
	}
	if _, err := o.Measure(ctx, exps[1]); !errors.As(err, &ie) {
		t.Errorf("div alone: %v", err)
	}
	if len(p.batches) != 2 || p.batches[1] != 3 {
		t.Errorf("one experiment alone: batches %v, want its 3 samples as one batch", p.batches)
	}

	if one, err := Repeat(p, 1); err != nil || one != Oracle(p) {
		t.Errorf("Repeat(o, 1) = %v, %v; want o", one, err)
	}
	if _, err := Repeat(p, 0); err == nil {
		t.Error("Repeat(o, 0) accepted")
	}
}

// TestRepeatRefuses: a median over an oracle that answers from memory
// would be the median of identical values.
func TestRepeatRefuses(t *testing.T) {
	set := &portmap.ExperimentSet{Measurements: []portmap.Measurement{{Experiment: portmap.NewExperiment("add"), Cycles: 0.5}}}
	for name, o := range map[string]Oracle{
		"train.jsonl":       NewReplay("train.jsonl", set),
		"stored.jsonl":      NewStoredFirst(set, "stored.jsonl", Simulate(toy(), 0.02, 1)),
		"fig3.1":            AsOracle(FromMapping(toy())),
		"IACA (stored)":     AsOracle(Stored(set, "IACA")),
		"*oracle.probe":     Wrap(&probe{}, Hooks{Once: true}),
		"train.jsonl again": Count(NewReplay("train.jsonl again", set)),
	} {
		if _, err := Repeat(o, 5); err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "from memory") {
			t.Errorf("Repeat over %s: %v", name, err)
		}
	}
}

// TestCount: every query counts, alone or in a batch, and the distinct
// experiments among them.
func TestCount(t *testing.T) {
	p := &probe{inner: Simulate(toy(), 0, 1)}
	c := Count(p)
	ctx := t.Context()
	add, mul := portmap.NewExperiment("add"), portmap.NewExperiment("mul")
	if _, err := c.Measure(ctx, add); err != nil {
		t.Fatal(err)
	}
	if _, _, err := MeasureAll(ctx, c, []portmap.Experiment{add, mul, portmap.NewExperiment("div")}, nil); err != nil {
		t.Fatal(err)
	}
	if c.Queries() != 4 || c.Distinct() != 3 {
		t.Errorf("%d queries, %d distinct; want 4, 3", c.Queries(), c.Distinct())
	}
	if len(p.alone) != 1 || len(p.batches) != 1 || p.batches[0] != 3 {
		t.Errorf("the oracle got %d alone and batches %v", len(p.alone), p.batches)
	}
}

// TestCorrectUops: the rule's µops are added per instruction and copy; an
// instruction the rule rejects fails without asking the oracle.
func TestCorrectUops(t *testing.T) {
	p := &probe{inner: Simulate(toy(), 0, 1)}
	rule := func(insn string) (int, error) {
		switch insn {
		case "store":
			return 1, nil
		case "mul":
			return 0, errors.New("no rule for mul")
		}
		return 0, nil
	}
	o := CorrectUops(p, rule)
	exps := []portmap.Experiment{portmap.NewExperiment("store", "store", "add"), portmap.NewExperiment("mul", "add"), portmap.NewExperiment("add")}
	set, failures, err := MeasureAll(t.Context(), o, exps, nil)
	if err != nil {
		t.Fatal(err)
	}
	if set.Len() != 2 || set.Measurements[0].Uops != 3+2 || set.Measurements[1].Uops != 1 {
		t.Errorf("corrected: %v", set)
	}
	if len(failures) != 1 || failures[0].Insn != "mul" || !strings.Contains(failures[0].Reason, "no rule for mul") {
		t.Errorf("failures %v", failures)
	}
	if len(p.batches) != 1 || p.batches[0] != 2 {
		t.Errorf("batches %v, want one of the two the rule reads", p.batches)
	}
	if m, err := o.Measure(t.Context(), exps[0]); err != nil || m.Uops != 5 {
		t.Errorf("alone: %v, %v", m, err)
	}
}

// TestJournalErrorStopsBatch: a result that cannot be kept is given and
// the batch then returns the failure.
func TestJournalErrorStopsBatch(t *testing.T) {
	full := errors.New("disk full")
	w := Wrap(&probe{inner: Simulate(toy(), 0, 1)}, Hooks{Keep: func(_ context.Context, e portmap.Experiment, m portmap.Measurement, err error) (portmap.Measurement, error) {
		if e.Count("mul") > 0 {
			return m, &JournalError{Err: full}
		}
		return m, err
	}})
	var got []string
	err := w.MeasureBatch(t.Context(), []portmap.Experiment{portmap.NewExperiment("add"), portmap.NewExperiment("mul")}, func(i int, m portmap.Measurement, err error) {
		got = append(got, fmt.Sprint(i, err))
	})
	if !errors.Is(err, full) || len(got) != 2 {
		t.Errorf("err %v, results %q", err, got)
	}
}
