package palmed

import (
	"context"
	"errors"
	"testing"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// skylakeSubset returns simulated Skylake (pmevo:SKL/uops_info) and
// every step-th of its instructions.
func skylakeSubset(t *testing.T, step int) (*portmap.Mapping, []string) {
	t.Helper()
	truth, err := dataset.Mapping("pmevo:SKL/uops_info")
	if err != nil {
		t.Skip(err)
	}
	var insns []string
	for k, insn := range truth.Instructions() {
		if k%step == 0 {
			insns = append(insns, insn)
		}
	}
	return truth, insns
}

// TestDeterministic runs PALMED twice on the same exact oracle, and twice
// on noisy oracles of the same seed, and wants identical results: the same
// trace (every LP1 shape, LP2 residual and saturating kernel) and the same
// mapping. Go's map iteration order must not reach the solvers' inputs (it
// once made CBC pick another of the cheapest LP1 shapes in every run).
func TestDeterministic(t *testing.T) {
	truth, insns := skylakeSubset(t, 24)
	cfg := DefaultConfig()
	cfg.Basic = 6
	for _, noise := range []float64{0, 0.02} {
		var first *Result
		for run := range 2 {
			res, err := Infer(context.Background(), oracle.Simulate(truth, noise, 3), insns, cfg, nil)
			if res == nil || err != nil && !errors.Is(err, ErrNoFit) {
				t.Fatalf("noise %g, run %d: %v", noise, run+1, err)
			}
			if first == nil {
				first = res
				continue
			}
			if a, b := first.Mapping.String(), res.Mapping.String(); a != b {
				t.Errorf("noise %g: two runs gave different mappings:\n%s\n%s", noise, a, b)
			}
			if len(first.Trace) != len(res.Trace) {
				t.Fatalf("noise %g: traces of %d and %d steps", noise, len(first.Trace), len(res.Trace))
			}
			for k := range first.Trace {
				if a, b := first.Trace[k], res.Trace[k]; a.Stage != b.Stage || a.Message != b.Message {
					t.Errorf("noise %g: step %d differs:\n%s: %s\n%s: %s", noise, k, a.Stage, a.Message, b.Stage, b.Message)
					break
				}
			}
		}
	}
}
