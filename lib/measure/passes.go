package measure

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/portlab/portlab/lib/pmu"
	"github.com/portlab/portlab/lib/portmap"
)

// Default pass settings of the hardware oracle (see Hardware.Passes).
//
// Chosen from a study on an AMD Zen 3 VM shared with other tenants: 60
// singletons and 200 random length-5 experiments timed in six interleaved
// passes, twice. One timing (the median of five samples) differed from
// the same timing minutes later by a median 11–15 % (p90 33–38 %): a
// quarter to a third of all timings ran during a slow period of the
// machine, mostly a few timings long, at most about 50. The fastest of
// three passes differed by a median 0.5–0.8 % (p90 2.2–4.5 %), of four by
// 0.3–0.5 % (p90 1.5–2.1 %); the fastest single sample, or a low
// quantile of all samples, repeated worse (a sample T(2N) − T(N) with a
// disturbed T(N) comes out too fast, a pass median does not). Replaying
// the adaptive rule on those passes: agreement within 2 % took 3.6 passes
// on average and repeated within a median 0.5 % (p90 2.2 %), within 1 %
// 4.0 passes and no better (p90 3.7 %); taking the lowest pair of passes
// that agree instead of the fastest pass, or the median when none agree,
// repeated worse.
//
// Those studies summarised a pass by the median of its samples, each a
// difference T(2N) − T(N), whose noise has two sides. A pass is now the
// fastest run of the kernel over the fastest calibration (Timer.Measure):
// the same rule replayed on 125 singletons and 1,000 length-5 experiments
// timed in six and ten passes, 5–7 minutes apart in a busy hour (the
// port-bound reference ran a median 12–24 % slow), differed by p90 1.6 %
// / 3.4 % (singletons / length-5) against 8.4 % / 12.6 % with the pass
// medians.
//
// A pass during which a reference kernel ran more than MaxContention
// slower than usual (Timing.Contention: another tenant used the core)
// neither counts towards the agreement nor gives the value while
// uncontended passes exist. Counting the window-bound reference as well
// as the port-bound one took the same replay to p90 0.8 % / 1.4 %, median
// 0.1 % / 0.3 % (with no contention rule: p90 3.3 % / 7.3 %): of the
// passes during which the port-bound reference ran within 10 % of its
// usual speed, 20 % were more than 5 % slower than the experiment's
// fastest pass, of those during which the window-bound one did, 6 %.
// Contended periods last from
// tens of milliseconds to minutes; earlier, in a busy hour, a quarter of
// the experiments had passes that agreed with each other but were up to
// 70 % slow, and their recorded contention said so.
//
// A fourth pass at least did not help between runs (with the pass
// medians): two pairs of runs of 125 singletons and 1,000 length-5
// experiments, 51 minutes apart in the same busy night, differed by p90
// 6.0 % / 9.2 % with at least three passes and 8.3 % / 10.3 % with at
// least four, which took 2–9 % longer. Ten passes at most instead of six
// took the replay above to p90 0.8 % / 0.8 %, for 13 % more passes.
const (
	DefaultPasses    = 3
	DefaultMaxPasses = 6
	DefaultAgreement = 0.02
	MaxContention    = 0.10
)

