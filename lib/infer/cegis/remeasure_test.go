package cegis

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// flaky answers like the truth, except that the first answers for the
// experiment bad are wrong by the given cycles (every answer when always
// is set): a measurement disturbed once, or an oracle that contradicts
// itself.
type flaky struct {
	truth  oracle.Oracle
	bad    string
	off    float64
	times  int // wrong answers left; < 0: always wrong
	mu     sync.Mutex
	asked  map[string]int
	spread float64 // Dispersion reported with every answer
}

func (f *flaky) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	m, err := f.truth.Measure(ctx, e)
	if err != nil {
		return m, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked[e.String()]++
	if e.String() == f.bad && f.times != 0 {
		f.times--
		m.Cycles += f.off
	}
	m.Dispersion = f.spread
	return m, nil
}

// TestRemeasureBeforeConflict: one disturbed measurement of a pair makes
// the measurements contradict each other; measured again (twice, the
// median kept) it no longer does, and the run ends in the truth. Without
// measuring again, and with an oracle that always answers the same wrong
// value, the run ends in a conflict naming that pair — never in a wrong
// mapping.
func TestRemeasureBeforeConflict(t *testing.T) {
	needZ3(t)
	truth := abcd(false) // a, b → {0,1}, c → {0}, d → {2}
	pair := "{c ↦ 1, d ↦ 1}"
	for _, c := range []struct {
		name      string
		times     int
		remeasure int
		conflict  bool
	}{
		{"disturbed once, measured again", 1, 2, false},
		{"disturbed once, not measured again", 1, 0, true},
		{"always wrong", -1, 2, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := &flaky{truth: oracle.Simulate(truth, 0, 1), bad: pair, off: 0.5, times: c.times, asked: map[string]int{}}
			cfg := DefaultConfig()
			cfg.Pairs, cfg.Remeasure, cfg.Validation = true, c.remeasure, 0
			res, err := Infer(t.Context(), o, truth.Instructions(), 3, cfg)
			var nm *NoMappingError
			switch {
			case !c.conflict && err == nil:
				if _, ok := portmap.EquivalentByRenaming(res.Mapping, truth); !ok {
					t.Errorf("inferred\n%v\nwant the truth\n%v", res.Mapping, truth)
				}
				if res.Remeasured == 0 {
					t.Errorf("nothing measured again: %v", res)
				}
			case c.conflict && errors.As(err, &nm):
				if !strings.Contains(err.Error(), pair) {
					t.Errorf("the conflict does not name %s: %v", pair, err)
				}
				if nm.Remeasured != c.remeasure {
					t.Errorf("conflict after measuring %d more times, want %d: %v", nm.Remeasured, c.remeasure, err)
				}
				if res != nil {
					t.Errorf("a mapping with the conflict: %v", res.Mapping)
				}
			default:
				t.Fatalf("result %v, error %v; want a conflict: %v", res, err, c.conflict)
			}
			if got, want := o.asked[pair], 1+c.remeasure; got != want && c.times != 1 {
				t.Errorf("%s asked %d times, want %d", pair, got, want)
			}
		})
	}
}

// TestNoiseEpsilon: ε widens to NoiseEpsilon times the singletons' median
// dispersion in cycles, and never narrows.
func TestNoiseEpsilon(t *testing.T) {
	needZ3(t)
	truth := abcd(false) // singletons take 0.5, 0.5, 1 and 1 cycles
	for _, c := range []struct {
		spread, k, want float64
	}{
		{0.1, 3, 3 * 0.1 * 0.75}, // median of 0.05, 0.05, 0.1, 0.1
		{0.001, 3, 0.02},         // below DefaultConfig's ε
	} {
		o := &flaky{truth: oracle.Simulate(truth, 0, 1), spread: c.spread, asked: map[string]int{}}
		cfg := DefaultConfig()
		cfg.NoiseEpsilon, cfg.Validation = c.k, 0
		res, err := Infer(t.Context(), o, truth.Instructions(), 3, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if d := res.Epsilon - c.want; d > 1e-12 || d < -1e-12 {
			t.Errorf("dispersion %g, k %g: ε = %g, want %g", c.spread, c.k, res.Epsilon, c.want)
		}
		if !strings.Contains(res.String(), "ε = ") {
			t.Errorf("the report does not give ε: %v", res)
		}
	}
}
