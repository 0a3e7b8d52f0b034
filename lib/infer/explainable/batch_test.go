package explainable

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// batchSizes is a simulated benchmarker that measures batches (as the
// host's does, in interleaved passes) and records how it is asked.
type batchSizes struct {
	oracle.Oracle
	mu      sync.Mutex
	batches []int
	alone   int
}

func (b *batchSizes) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	b.mu.Lock()
	b.alone++
	b.mu.Unlock()
	return b.Oracle.Measure(ctx, e)
}

func (b *batchSizes) MeasureBatch(ctx context.Context, exps []portmap.Experiment, done func(int, portmap.Measurement, error)) error {
	b.mu.Lock()
	b.batches = append(b.batches, len(exps))
	b.mu.Unlock()
	for i, e := range exps {
		m, err := b.Oracle.Measure(ctx, e)
		done(i, m, err)
	}
	return nil
}

// CountUops: the simulation it wraps counts µops.
func (b *batchSizes) CountUops() error { return nil }

// TestRepeatsReachTheBenchmarker: with repeats (and the macro-op
// correction, and a second try with more repeats) every measurement
// reaches a benchmarker that measures batches as a batch holding all its
// repeats, and the instructions measured alone (stage 1) as one batch of
// them all, so that the benchmarker's interleaved passes spread every
// repeat over time — not one experiment at a time.
func TestRepeatsReachTheBenchmarker(t *testing.T) {
	needZ3(t)
	m := zenSubset(t, "[0,1,2,3]", "[2,3]", "[4,5]", "[6,7,8,9]")
	for _, macro := range []bool{false, true} {
		b := &batchSizes{Oracle: m.Oracle(0.02, 1)}
		if !macro {
			b.Oracle = oracle.Simulate(m.Mapping, 0.02, 1) // counts µops
		}
		method := New()
		method.MacroOps, method.Repeats, method.RetryRepeats = macro, 5, 7
		_, err := infer.Infer(t.Context(), infer.Problem{Oracle: b, Instructions: m.Mapping.Instructions(), Ports: m.Mapping.NumPorts()}, method, nil)
		if err != nil {
			t.Fatal(err)
		}
		if b.alone != 0 {
			t.Errorf("macro-ops %v: %d experiments measured alone", macro, b.alone)
		}
		largest, sevens := 0, 0
		for _, n := range b.batches {
			largest = max(largest, n)
			if n%5 != 0 && n%7 != 0 {
				t.Errorf("macro-ops %v: a batch of %d, not all repeats of its experiments", macro, n)
			}
			if n%7 == 0 && n%5 != 0 {
				sevens++
			}
		}
		if want := 5 * m.Mapping.Len(); largest != want {
			t.Errorf("macro-ops %v: largest batch %d, want the %d instructions alone × 5 repeats = %d", macro, largest, m.Mapping.Len(), want)
		}
		t.Logf("macro-ops %v: %d batches, the largest of %d; %d of 7 repeats", macro, len(b.batches), largest, sevens)
	}
}

// TestRepeatsNeedFreshSamples: a median of repeats over measurements read
// back from a file would be the median of identical values; the method
// says so before measuring anything.
func TestRepeatsNeedFreshSamples(t *testing.T) {
	m := smallZen(t)
	set := &portmap.ExperimentSet{Measurements: []portmap.Measurement{{Experiment: portmap.NewExperiment(m.Mapping.Instructions()[0]), Cycles: 1, Uops: 1}}}
	for _, method := range []*Method{{Repeats: 5, Runs: 3}, {RetryRepeats: 5, Runs: 3}} {
		_, err := infer.Infer(t.Context(), infer.Problem{Oracle: oracle.NewReplay("zen.jsonl", set), Instructions: m.Mapping.Instructions(), Ports: 10}, method, nil)
		if err == nil || !strings.Contains(err.Error(), "zen.jsonl") || !strings.Contains(err.Error(), "from memory") {
			t.Errorf("repeats %d, retry repeats %d over a replay: %v", method.Repeats, method.RetryRepeats, err)
		}
	}
}
