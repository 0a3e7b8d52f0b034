package palmed

import (
	"context"
	"math"
	"testing"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// Effective measures the core kernels often enough for their medians to
// reach CoreNoise, and re-measures binding kernels in proportion; small
// noise keeps CoreRepeats, exact measurements change nothing, and
// MaxCoreRepeats bounds the count.
func TestEffectiveCoreNoise(t *testing.T) {
	def := DefaultConfig()
	for _, c := range []struct {
		sigma                 float64
		coreRepeats, remeasur int
	}{
		{0, def.CoreRepeats, def.Remeasure},
		{0.005, def.CoreRepeats, def.Remeasure}, // n = 3 < 9
		{0.01, 10, 5},                           // ⌈π/2·6.25⌉ = 10; ⌈4·10/9⌉ = 5
		{0.02, 40, 18},                          // ⌈π/2·25⌉ = 40; ⌈4·40/9⌉ = 18
		{0.05, 64, 29},                          // 246, at most 64; ⌈4·64/9⌉ = 29
	} {
		got := def.Effective(c.sigma)
		if got.CoreRepeats != c.coreRepeats || got.Remeasure != c.remeasur {
			t.Errorf("σ %g: CoreRepeats %d, Remeasure %d; want %d, %d", c.sigma, got.CoreRepeats, got.Remeasure, c.coreRepeats, c.remeasur)
		}
		// The median of CoreRepeats measurements is within CoreNoise,
		// unless MaxCoreRepeats stopped it.
		if c.sigma > 0 && got.CoreRepeats < def.MaxCoreRepeats {
			if se := c.sigma * math.Sqrt(math.Pi/2/float64(got.CoreRepeats)); se > def.CoreNoise*(1+1e-9) {
				t.Errorf("σ %g: median of %d has standard error %.4g > CoreNoise %g", c.sigma, got.CoreRepeats, se, def.CoreNoise)
			}
		}
	}
	off := def
	off.CoreNoise = 0
	if got := off.Effective(0.02); got.CoreRepeats != def.CoreRepeats || got.Remeasure != def.Remeasure {
		t.Errorf("CoreNoise 0: CoreRepeats %d, Remeasure %d; want them as given (%d, %d)", got.CoreRepeats, got.Remeasure, def.CoreRepeats, def.Remeasure)
	}
}

// A kernel whose median of several measurements the shape over-predicts
// (every measurement 20 % below what one shared resource allows: no noise
// explains it) is not exceeded beyond the noise of its median; a kernel
// measured once may still be exceeded by any amount
// (TestSlackPenaltyOutlier).
func TestOvershootOfMedian(t *testing.T) {
	truth := portmap.MustMapping("one", "0").MustSetUsage("a", "1*p0").MustSetUsage("b", "1*p0")
	ab := single("a").Scale(2).Plus(single("b"))
	cfg := DefaultConfig().Effective(0.02)
	cfg.Remeasure = 0
	for _, n := range []int{1, 9} {
		o := oracle.Wrap(oracle.Simulate(truth, 0, 1), oracle.Hooks{Answer: func(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error, bool) {
			if e.Key() != ab.Key() {
				return portmap.Measurement{}, nil, false
			}
			return portmap.Measurement{Experiment: e, Cycles: 0.8 * 3}, nil, true
		}})
		r := &run{cfg: cfg, b: newBench(o, nil), res: &Result{}, remeasured: map[string]bool{}}
		r.b.repeats = n
		idx := map[string]int{"a": 0, "b": 1}
		var kernels []*coreKernel
		for _, e := range []portmap.Experiment{single("a"), single("b"), ab, single("a").Plus(single("b")), single("a").Plus(single("b").Scale(2))} {
			if err := r.b.measure(context.Background(), "test", []portmap.Experiment{e}); err != nil {
				t.Fatal(err)
			}
			c, _ := r.b.get(e)
			kernels = append(kernels, newCoreKernel(Kernel{Experiment: e, Cycles: c}, idx))
		}
		m, _, err := r.lp2(context.Background(), []string{"a", "b"}, []users{3}, kernels, map[string]float64{"a": 1, "b": 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		pred, _ := m.predict(kernels[2])
		over := pred/kernels[2].Cycles - 1
		limit := cfg.NoiseWidth * cfg.Noise * math.Sqrt(math.Pi/2/float64(n))
		t.Logf("%d measurements: %v loaded %.1f %% beyond its median", n, ab, 100*over)
		switch {
		case n == 1 && over < 0.2:
			t.Errorf("measured once: %v loaded %.1f %% beyond its cycles; the penalty should let the other kernels set the loads (25 %%)", ab, 100*over)
		case n > 1 && over > limit+1e-6:
			t.Errorf("median of %d: %v loaded %.2f %% beyond it, more than the %.2f %% its noise explains", n, ab, 100*over, 100*limit)
		}
	}
}
