package oracle

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/portlab/portlab/lib/portmap"
)

// Counter is an oracle that counts the experiments it is asked for and
// passes everything on to another (see Count).
type Counter struct {
	Middleware

	mu   sync.Mutex
	n    int
	seen map[string]bool
}

// Count returns the oracle that asks o and counts the queries: every
// experiment asked, alone or in a batch, repeats included (Queries), and
// the distinct experiments among them (Distinct). It has o's capabilities
// (see Middleware).
func Count(o Oracle) *Counter {
	c := &Counter{seen: map[string]bool{}}
	c.Middleware = Wrap(o, Hooks{Answer: c.book})
	return c
}

func (c *Counter) book(_ context.Context, e portmap.Experiment) (portmap.Measurement, error, bool) {
	c.mu.Lock()
	c.n++
	c.seen[e.Key()] = true
	c.mu.Unlock()
	return portmap.Measurement{}, nil, false
}

// Queries returns the number of experiments asked so far, repeats
// included.
func (c *Counter) Queries() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Distinct returns the number of distinct experiments asked so far.
func (c *Counter) Distinct() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.seen)
}

// CorrectUops returns the oracle that asks o and adds to each
// measurement's µop count (Measurement.Uops) what o's µop counter does not
// count: rule(insn) per execution of insn, times its count in the
// experiment — e.g. the µops AMD's macro-op counter misses
// (explainable.Postulate65). An experiment with an instruction rule
// returns an error for fails with an *InsnError naming it, without asking
// o. It has o's capabilities (see Middleware): batches reach o whole.
func CorrectUops(o Oracle, rule func(insn string) (int, error)) Oracle {
	extra := func(e portmap.Experiment) (int, error) {
		n := 0
		for _, it := range e.Items() {
			k, err := rule(it.Insn)
			if err != nil {
				return 0, &InsnError{Insn: it.Insn, Err: err}
			}
			n += k * it.Count
		}
		return n, nil
	}
	return uopCorrection{Wrap(o, Hooks{
		Answer: func(_ context.Context, e portmap.Experiment) (portmap.Measurement, error, bool) {
			if _, err := extra(e); err != nil {
				return portmap.Measurement{}, err, true
			}
			return portmap.Measurement{}, nil, false
		},
		Keep: func(_ context.Context, e portmap.Experiment, m portmap.Measurement, err error) (portmap.Measurement, error) {
			if err != nil {
				return m, err
			}
			n, err := extra(e)
			if err != nil {
				return portmap.Measurement{}, err
			}
			m.Uops += float64(n)
			return m, nil
		},
	})}
}

// uopCorrection is the oracle CorrectUops returns.
type uopCorrection struct{ Middleware }

// Repeat returns the oracle that measures every experiment n times with o
// and answers with the median of the n samples: of the cycles, of the µop
// count, of each port's µops and of each other counter (where every sample
// has them); the rest of the measurement (Spread, Passes, …) is the first
// sample's. It asks o for the n samples of all experiments of a batch as
// one batch of n×len(batch) experiments — each experiment's n copies
// together — so that the host's benchmarker visits them in its
// interleaved passes; an experiment fails with the first error among its
// samples. The thesis measured every experiment 11 times on Zen+ and took
// the median (thesis §6.3.1).
//
// A median of samples needs fresh samples: Repeat returns an error naming
// o when o remembers (see Rememberer), e.g. a Replay or a campaign's file,
// whose repeats would all be the same value — repeat the oracle the
// campaign measures with instead. n = 1 returns o itself; n < 1 is an
// error. The result has o's other capabilities (see Middleware); its
// Noise is o's, the noise of one sample, which overstates the median's.
func Repeat(o Oracle, n int) (Oracle, error) {
	switch {
	case n < 1:
		return nil, fmt.Errorf("oracle: %d repeats, want at least 1", n)
	case n == 1:
		return o, nil
	case Remembers(o):
		return nil, fmt.Errorf("oracle: cannot take the median of %d measurements from %s: it answers a repeated experiment from memory, so all %d would be the same value (repeat the oracle it measures with instead)", n, NameOf(o), n)
	}
	return &repeated{Middleware: Wrap(o, Hooks{}), n: n}, nil
}

