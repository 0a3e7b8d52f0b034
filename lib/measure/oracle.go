package measure

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// Oracle answers the one question port-mapping inference asks: how many
// core cycles does one execution of an experiment's multiset take in steady
// state (its inverse throughput)? The host benchmarker, a simulation from a
// known mapping, and a replay of measured data all implement it, so
// inference and evaluation code work with any of them.
type Oracle interface {
	Cycles(ctx context.Context, e portmap.Experiment) (float64, error)
}

// Simulated is an Oracle that predicts with a known mapping, optionally
// with multiplicative Gaussian noise: the result is t·(1 + Noise·z) with z
// standard normal, redrawn per call, never below 1 % of t. Use it to test
// whether an inference algorithm recovers a mapping (thesis §3.3).
type Simulated struct {
	Model *throughput.Model
	Noise float64 // relative standard deviation, e.g. 0.02 for 2 %

	mu  sync.Mutex
	rng *rand.Rand
}

// NewSimulated returns a simulated oracle for m with the given noise and
// random seed.
func NewSimulated(m *portmap.Mapping, noise float64, seed uint64) *Simulated {
	return &Simulated{Model: throughput.NewModel(m), Noise: noise, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// Cycles returns the (noisy) simulated inverse throughput of e.
func (s *Simulated) Cycles(ctx context.Context, e portmap.Experiment) (float64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	t, err := s.Model.Cycles(e)
	if err != nil || s.Noise == 0 {
		return t, err
	}
	s.mu.Lock()
	z := s.rng.NormFloat64()
	s.mu.Unlock()
	return max(t*(1+s.Noise*z), 0.01*t), nil
}

// Replay is an Oracle that answers from measured data, e.g. a PMEvo
// experiment list or a finished campaign. Experiments it has no measurement
// for are an error naming them.
type Replay struct {
	byKey map[string]float64
	name  string
}

// NewReplay indexes the measurements of s (name is used in errors).
func NewReplay(name string, s *portmap.ExperimentSet) *Replay {
	r := &Replay{byKey: make(map[string]float64, s.Len()), name: name}
	for _, m := range s.Measurements {
		if m.Cycles > 0 {
			r.byKey[m.Experiment.Key()] = m.Cycles
		}
	}
	return r
}

// Cycles returns the stored measurement of e.
func (r *Replay) Cycles(ctx context.Context, e portmap.Experiment) (float64, error) {
	if c, ok := r.byKey[e.Key()]; ok {
		return c, nil
	}
	return 0, fmt.Errorf("measure: %s has no measurement of %s", r.name, e)
}

// Len returns the number of stored measurements.
func (r *Replay) Len() int { return len(r.byKey) }