// inPasses times n items in passes over those not yet final, each pass in
// a new pseudo-random order, so that a slow period of the machine hits
// different items in different passes. time times item i once. An item
// is final when it has at least minPasses timings and its two fastest
// differ by at most agreement, or after maxPasses; final is then called
// with its timings. An error of time(i) makes item i final with that
// error; inPasses returns early only when ctx is cancelled.
func inPasses(ctx context.Context, n, minPasses, maxPasses int, agreement float64, seed uint64,
	time func(i int) (Timing, error), final func(i int, ts []Timing, err error)) error {
	minPasses = max(1, minPasses)
	maxPasses = max(minPasses, maxPasses)
	timings := make([][]Timing, n)
	pending := make([]int, n)
	for i := range pending {
		pending[i] = i
	}
	rng := rand.New(rand.NewPCG(seed, 0x706f72746c6162))
	for pass := 0; pass < maxPasses && len(pending) > 0; pass++ {
		rng.Shuffle(len(pending), func(a, b int) { pending[a], pending[b] = pending[b], pending[a] })
		var next []int
		for _, i := range pending {
			if err := ctx.Err(); err != nil {
				return err
			}
			t, err := time(i)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				final(i, timings[i], err)
				continue
			}
			timings[i] = append(timings[i], t)
			u := uncontended(timings[i])
			if pass+1 >= minPasses && (pass+1 == maxPasses || minPasses == 1 || len(u) >= 2 && agrees(u, agreement)) {
				final(i, timings[i], nil)
				continue
			}
			next = append(next, i)
		}
		slices.Sort(next) // the next order depends on the pass, not on this one
		pending = next
	}
	return nil
}

// uncontended returns the timings with a contention of at most
// MaxContention.
func uncontended(ts []Timing) []Timing {
	var u []Timing
	for _, t := range ts {
		if t.Contention <= MaxContention {
			u = append(u, t)
		}
	}
	return u
}

// agrees reports whether the two fastest timings differ by at most tol.
func agrees(ts []Timing, tol float64) bool {
	if len(ts) < 2 {
		return true
	}
	a, b := twoFastest(ts)
	return ts[b].Cycles <= ts[a].Cycles*(1+tol)
}

// twoFastest returns the indices of the fastest and the second fastest
// timing (b = a when there is only one).
func twoFastest(ts []Timing) (a, b int) {
	a, b = 0, -1
	for i := 1; i < len(ts); i++ {
		switch {
		case ts[i].Cycles < ts[a].Cycles:
			a, b = i, a
		case b < 0 || ts[i].Cycles < ts[b].Cycles:
			b = i
		}
	}
	if b < 0 {
		b = a
	}
	return a, b
}

// fromPasses summarises the passes over e: Cycles is the fastest
// uncontended pass (each pass is the median of its samples; the fastest of
// all when all were contended), Min and Max span all samples, Dispersion
// and Contention are that pass's, and Spread is how much slower the second
// fastest of the same passes was — for a lone uncontended pass, its
// distance to the nearest contended one.
func fromPasses(e portmap.Experiment, ts []Timing) (portmap.Measurement, error) {
	if len(ts) == 0 {
		return portmap.Measurement{}, fmt.Errorf("measure: %v: no timing", e)
	}
	u := uncontended(ts)
	if len(u) == 0 {
		u = ts // all contended: the fastest of them
	}
	a, b := twoFastest(u)
	best := u[a]
	m := portmap.Measurement{Experiment: e, Cycles: best.Cycles, Min: best.Min, Max: best.Max,
		Dispersion: best.Dispersion, Contention: best.Contention, Passes: len(ts)}
	if best.Cycles > 0 {
		m.Spread = u[b].Cycles/best.Cycles - 1
		if len(u) == 1 && len(ts) > 1 {
			// One uncontended pass agrees with nothing: the spread is its
			// distance to the nearest contended pass (seen: bts r64, imm8
			// at 1.92 cycles from its one uncontended pass of six, the
			// others at 1.00 as in every other run), so that the doubt
			// shows and a campaign measures it again.
			m.Spread = math.Inf(1)
			for _, t := range ts {
				if t.Contention > MaxContention {
					m.Spread = min(m.Spread, math.Abs(t.Cycles/best.Cycles-1))
				}
			}
		}
	}
	for _, t := range ts {
		m.Min, m.Max = min(m.Min, t.Min), max(m.Max, t.Max)
	}
	if len(best.Counts) > 0 {
		// The counts of the pass whose time counts.
		m.Counters = map[string]float64{}
		for name, v := range best.Counts {
			if name == pmu.UopsName {
				m.Uops = v
			} else {
				m.Counters[name] = v
			}
		}
	}
	return m, nil
}
