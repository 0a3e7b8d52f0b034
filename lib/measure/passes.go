package measure

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/pmu"
	"github.com/portlab/portlab/lib/portmap"
)

// Default pass settings of the hardware oracle (see Hardware.Passes): at
// least DefaultPasses interleaved passes over a batch, at most
// DefaultMaxPasses, an experiment final once its two fastest uncontended
// passes agree within DefaultAgreement; a pass during which a reference
// kernel ran more than MaxContention slower than usual (Timing.Contention:
// another tenant used the core) neither counts towards the agreement nor
// gives the value while uncontended passes exist. The studies these values
// were chosen from (run-to-run agreement on a shared Zen 3 VM, replays of
// the rule on recorded passes) are in bench/results/README.md, "How the
// pass settings were chosen".
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
// error; inPasses returns early only when ctx is cancelled or with an
// infrastructure error (oracle.IsInfrastructure). When ctx is cancelled,
// every item not yet final that has at least minPasses timings is made
// final with them first (its Spread shows whether they agreed), so that
// an interrupt keeps every item whose passes are complete.
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
	// interrupted makes final every pending item that has its minPasses
	// timings — as if its last pass had been the last allowed — so that
	// an interrupt loses only the items whose passes are incomplete.
	var done []bool
	interrupted := func(pending, next []int) error {
		for _, list := range [][]int{next, pending} {
			for _, i := range list {
				if !done[i] && len(timings[i]) >= minPasses {
					done[i] = true
					final(i, timings[i], nil)
				}
			}
		}
		return ctx.Err()
	}
	done = make([]bool, n)
	for pass := 0; pass < maxPasses && len(pending) > 0; pass++ {
		rng.Shuffle(len(pending), func(a, b int) { pending[a], pending[b] = pending[b], pending[a] })
		var next []int
		for _, i := range pending {
			if err := ctx.Err(); err != nil {
				return interrupted(pending, next)
			}
			t, err := time(i)
			if err != nil {
				if ctx.Err() != nil {
					return interrupted(pending, next)
				}
				done[i] = true
				final(i, timings[i], err)
				if oracle.IsInfrastructure(err) {
					return err // every other item would fail alike
				}
				continue
			}
			timings[i] = append(timings[i], t)
			u := uncontended(timings[i])
			if pass+1 >= minPasses && (pass+1 == maxPasses || minPasses == 1 || len(u) >= 2 && agrees(u, agreement)) {
				done[i] = true
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
// uncontended pass (each pass is a Timing: its fastest run over its
// fastest calibration; the fastest of all when all were contended), Min and Max span all samples, Dispersion
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
