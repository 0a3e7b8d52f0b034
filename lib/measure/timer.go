package measure

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"
)

// calibrationLength is the number of dependent adds of the calibration
// kernel: one core cycle each, whatever the microarchitecture.
const calibrationLength = 100

// calibrationKernel is a chain of dependent adds: each depends on the one
// before, so one iteration takes exactly calibrationLength core cycles.
// referenceKernel is port-bound: twelve independent add chains, limited by
// the integer ALUs. Its speed only changes when something else uses the
// core's execution ports — another hardware thread on the same physical
// core, which a virtual machine cannot see — so it measures contention.
func referenceKernel() Kernel {
	var body []string
	for i := 0; i < 8; i++ {
		for _, r := range referenceRegs {
			body = append(body, "add "+r+", rbp")
		}
	}
	return Kernel{Name: "reference: independent adds", Body: body}
}

var referenceRegs = []string{"rax", "rcx", "rdx", "rbx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13"}

// windowKernel is the second reference: the same twelve add chains, but
// each 48 adds long and one after the other in the body, so the core runs
// them side by side only as far as its out-of-order window (reorder
// buffer, schedulers) reaches over a hundred and more instructions. When
// another hardware thread on the core is active, the core splits those
// resources between the threads and this kernel slows down, even while
// the other thread leaves the ALUs alone and the port-bound reference
// runs at full speed. On a Zen 3 VM, of the passes during which this
// kernel ran within 10 % of its usual speed, 6 % were more than 5 % slower
// than the experiment's fastest pass; of those during which the
// port-bound reference did, 20 %.
func windowKernel() Kernel {
	var body []string
	for _, r := range referenceRegs {
		for i := 0; i < 48; i++ {
			body = append(body, "add "+r+", rbp")
		}
	}
	return Kernel{Name: "reference: add chains one after the other", Body: body}
}

// Indices of the timer's own kernels in a loaded object, and of the first
// user kernel after them.
const (
	calibrationIndex = 0
	referenceIndex   = 1
	windowIndex      = 2
	firstKernel      = 3
)

func calibrationKernel() Kernel {
	body := make([]string, calibrationLength)
	for i := range body {
		body[i] = "add rax, 1"
	}
	return Kernel{Name: "calibration: dependent add chain", Body: body}
}

// Timer measures kernels in core cycles per loop iteration with the TSC,
// converting ticks to cycles by a calibration kernel — a chain of dependent
// adds, one cycle each — timed in the same worker right before every
// sample (the core clock and the TSC differ, and the core clock changes
// with load).
type Timer struct {
	Runner *Runner
	// Target is the duration one timing aims for (default 1 ms).
	Target time.Duration
	// Samples is the number of timings per measurement (default 7).
	Samples int
	// Repeats is how often each timing is repeated back to back, keeping
	// the fastest (default 3): interference from other processes or the
	// hypervisor only ever adds time.
	Repeats int

	obj          *Object
	ticksPerNano float64
	refIters     uint64
	winIters     uint64
	ports        baseline // the port-bound reference's usual speed
	window       baseline // the window-bound reference's usual speed
}

// baseline is a reference kernel's usual speed, learnt from its recent
// timings (see note).
type baseline struct {
	hist  []float64 // recent timings, cycles per iteration
	floor float64   // the lowest mode since hist held 64
}

// refHistory is how many recent reference timings a contention baseline
// is taken from.
const refHistory = 1024

// note records a reference timing and returns the contention it shows:
// its slow-down against the baseline, the reference's usual speed. The
// baseline is the mode of the recent timings — the middle of the densest
// 2 % range of values — because an uncontended core runs the reference at
// one speed, while a co-tenant slows it by varying amounts and a
// disturbed calibration makes single timings come out too fast (on a Zen
// 3 VM in a busy hour, 10 % of the timings lay below the mode, some at
// half of it, so a low percentile put the baseline there and everything
// read as ~10 % contended). Once 64 timings are known the baseline never
// rises: a co-tenant can keep the core busy for minutes, and a baseline of
// the last 64 timings then took the contended speed for the normal one —
// passes up to 2× slow counted as uncontended and agreed.
func (b *baseline) note(c float64) float64 {
	if len(b.hist) == refHistory {
		b.hist = b.hist[1:]
	}
	b.hist = append(b.hist, c)
	s := slices.Clone(b.hist)
	slices.Sort(s)
	base := mode(s, 0.02)
	if len(s) >= 64 {
		if b.floor == 0 || base < b.floor {
			b.floor = base
		}
		base = b.floor
	}
	return max(0, c/base-1)
}