// repeated is the oracle Repeat returns.
type repeated struct {
	Middleware
	n int
}

// Measure measures e n times, as one batch of o, and returns the median.
func (r *repeated) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	var m portmap.Measurement
	var err error
	if berr := r.MeasureBatch(ctx, []portmap.Experiment{e}, func(_ int, m1 portmap.Measurement, err1 error) { m, err = m1, err1 }); berr != nil {
		return portmap.Measurement{}, berr
	}
	return m, err
}

// MeasureBatch measures every experiment of exps n times, all in one batch
// of the inner oracle, and calls done with each experiment's median as
// soon as its n samples are final.
func (r *repeated) MeasureBatch(ctx context.Context, exps []portmap.Experiment, done func(int, portmap.Measurement, error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	big := make([]portmap.Experiment, 0, r.n*len(exps))
	for _, e := range exps {
		for range r.n {
			big = append(big, e)
		}
	}
	samples := make([][]portmap.Measurement, len(exps))
	errs := make([][]error, len(exps))
	left := make([]int, len(exps))
	for i := range exps {
		samples[i], errs[i], left[i] = make([]portmap.Measurement, r.n), make([]error, r.n), r.n
	}
	var mu sync.Mutex
	return measureBatch(ctx, r.inner, big, func(j int, m portmap.Measurement, err error) {
		mu.Lock()
		defer mu.Unlock()
		i, k := j/r.n, j%r.n
		samples[i][k], errs[i][k] = m, err
		if left[i]--; left[i] > 0 {
			return
		}
		for _, err := range errs[i] {
			if err != nil {
				done(i, portmap.Measurement{}, err)
				return
			}
		}
		done(i, medianOf(samples[i]), nil)
	})
}

// measureBatch measures exps with o as one batch when o measures batches,
// one by one otherwise (stopping when ctx is cancelled).
func measureBatch(ctx context.Context, o Oracle, exps []portmap.Experiment, done func(int, portmap.Measurement, error)) error {
	if b, ok := o.(BatchMeasurer); ok {
		return b.MeasureBatch(ctx, exps, done)
	}
	for i, e := range exps {
		m, err := o.Measure(ctx, e)
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		done(i, m, err)
	}
	return nil
}

// medianOf returns the first of xs with the medians of the cycles and
// the counters of all.
func medianOf(xs []portmap.Measurement) portmap.Measurement {
	m := xs[0]
	pick := func(f func(portmap.Measurement) float64) float64 {
		v := make([]float64, len(xs))
		for k, x := range xs {
			v[k] = f(x)
		}
		return median(v)
	}
	m.Cycles = pick(func(x portmap.Measurement) float64 { return x.Cycles })
	m.Uops = pick(func(x portmap.Measurement) float64 { return x.Uops })
	if m.PortUops != nil && allHave(xs, func(x portmap.Measurement) bool { return len(x.PortUops) == len(m.PortUops) }) {
		m.PortUops = make([]float64, len(xs[0].PortUops))
		for p := range m.PortUops {
			m.PortUops[p] = pick(func(x portmap.Measurement) float64 { return x.PortUops[p] })
		}
	}
	if m.Counters != nil {
		m.Counters = make(map[string]float64, len(xs[0].Counters))
		for name, v := range xs[0].Counters {
			m.Counters[name] = v
			if allHave(xs, func(x portmap.Measurement) bool { _, ok := x.Counters[name]; return ok }) {
				m.Counters[name] = pick(func(x portmap.Measurement) float64 { return x.Counters[name] })
			}
		}
	}
	return m
}

func allHave(xs []portmap.Measurement, has func(portmap.Measurement) bool) bool {
	for _, x := range xs {
		if !has(x) {
			return false
		}
	}
	return true
}

// median returns the median of xs (the mean of the two middle values of
// an even number).
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
