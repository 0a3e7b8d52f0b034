package palmed

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// Kernel is a benchmark of the run: a multiset of independent
// instructions with its measured cycles per iteration and why it was
// measured.
type Kernel struct {
	Experiment portmap.Experiment
	Cycles     float64
	Origin     string // "single", "pair", "a^M b", "enrich", "sat", "K_sat"
}

// IPC returns the kernel's measured instructions per cycle.
func (k Kernel) IPC() float64 { return float64(k.Experiment.Len()) / k.Cycles }

// bench measures kernels with the oracle, once each, and remembers the
// kernels the oracle could not measure.
type bench struct {
	o        oracle.Oracle
	repeats  int                  // measurements per kernel, median kept
	samples  map[string][]float64 // every measurement, with repeats > 1
	cycles   map[string]float64
	failed   map[string]string
	skipped  []portmap.Failure
	progress func(infer.Progress)
	start    time.Time
}

func newBench(o oracle.Oracle, progress func(infer.Progress)) *bench {
	return &bench{o: o, repeats: 1, cycles: map[string]float64{}, samples: map[string][]float64{}, failed: map[string]string{}, progress: progress, start: time.Now()}
}

// measure measures the kernels of exps not measured yet. A kernel the
// oracle fails on is recorded as skipped; only a cancelled context or an
// oracle failing as a whole is an error.
func (b *bench) measure(ctx context.Context, stage string, exps []portmap.Experiment) error {
	var todo []portmap.Experiment
	seen := map[string]bool{}
	for _, e := range exps {
		k := e.Key()
		if _, ok := b.cycles[k]; ok || seen[k] {
			continue
		}
		if _, ok := b.failed[k]; ok {
			continue
		}
		seen[k] = true
		todo = append(todo, e)
	}
	if len(todo) == 0 {
		return nil
	}
	return b.measureTimes(ctx, stage, todo, b.repeats)
}

// measureTimes measures each of todo n times (consecutively) and keeps
// the median of each.
func (b *bench) measureTimes(ctx context.Context, stage string, todo []portmap.Experiment, n int) error {
	list := todo
	if n > 1 {
		list = make([]portmap.Experiment, 0, n*len(todo))
		for _, e := range todo {
			for range n {
				list = append(list, e)
			}
		}
	}
	set, failures, err := oracle.MeasureAll(ctx, b.o, list, func(p oracle.Progress) {
		if b.progress != nil && (p.Done%256 == 0 || p.Done == p.Total) {
			b.progress(infer.Progress{Stage: stage, Done: p.Done, Total: p.Total, Elapsed: time.Since(b.start),
				Message: fmt.Sprintf("%s: %d/%d kernels, %d failed", stage, p.Done, p.Total, p.Failed)})
		}
	})
	got := map[string][]float64{}
	for _, m := range set.Measurements {
		k := m.Experiment.Key()
		if _, bad := b.failed[k]; bad {
			continue
		}
		if !(m.Cycles > 0) || math.IsInf(m.Cycles, 0) {
			b.failed[k] = fmt.Sprintf("measured %v cycles", m.Cycles)
			delete(b.cycles, k)
			b.skipped = append(b.skipped, portmap.Failure{Experiment: m.Experiment, Reason: fmt.Sprintf("%s: measured %v cycles", stage, m.Cycles)})
			continue
		}
		got[k] = append(got[k], m.Cycles)
		b.cycles[k] = m.Cycles
	}
	for k, v := range got {
		if _, bad := b.failed[k]; bad {
			continue
		}
		if n > 1 || len(b.samples[k]) > 0 {
			b.samples[k] = append(b.samples[k], v...)
			b.cycles[k] = median(b.samples[k])
		}
	}
	for _, f := range failures {
		if _, bad := b.failed[f.Experiment.Key()]; bad {
			continue
		}
		delete(b.cycles, f.Experiment.Key())
		b.failed[f.Experiment.Key()] = f.Reason
		f.Reason = stage + ": " + f.Reason
		f.Index = -1
		b.skipped = append(b.skipped, f)
	}
	if err != nil {
		return fmt.Errorf("palmed: %s: %w", stage, err)
	}
	return nil
}

// again measures the already measured kernels of exps n more times and
// keeps the median of all their measurements (re-measuring the kernels
// that bind a fit). Kernels not measured or failed are left out.
func (b *bench) again(ctx context.Context, stage string, exps []portmap.Experiment, n int) error {
	var todo []portmap.Experiment
	seen := map[string]bool{}
	for _, e := range exps {
		k := e.Key()
		c, ok := b.cycles[k]
		if !ok || seen[k] || n < 1 {
			continue
		}
		seen[k] = true
		if len(b.samples[k]) == 0 {
			b.samples[k] = []float64{c}
		}
		todo = append(todo, e)
	}
	if len(todo) == 0 {
		return nil
	}
	return b.measureTimes(ctx, stage, todo, n)
}

// median returns the median of v (not modified).
func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// noise estimates the relative standard deviation of one measurement from
// the kernels measured more than once: the pooled variance of the samples
// relative to each kernel's mean. It returns the estimate and the number
// of kernels it rests on.
func (b *bench) noise() (float64, int) {
	ss, dof, n := 0.0, 0, 0
	keys := make([]string, 0, len(b.samples))
	for k := range b.samples {
		keys = append(keys, k)
	}
	sort.Strings(keys) // the same sum in every run
	for _, k := range keys {
		v := b.samples[k]
		if len(v) < 2 {
			continue
		}
		if _, bad := b.failed[k]; bad {
			continue
		}
		mean := 0.0
		for _, x := range v {
			mean += x
		}
		mean /= float64(len(v))
		for _, x := range v {
			ss += (x - mean) * (x - mean) / (mean * mean)
		}
		dof += len(v) - 1
		n++
	}
	if dof == 0 {
		return 0, 0
	}
	return math.Sqrt(ss / float64(dof)), n
}

// get returns the measured cycles of e and whether it was measured.
func (b *bench) get(e portmap.Experiment) (float64, bool) {
	c, ok := b.cycles[e.Key()]
	return c, ok
}

// part is a component of a mixed kernel: Copies (real) copies of Exp.
type part struct {
	Exp    portmap.Experiment
	Copies float64
}

// mix returns Σ n_k·Exp_k with whole n_k ≥ 1 proportional to the ideal
// copies: the smallest scale s ≤ maxScale that puts every s·Copies_k within
// tol (relative) of a whole number, or else the scale with the smallest
// worst error.
func mix(parts []part, tol float64, maxScale int) portmap.Experiment {
	minC := math.Inf(1)
	for _, p := range parts {
		minC = min(minC, p.Copies)
	}
	bestErr, bestS := math.Inf(1), 1.0
	for s := 1; s <= maxScale; s++ {
		// scale so that the smallest part gets s copies
		f := float64(s) / minC
		worst := 0.0
		for _, p := range parts {
			x := f * p.Copies
			n := max(1, math.Round(x))
			worst = max(worst, math.Abs(n-x)/x)
		}
		if worst < bestErr-1e-12 {
			bestErr, bestS = worst, f
		}
		if worst <= tol {
			break
		}
	}
	var e portmap.Experiment
	for _, p := range parts {
		n := int(max(1, math.Round(bestS*p.Copies)))
		e = e.Plus(p.Exp.Scale(n))
	}
	return e
}

func single(insn string) portmap.Experiment { return portmap.NewExperiment(insn) }