// mode returns the median of the values in the densest range [v, v·(1+w)]
// of sorted positive values s (the lowest such range on ties).
func mode(s []float64, w float64) float64 {
	bi, bj := 0, 0
	j := 0
	for i, v := range s {
		for j < len(s) && s[j] <= v*(1+w) {
			j++
		}
		if j-i > bj-bi {
			bi, bj = i, j
		}
	}
	return s[(bi+bj-1)/2]
}

// NewTimer returns a timer with a worker pinned to cpu.
func NewTimer(cpu int) *Timer {
	return &Timer{Runner: NewRunner(cpu), Target: time.Millisecond, Samples: 7, Repeats: 3}
}

// Close stops the worker.
func (t *Timer) Close() error { return t.Runner.Close() }

// Timing is the timing of one kernel: its repeated samples and their summary.
type Timing struct {
	// Cycles is the estimate, in core cycles per iteration: the fastest
	// run of the kernel over the fastest run of the calibration chain in
	// this timing. A run can only be slowed down — by another thread on
	// the core, the hypervisor, a slow moment of the clock — never sped
	// up, so the fastest is the least disturbed (see perIteration for why
	// this was once the median of the samples, and Hardware.Passes for
	// how it is confirmed). Not the fastest sample: each sample has its
	// own calibration, which follows the clock (±2 % on a Zen 3 VM), and
	// the fastest of those ratios picks the sample whose calibration
	// happened to run slowest — on latency chains whose cycles are known
	// (add, imul, vpaddd) it came out 0.3–0.6 % fast, the ratio of the
	// fastest runs within 0.5 %.
	Cycles float64
	// Median, Min and Max summarise the samples; Dispersion is their median
	// absolute deviation relative to the median — how much the machine
	// disturbed them.
	Median, Min, Max, Dispersion float64
	// Samples are the per-iteration values of each sample, each against
	// the calibrations right before and after it.
	Samples []float64
	// Iterations is the loop count of one timing; TicksPerCycle the
	// calibration in force (the fastest of the timing).
	Iterations    uint64
	TicksPerCycle float64
	// Contention is how much slower than usual the reference kernels ran
	// right after this measurement, the larger of their slow-downs: 0.1
	// means 10 % slower than usual (see baseline.note). One is port-bound
	// (independent adds), the other needs a large out-of-order window
	// (windowKernel); values above a few percent mean that another thread
	// used the core's ports or took part of its window (on a VM: another
	// tenant on the sibling hardware thread), and results are then too
	// slow by up to that much and more.
	Contention float64
	// Counts are the readings of the Runner's Counters per iteration,
	// by event name: for each sample the difference between the runs of
	// 2N and N iterations (as for the time), the median over the samples;
	// nil without counters.
	Counts map[string]float64
}

func (m Timing) String() string {
	return fmt.Sprintf("%.4f cycles/iteration (min %.4f, median %.4f, max %.4f, dispersion %.2f%%, %d samples × %d iterations)",
		m.Cycles, m.Min, m.Median, m.Max, 100*m.Dispersion, len(m.Samples), m.Iterations)
}

// Load assembles kernels (behind the timer's own calibration and
// reference kernels) and loads them into the worker. Kernel indices in
// Measure refer to kernels.
func (t *Timer) Load(ctx context.Context, kernels []Kernel, vec Vector) error {
	all := append([]Kernel{calibrationKernel(), referenceKernel(), windowKernel()}, kernels...)
	obj, err := Assemble(ctx, all, vec)
	if err != nil {
		return err
	}
	t.obj = obj
	return t.Runner.Load(obj)
}

// loadObject makes obj, assembled by another timer's Load, this timer's
// code.
func (t *Timer) loadObject(obj *Object) error {
	t.obj = obj
	return t.Runner.Load(obj)
}

