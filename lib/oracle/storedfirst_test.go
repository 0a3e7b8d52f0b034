package oracle

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/portlab/portlab/lib/portmap"
)

// liveOracle records what it is asked, one by one or in batches.
type liveOracle struct {
	Oracle
	asked   []string
	batches [][]string
	prep    [][]string
}

func (o *liveOracle) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	o.asked = append(o.asked, e.Key())
	if e.Count("div") > 0 {
		return portmap.Measurement{}, &InsnError{Insn: "div", Err: errors.New("cannot run")}
	}
	return o.Oracle.Measure(ctx, e)
}

type batchLive struct{ *liveOracle }

func (o batchLive) MeasureBatch(ctx context.Context, exps []portmap.Experiment, done func(int, portmap.Measurement, error)) error {
	var keys []string
	for i, e := range exps {
		keys = append(keys, e.Key())
		m, err := o.Oracle.Measure(ctx, e)
		done(i, m, err)
	}
	o.batches = append(o.batches, keys)
	return nil
}

func (o batchLive) Prepare(ctx context.Context, exps []portmap.Experiment) error {
	var keys []string
	for _, e := range exps {
		keys = append(keys, e.Key())
	}
	o.prep = append(o.prep, keys)
	return nil
}

func storedSet() *portmap.ExperimentSet {
	return &portmap.ExperimentSet{Measurements: []portmap.Measurement{
		{Experiment: portmap.NewExperiment("add"), Cycles: 0.6, Passes: 3, Spread: 0.01},
		{Experiment: portmap.NewExperiment("add", "mul"), Cycles: 1.7, Passes: 4, Spread: 0.02},
		{Experiment: portmap.NewExperiment("mul"), Cycles: 1.1, Passes: 3, Spread: 0.04},
		{Experiment: portmap.NewExperiment("store"), Cycles: 0.9},                 // one pass: no spread
		{Experiment: portmap.NewExperiment("add", "store"), Cycles: 0, Passes: 3}, // failed: not held
	}}
}

func TestStoredFirst(t *testing.T) {
	ctx := t.Context()
	live := &liveOracle{Oracle: Simulate(toy(), 0, 1)}
	s := NewStoredFirst(storedSet(), "train.jsonl", live)
	if s.Stored() != 4 {
		t.Errorf("Stored() = %d, want 4 (the failed record is not held)", s.Stored())
	}
	// A hit never asks the live oracle, and answers with the stored value
	// and its detail.
	m, err := s.Measure(ctx, portmap.NewExperiment("mul", "add"))
	if err != nil || m.Cycles != 1.7 || m.Passes != 4 || len(live.asked) != 0 {
		t.Fatalf("hit: %v, %v; live asked %v", m, err, live.asked)
	}
	// The match is the exact multiset: {add:2, mul:2} is not {add, mul}.
	m, err = s.Measure(ctx, portmap.NewExperiment("add", "add", "mul", "mul"))
	if err != nil || m.Cycles != 2 || len(live.asked) != 1 {
		t.Fatalf("scaled: %v, %v; live asked %v (want the simulation's 2 cycles)", m, err, live.asked)
	}
	// A stored failure is asked again; a live failure passes through.
	if m, err = s.Measure(ctx, portmap.NewExperiment("add", "store")); err != nil || m.Cycles != 1 {
		t.Errorf("stored failure: %v, %v", m, err)
	}
	var ie *InsnError
	if _, err = s.Measure(ctx, portmap.NewExperiment("div")); !errors.As(err, &ie) || ie.Insn != "div" {
		t.Errorf("live failure: %v", err)
	}
	if s.Hits() != 1 || s.Asked() != 3 || len(s.Missed()) != 3 {
		t.Errorf("hits %d, asked %d, missed %v", s.Hits(), s.Asked(), s.Missed())
	}
	// The noise figure comes from the spreads of measurements in passes:
	// median 0.02 of {0.01, 0.02, 0.04}.
	sigma, n := s.Noise()
	if n != 3 || math.Abs(sigma-0.02/(0.6745*math.Sqrt2)) > 1e-12 {
		t.Errorf("Noise() = %v, %d", sigma, n)
	}
	ctx2, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Measure(ctx2, portmap.NewExperiment("add")); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if s.Hits() != 1 {
		t.Errorf("a cancelled query counted as a hit")
	}
}

func TestStoredFirstBatches(t *testing.T) {
	ctx := t.Context()
	exps := []portmap.Experiment{
		portmap.NewExperiment("add"), portmap.NewExperiment("store", "store"), portmap.NewExperiment("mul"),
		portmap.NewExperiment("add", "add"), portmap.NewExperiment("add", "mul"),
	}
	for _, batch := range []bool{false, true} {
		live := &liveOracle{Oracle: Simulate(toy(), 0, 1)}
		var o Oracle = live
		if batch {
			o = batchLive{live}
		}
		s := NewStoredFirst(storedSet(), "train", o)
		set, failures, err := MeasureAll(ctx, s, exps, nil)
		if err != nil || len(failures) != 0 || set.Len() != 5 {
			t.Fatalf("batch %v: %v, %v, %v", batch, set, failures, err)
		}
		want := []float64{0.6, 2, 1.1, 1, 1.7}
		for i, m := range set.Measurements {
			if m.Cycles != want[i] || !m.Experiment.Equal(exps[i]) {
				t.Errorf("batch %v: %d: %v, want %v cycles", batch, i, m, want[i])
			}
		}
		missed := []string{exps[1].Key(), exps[3].Key()}
		if batch {
			if len(live.batches) != 1 || len(live.batches[0]) != 2 || live.batches[0][0] != missed[0] || live.batches[0][1] != missed[1] || len(live.asked) != 0 {
				t.Errorf("batches %q, one by one %q; want one batch of the two misses", live.batches, live.asked)
			}
			if len(live.prep) != 1 || len(live.prep[0]) != 2 {
				t.Errorf("prepared %q, want the two misses", live.prep)
			}
		} else if len(live.asked) != 2 || live.asked[0] != missed[0] || live.asked[1] != missed[1] {
			t.Errorf("asked %q, want the two misses", live.asked)
		}
		if s.Hits() != 3 || s.Asked() != 2 {
			t.Errorf("batch %v: %v", batch, s)
		}
	}
}
