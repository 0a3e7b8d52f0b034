package oracle

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/portlab/portlab/lib/portmap"
)

// StoredFirst answers experiments from stored measurements where they hold
// them and asks another oracle — the host, usually through a
// measure.Campaign of a new file, so that what it measures is kept and a
// crashed run resumes — for the rest. It lets a method that asks for
// benchmarks of its own (PALMED's quadratic kernels) reuse a campaign that
// was measured for another (PMEvo's design) without modifying that
// campaign's file.
//
// The matching rule is the exact multiset (portmap.Experiment.Key): a
// stored {a: 1, b: 1} answers {a: 1, b: 1} only, not {a: 2, b: 2}, although
// steady-state cycles scale with the copies, because the measured loop
// bodies of the two differ (unrolling, register allocation) and a scaled
// answer would be a prediction, not a measurement. An experiment stored
// with a failure or no positive cycles is not held (see NewReplay) and is
// asked of the other oracle.
//
// A stored answer is deterministic, so a method that estimates noise by
// measuring again learns nothing from it: StoredFirst implements
// NoiseReporter from the stored measurements' Spread instead.
//
// It is a Middleware over the other oracle: batches of what it does not
// hold reach that oracle whole, and so do Prepare's experiments.
type StoredFirst struct {
	Middleware
	stored *Replay
	sigma  float64
	nSigma int

	mu     sync.Mutex
	hits   int
	asked  int
	missed map[string]bool
	order  []portmap.Experiment
}

// NewStoredFirst returns the oracle that answers from stored and asks live
// for what stored does not hold. stored's measurements are also the
// source of its Noise.
func NewStoredFirst(stored *portmap.ExperimentSet, name string, live Oracle) *StoredFirst {
	s := &StoredFirst{stored: NewReplay(name, stored), missed: map[string]bool{}}
	s.Middleware = Wrap(live, Hooks{
		Answer: func(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error, bool) {
			if err := ctx.Err(); err != nil {
				return portmap.Measurement{}, err, true
			}
			m, ok := s.lookup(e)
			return m, nil, ok
		},
		Holds: func(e portmap.Experiment) bool {
			_, held := s.stored.byKey[e.Key()]
			return held
		},
	})
	var spreads []float64
	for _, m := range stored.Measurements {
		if m.Cycles > 0 && m.Passes >= 2 {
			spreads = append(spreads, m.Spread)
		}
	}
	if len(spreads) > 0 {
		sort.Float64s(spreads)
		med := spreads[len(spreads)/2]
		if len(spreads)%2 == 0 {
			med = (spreads[len(spreads)/2-1] + med) / 2
		}
		// Two measurements with independent normal noise σ differ by a
		// median of 0.6745·√2·σ relatively.
		s.sigma, s.nSigma = med/(0.6745*math.Sqrt2), len(spreads)
	}
	return s
}

// Name returns the stored data's name.
func (s *StoredFirst) Name() string { return s.stored.Name() + " first" }

// Stored returns the number of stored measurements.
func (s *StoredFirst) Stored() int { return s.stored.Len() }

// Hits returns the number of answers given from the stored measurements.
func (s *StoredFirst) Hits() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits
}

// Asked returns the number of experiments passed to the other oracle,
// repeats included.
func (s *StoredFirst) Asked() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.asked
}

// Missed returns the distinct experiments passed to the other oracle, in
// the order first asked.
func (s *StoredFirst) Missed() []portmap.Experiment {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]portmap.Experiment(nil), s.order...)
}

// String summarises the answers so far.
func (s *StoredFirst) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprintf("%d answered from %s (%d stored), %d asked of the live oracle (%d distinct)",
		s.hits, s.stored.Name(), s.stored.Len(), s.asked, len(s.order))
}

// Noise implements NoiseReporter: the relative standard deviation of one
// measurement implied by the median Spread (difference of the two fastest
// passes) of the stored measurements taken in two passes or more, and
// their number; 0, 0 when none has passes.
func (s *StoredFirst) Noise() (float64, int) { return s.sigma, s.nSigma }

// lookup returns the stored measurement of e, or books e as asked.
func (s *StoredFirst) lookup(e portmap.Experiment) (portmap.Measurement, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m, ok := s.stored.byKey[e.Key()]; ok {
		s.hits++
		m.Experiment = e
		return m, true
	}
	s.asked++
	if k := e.Key(); !s.missed[k] {
		s.missed[k] = true
		s.order = append(s.order, e)
	}
	return portmap.Measurement{}, false
}

// NoiseReporter is implemented by oracles that know the relative noise of
// their measurements without measuring again, such as StoredFirst from the
// passes of its stored data. Noise returns the relative standard deviation
// of one measurement and the number of measurements the figure rests on
// (0 when unknown).
type NoiseReporter interface {
	Noise() (sigma float64, n int)
}

var (
	_ BatchMeasurer = (*StoredFirst)(nil)
	_ Preparer      = (*StoredFirst)(nil)
	_ NoiseReporter = (*StoredFirst)(nil)
	_ Rememberer    = (*StoredFirst)(nil)
)