// Measure times kernel k (an index into the kernels given to Load) and
// returns core cycles per loop iteration. Every sample of the kernel is
// bracketed by samples of the calibration chain, taken right before and
// right after it, and the sample's cycles are its ticks divided by the
// faster calibration's ticks per cycle: a change of the core clock between
// samples (turbo, load on the other cores) cancels out — on a Zen 3 VM
// the calibration varied by ±2 % between samples, and the kernels' ticks
// followed it with a slope of 0.93 — and a calibration slowed by a
// disturbance does not count. The timing's estimate is its fastest run
// over its fastest calibration (Timing.Cycles). Both reference kernels are
// timed once afterwards (Timing.Contention).
func (t *Timer) Measure(ctx context.Context, k int) (Timing, error) {
	if t.obj == nil {
		return Timing{}, fmt.Errorf("measure: no kernels loaded")
	}
	calN, err := t.iterations(ctx, calibrationIndex)
	if err != nil {
		return Timing{}, fmt.Errorf("measure: calibration: %w", err)
	}
	if t.refIters == 0 || t.winIters == 0 {
		// Both or neither: a failure (a worker killed) between the two
		// left the window reference at 0 iterations, which the loop
		// counter wraps around to 2⁶⁴ — every later timing hung until
		// its timeout.
		ref, err := t.iterations(ctx, referenceIndex)
		if err != nil {
			return Timing{}, fmt.Errorf("measure: reference: %w", err)
		}
		win, err := t.iterations(ctx, windowIndex)
		if err != nil {
			return Timing{}, fmt.Errorf("measure: reference: %w", err)
		}
		t.refIters, t.winIters = ref, win
		// A first estimate of the references' uncontended speeds.
		for i := 0; i < 5; i++ {
			cal, err := t.perIteration(ctx, calibrationIndex, calN)
			if err != nil {
				return Timing{}, fmt.Errorf("measure: calibration: %w", err)
			}
			if _, err := t.contention(ctx, cal/calibrationLength); err != nil {
				return Timing{}, err
			}
		}
	}
	n, err := t.iterations(ctx, k+firstKernel)
	if err != nil {
		return Timing{}, err
	}
	m := Timing{Iterations: n}
	var countSamples [][]float64
	// Each sample is bracketed by calibrations, the one after a sample
	// serving as the one before the next, and the faster of the two
	// counts: a disturbance only ever slows the chain down, and one slowed
	// calibration would make the sample look too fast (it did: vaddps at
	// 0.37 cycles under load). The estimate is the fastest run of the
	// kernel over the fastest of the calibration (see Timing.Cycles).
	prev := math.NaN()
	fastestRun, fastestCal := math.Inf(1), math.Inf(1)
	calibrate := func() (float64, error) {
		cal, err := t.perIteration(ctx, calibrationIndex, calN)
		if err != nil {
			return 0, fmt.Errorf("measure: calibration: %w", err)
		}
		prev = cal
		fastestCal = min(fastestCal, cal)
		return cal, nil
	}
	sample := func() (float64, error) {
		before := prev
		if math.IsNaN(before) {
			var err error
			if before, err = calibrate(); err != nil {
				return 0, err
			}
		}
		v, counts, err := t.perIterationCounted(ctx, k+firstKernel, n)
		if err != nil {
			return 0, err
		}
		if counts != nil {
			countSamples = append(countSamples, counts)
		}
		fastestRun = min(fastestRun, v)
		after, err := calibrate()
		if err != nil {
			return 0, err
		}
		return v / (min(before, after) / calibrationLength), nil
	}
	for len(m.Samples) < max(t.Samples, 1) {
		v, err := sample()
		if err != nil {
			return Timing{}, err
		}
		m.Samples = append(m.Samples, v)
	}
	m.Median = median(m.Samples)
	m.Min, m.Max = slices.Min(m.Samples), slices.Max(m.Samples)
	m.TicksPerCycle = fastestCal / calibrationLength
	m.Cycles = fastestRun / m.TicksPerCycle
	dev := make([]float64, len(m.Samples))
	for i, v := range m.Samples {
		dev[i] = math.Abs(v - m.Median)
	}
	if m.Median > 0 {
		m.Dispersion = median(dev) / m.Median
	}
	if specs := t.Runner.Counters; len(specs) > 0 && len(countSamples) > 0 {
		m.Counts = map[string]float64{}
		for j, s := range specs {
			v := make([]float64, len(countSamples))
			for i, c := range countSamples {
				v[i] = c[j]
			}
			m.Counts[s.Name] = median(v)
		}
	}
	// The reference kernels, timed once: their slow-down says whether
	// another thread used the core meanwhile (reported; the passes of
	// Hardware make the value robust to it).
	if m.Contention, err = t.contention(ctx, m.TicksPerCycle); err != nil {
		return Timing{}, err
	}
	return m, nil
}

