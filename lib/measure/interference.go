package measure

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
)

// Interference measures how much the oracle's CPUs slow each other down:
// the reference kernel (independent adds, as many per cycle as the core
// has integer ALUs) is timed on each CPU alone, then on all of them at
// once, the median of nine timings each, and the result is the largest
// slow-down, 0.08 for 8 % — the smallest of three rounds. CPUs on separate cores show a few percent at
// most (on a shared VM up to about 20 %: single timings there vary by
// ±20 %); SMT siblings — two hardware threads of one core, which a VM may
// present as separate cores — share the ALUs and show 50 % or more, and
// timings taken on both at once are not throughputs of one thread. 0 for
// an oracle on one CPU. MaxInterference is the limit portlab's commands
// accept.
func (h *Hardware) Interference(ctx context.Context) (float64, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	timers := h.timers()
	if len(timers) < 2 {
		return 0, nil
	}
	if h.Timer.obj == nil {
		// Nothing prepared yet: load the timers' own kernels alone.
		if err := h.load(ctx, nil); err != nil {
			return 0, err
		}
	}
	// Three rounds, the smallest slow-down: sharing a core slows every
	// round down, a disturbance (or a worker's first timings) only some.
	best := math.Inf(1)
	for round := 0; round < 3; round++ {
		s, err := interference(ctx, timers)
		if err != nil {
			return 0, err
		}
		best = min(best, s)
	}
	return best, nil
}

// interference times the reference kernel on each timer alone, then on
// all at once, and returns the largest slow-down.
func interference(ctx context.Context, timers []*Timer) (float64, error) {
	alone := make([]float64, len(timers))
	for i, t := range timers {
		c, err := t.referenceSpeed(ctx)
		if err != nil {
			return 0, fmt.Errorf("measure: CPU %d: %w", t.Runner.CPU, err)
		}
		alone[i] = c
	}
	together := make([]float64, len(timers))
	errs := make([]error, len(timers))
	var wg sync.WaitGroup
	for i, t := range timers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			together[i], errs[i] = t.referenceSpeed(ctx)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return 0, err
	}
	worst := 0.0
	for i := range timers {
		worst = max(worst, together[i]/alone[i]-1)
	}
	return worst, nil
}

// MaxInterference is the largest slow-down (see Interference) at which
// portlab measures on several CPUs at once.
const MaxInterference = 0.25

// referenceSpeed returns the reference kernel's cycles per iteration: the
// median of nine timings over the median of nine calibrations — the
// usual speed, not the best moment: a core shared for part of the time
// slows most timings, not all.
func (t *Timer) referenceSpeed(ctx context.Context) (float64, error) {
	calN, err := t.iterations(ctx, calibrationIndex)
	if err != nil {
		return 0, err
	}
	refN, err := t.iterations(ctx, referenceIndex)
	if err != nil {
		return 0, err
	}
	var cals, refs []float64
	for i := 0; i < 9; i++ {
		cal, err := t.perIteration(ctx, calibrationIndex, calN)
		if err != nil {
			return 0, err
		}
		ref, err := t.perIteration(ctx, referenceIndex, refN)
		if err != nil {
			return 0, err
		}
		cals, refs = append(cals, cal), append(refs, ref)
	}
	c := median(refs) / (median(cals) / calibrationLength)
	if !(c > 0) {
		return 0, fmt.Errorf("measure: the reference kernel could not be timed")
	}
	return c, nil
}
