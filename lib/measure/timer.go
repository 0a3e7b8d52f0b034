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
	regs := []string{"rax", "rcx", "rdx", "rbx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13"}
	var body []string
	for i := 0; i < 8; i++ {
		for _, r := range regs {
			body = append(body, "add "+r+", rbp")
		}
	}
	return Kernel{Name: "reference: independent adds", Body: body}
}

// firstKernel is the index of the first user kernel in a loaded object,
// after the calibration and reference kernels.
const firstKernel = 2

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
	refHist      []float64 // recent reference speeds, cycles per iteration
	refFloor     float64   // the lowest baseline since refHist held 64
}

// refHistory is how many recent reference timings the contention baseline
// is taken from.
const refHistory = 1024

// noteReference records a reference timing and returns the contention it
// shows: its slow-down against the baseline, the reference's usual speed.
// The baseline is the mode of the recent timings — the middle of the
// densest 2 % range of values — because an uncontended core runs the
// reference at one speed, while a co-tenant slows it by varying amounts
// and a disturbed calibration makes single timings come out too fast (on
// a Zen 3 VM in a busy hour, 10 % of the timings lay below the mode, some
// at half of it, so a low percentile put the baseline there and everything
// read as ~10 % contended). Once 64 timings are known the baseline never
// rises: a co-tenant can keep the core's ports busy for minutes, and a
// baseline of the last 64 timings then took the contended speed for the
// normal one — passes up to 2× slow counted as uncontended and agreed.
func (t *Timer) noteReference(c float64) float64 {
	if len(t.refHist) == refHistory {
		t.refHist = t.refHist[1:]
	}
	t.refHist = append(t.refHist, c)
	s := slices.Clone(t.refHist)
	slices.Sort(s)
	base := mode(s, 0.02)
	if len(s) >= 64 {
		if t.refFloor == 0 || base < t.refFloor {
			t.refFloor = base
		}
		base = t.refFloor
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
	// Cycles is the estimate, in core cycles per iteration: the median
	// of the samples. (A low order statistic repeated better between runs
	// under load — 150 forms timed 30 minutes apart differed by a median
	// 7.8 % with the lower decile, 13.5 % with the median — but a sample
	// T(2N) − T(N) with a disturbed T(N) comes out too fast, and the lower
	// decile then put a 3-cycle imul chain at 2.67 cycles: not until the
	// samples themselves are one-sided.)
	Cycles float64
	// Median, Min and Max summarise the samples; Dispersion is their median
	// absolute deviation relative to the median.
	Median, Min, Max, Dispersion float64
	// Samples are the per-iteration values of each timing (outliers
	// re-measured).
	Samples []float64
	// Iterations is the loop count of one timing; TicksPerCycle the
	// calibration in force.
	Iterations    uint64
	TicksPerCycle float64
	// Contention is how much slower than usual the reference kernel
	// (port-bound independent adds) ran during this measurement: 0.1 means
	// 10 % slower than its usual speed (see noteReference). Values above a
	// few percent mean something else used the core's
	// ports (on a VM: another tenant on the sibling hardware thread) and
	// throughput-bound results are too slow by up to that much.
	Contention float64
	// Remeasured counts samples replaced because they were outliers
	// (e.g. the hypervisor preempted the worker).
	Remeasured int
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

// Load assembles kernels (behind the timer's own calibration kernel) and
// loads them into the worker. Kernel indices in Measure refer to kernels.
func (t *Timer) Load(ctx context.Context, kernels []Kernel, vec Vector) error {
	all := append([]Kernel{calibrationKernel(), referenceKernel()}, kernels...)
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
// samples (turbo, load on the other cores) cancels out, and a calibration
// slowed by a disturbance does not count.
func (t *Timer) Measure(ctx context.Context, k int) (Timing, error) {
	if t.obj == nil {
		return Timing{}, fmt.Errorf("measure: no kernels loaded")
	}
	calN, err := t.iterations(ctx, 0)
	if err != nil {
		return Timing{}, fmt.Errorf("measure: calibration: %w", err)
	}
	if t.refIters == 0 {
		if t.refIters, err = t.iterations(ctx, 1); err != nil {
			return Timing{}, fmt.Errorf("measure: reference: %w", err)
		}
		// A first estimate of the reference's uncontended speed.
		for i := 0; i < 5; i++ {
			cal, err := t.perIteration(ctx, 0, calN)
			if err != nil {
				return Timing{}, fmt.Errorf("measure: calibration: %w", err)
			}
			ref, err := t.perIteration(ctx, 1, t.refIters)
			if err != nil {
				return Timing{}, fmt.Errorf("measure: reference: %w", err)
			}
			if c := ref / (cal / calibrationLength); c > 0 {
				t.noteReference(c)
			}
		}
	}
	n, err := t.iterations(ctx, k+firstKernel)
	if err != nil {
		return Timing{}, err
	}
	m := Timing{Iterations: n}
	var tpcs []float64
	var countSamples [][]float64
	// Each sample is bracketed by calibrations, the one after a sample
	// serving as the one before the next, and the faster of the two
	// counts: a disturbance only ever slows the chain down, and one slowed
	// calibration would make the sample look too fast (it did: vaddps at
	// 0.37 cycles under load).
	prev := math.NaN()
	calibrate := func() (float64, error) {
		cal, err := t.perIteration(ctx, 0, calN)
		if err != nil {
			return 0, fmt.Errorf("measure: calibration: %w", err)
		}
		prev = cal
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
		after, err := calibrate()
		if err != nil {
			return 0, err
		}
		tpc := min(before, after) / calibrationLength
		tpcs = append(tpcs, tpc)
		return v / tpc, nil
	}
	for len(m.Samples) < max(t.Samples, 1) {
		v, err := sample()
		if err != nil {
			return Timing{}, err
		}
		m.Samples = append(m.Samples, v)
	}
	// Re-measure outliers: samples far from the median (preemption shows
	// up as huge values, and a disturbed T(N) as a too small difference).
	for round := 0; round < 3; round++ {
		med := median(m.Samples)
		redo := false
		for i, v := range m.Samples {
			if v > 1.5*med || v < med/1.5 {
				nv, err := sample()
				if err != nil {
					return Timing{}, err
				}
				m.Samples[i] = nv
				m.Remeasured++
				redo = true
			}
		}
		if !redo {
			break
		}
	}
	m.Median = median(m.Samples)
	m.Min, m.Max = slices.Min(m.Samples), slices.Max(m.Samples)
	m.Cycles = m.Median
	dev := make([]float64, len(m.Samples))
	for i, v := range m.Samples {
		dev[i] = math.Abs(v - m.Median)
	}
	if m.Median > 0 {
		m.Dispersion = median(dev) / m.Median
	}
	m.TicksPerCycle = median(tpcs)
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
	// The reference kernel, timed once: its slow-down says whether
	// another tenant used the core's ports meanwhile (reported; the passes
	// of Hardware make the value robust to it).
	ref, err := t.perIteration(ctx, 1, t.refIters)
	if err != nil {
		return Timing{}, fmt.Errorf("measure: reference: %w", err)
	}
	if refCycles := ref / m.TicksPerCycle; refCycles > 0 {
		m.Contention = t.noteReference(refCycles)
	}
	return m, nil
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

// perIteration returns T(2n) − T(n) per iteration in ticks, which cancels
// the fixed cost of a call; each T is the fastest of Repeats timings.
func (t *Timer) perIteration(ctx context.Context, k int, n uint64) (float64, error) {
	v, _, err := t.perIterationCounted(ctx, k, n)
	return v, err
}

// perIterationCounted is perIteration that also returns, when the Runner
// has Counters, C(2n) − C(n) per iteration for each counter, each C the
// smallest of the Repeats runs (like T, a disturbance only adds).
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
	return (float64(slices.Min(r2.Ticks)) - float64(slices.Min(r1.Ticks))) / float64(n), counts, nil
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