// contention times both reference kernels once, with tpc ticks per cycle,
// and returns the larger of their slow-downs against their usual speeds.
func (t *Timer) contention(ctx context.Context, tpc float64) (float64, error) {
	ref, err := t.perIteration(ctx, referenceIndex, t.refIters)
	if err != nil {
		return 0, fmt.Errorf("measure: reference: %w", err)
	}
	win, err := t.perIteration(ctx, windowIndex, t.winIters)
	if err != nil {
		return 0, fmt.Errorf("measure: reference: %w", err)
	}
	return t.slowDown(ref/tpc, win/tpc), nil
}

// slowDown records a timing of each reference kernel, in cycles per
// iteration, and returns the contention they show: the larger of their
// slow-downs against their usual speeds (a value that is not positive —
// a timing that failed — is left out).
func (t *Timer) slowDown(ports, window float64) float64 {
	var c float64
	if ports > 0 {
		c = t.ports.note(ports)
	}
	if window > 0 {
		c = max(c, t.window.note(window))
	}
	return c
}

// iterations warms kernel k up and returns the loop count for which one
// timing takes about Target.
func (t *Timer) iterations(ctx context.Context, k int) (uint64, error) {
	const preIters = 1000
	resp, err := t.Runner.run(ctx, k, preIters, 3)
	if err != nil {
		return 0, err
	}
	if t.ticksPerNano == 0 {
		t.ticksPerNano = rate(resp)
	}
	perIter := float64(slices.Min(resp.Ticks)) / preIters
	return uint64(max(1, float64(t.Target.Nanoseconds())*t.ticksPerNano/perIter)), nil
}

// perIteration returns the ticks per iteration of the fastest of Repeats
// runs of n and Repeats runs of 2n iterations. A disturbance only ever
// adds time, so the fastest run is the one least disturbed. (The fixed
// cost of a call — register set-up, two rdtsc: hundreds of ticks — is a
// few tenths of a per cent of a timing of 100 µs at most, less of the
// 250 µs Hardware uses, and the calibration chain, timed as long,
// carries the same: latency chains of known cycles come out within
// 0.5 %.
// The difference T(2n) − T(n), which cancels it, has noise on both sides:
// a disturbed T(n) made it come out too fast, so that the fastest could
// not be trusted and samples were summarised by their median, which a
// busy machine moves: see DefaultPasses for the two compared.)
func (t *Timer) perIteration(ctx context.Context, k int, n uint64) (float64, error) {
	v, _, err := t.perIterationCounted(ctx, k, n)
	return v, err
}

// perIterationCounted is perIteration that also returns, when the Runner
// has Counters, C(2n) − C(n) per iteration for each counter, each C the
// smallest of the Repeats runs (a disturbance only adds; the difference
// cancels the counts of the call itself).
func (t *Timer) perIterationCounted(ctx context.Context, k int, n uint64) (float64, []float64, error) {
	reps := max(t.Repeats, 1)
	r1, err := t.Runner.run(ctx, k, n, reps)
	if err != nil {
		return 0, nil, err
	}
	r2, err := t.Runner.run(ctx, k, 2*n, reps)
	if err != nil {
		return 0, nil, err
	}
	var counts []float64
	if len(r1.Counts) > 0 && len(r2.Counts) > 0 {
		counts = make([]float64, len(r1.Counts[0]))
		for j := range counts {
			lo := func(rs [][]float64) float64 {
				m := math.Inf(1)
				for _, c := range rs {
					m = math.Min(m, c[j])
				}
				return m
			}
			counts[j] = (lo(r2.Counts) - lo(r1.Counts)) / float64(n)
		}
	}
	return fastestPerIteration(r1.Ticks, r2.Ticks, n), counts, nil
}

// fastestPerIteration returns the ticks per iteration of the fastest run,
// given the ticks of runs of n iterations and of runs of 2n.
func fastestPerIteration(runsN, runs2N []uint64, n uint64) float64 {
	return min(float64(slices.Min(runsN))/float64(n), float64(slices.Min(runs2N))/float64(2*n))
}

// rate estimates TSC ticks per nanosecond from a response.
func rate(r *response) float64 {
	var ticks, nanos float64
	for i := range r.Ticks {
		ticks += float64(r.Ticks[i])
		nanos += float64(r.Nanos[i])
	}
	if nanos == 0 {
		return 1
	}
	return ticks / nanos
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Repeat returns body repeated n times, a helper for unrolling.
func Repeat(body []string, n int) []string {
	out := make([]string, 0, len(body)*n)
	for i := 0; i < n; i++ {
		out = append(out, body...)
	}
	return out
}
