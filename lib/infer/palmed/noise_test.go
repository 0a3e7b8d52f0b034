package palmed

import (
	"context"
	"math"
	"sync"
	"testing"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// fastOnce answers as inner, except that the first measurement of each
// kernel listed in fast is that many times too fast (a measurement
// disturbed by noise); later ones are exact. It samples afresh, so
// Remeasure applies.
type fastOnce struct {
	inner oracle.Oracle
	fast  map[string]float64
	mu    sync.Mutex
	seen  map[string]int
}

func (f *fastOnce) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	m, err := f.inner.Measure(ctx, e)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.seen[e.Key()]++; f.seen[e.Key()] == 1 && f.fast[e.Key()] > 0 {
		m.Cycles *= f.fast[e.Key()]
	}
	return m, err
}

// twoOnOne is a core problem: basic instructions a and b, each one cycle
// alone, on one shared resource (true loads 1 and 1), kernels a^i·b^j,
// measured by o (the first time). It returns LP2's weights of a and b on
// the one resource.
func twoOnOne(t *testing.T, o oracle.Oracle, cfg Config) (wa, wb float64) {
	t.Helper()
	ctx := context.Background()
	basic := []string{"a", "b"}
	times := map[string]float64{"a": 1, "b": 1}
	r := &run{cfg: cfg, b: newBench(o, nil), res: &Result{}, remeasured: map[string]bool{}}
	var kernels []*coreKernel
	for i := 0; i <= 4; i++ {
		for j := 0; j <= 4; j++ {
			if i+j == 0 {
				continue
			}
			e := single("a").Scale(i).Plus(single("b").Scale(j))
			if i == 0 {
				e = single("b").Scale(j)
			}
			if j == 0 {
				e = single("a").Scale(i)
			}
			if err := r.b.measure(ctx, "test", []portmap.Experiment{e}); err != nil {
				t.Fatal(err)
			}
			c, _ := r.b.get(e)
			kernels = append(kernels, newCoreKernel(Kernel{Experiment: e, Cycles: c}, map[string]int{"a": 0, "b": 1}))
		}
	}
	m, _, err := r.lp2(ctx, basic, []users{3}, kernels, times, nil)
	if err != nil {
		t.Fatal(err)
	}
	for s := range m.res {
		wa, wb = max(wa, m.w[s][0]), max(wb, m.w[s][1])
	}
	return wa, wb
}

// Two kernels measured 20 % too fast (noise): with LP2's hard caps they
// pin the loads of a and b low — the core is wrong — while the penalised
// slack (SlackPenalty 2) exceeds them and fits the loads to the other 22
// kernels, the right core.
func TestSlackPenaltyOutlier(t *testing.T) {
	truth := portmap.MustMapping("one", "0").MustSetUsage("a", "1*p0").MustSetUsage("b", "1*p0")
	fast := map[string]float64{
		single("a").Scale(2).Plus(single("b")).Key(): 0.8,
		single("a").Plus(single("b").Scale(3)).Key(): 0.8,
	}
	cfg := DefaultConfig().Effective(0.02)
	cfg.Remeasure = 0
	hard := cfg
	hard.SlackPenalty = 0
	wa, wb := twoOnOne(t, &fastOnce{inner: oracle.Simulate(truth, 0, 1), fast: fast, seen: map[string]int{}}, hard)
	t.Logf("hard caps: w(a) %.3f, w(b) %.3f", wa, wb)
	if math.Abs(wa-1) < 0.1 && math.Abs(wb-1) < 0.1 {
		t.Errorf("hard caps: w(a) %.3f, w(b) %.3f; the fast kernels should have pinned them below 1", wa, wb)
	}
	wa, wb = twoOnOne(t, &fastOnce{inner: oracle.Simulate(truth, 0, 1), fast: fast, seen: map[string]int{}}, cfg)
	t.Logf("soft caps (λ %g): w(a) %.3f, w(b) %.3f", cfg.SlackPenalty, wa, wb)
	if math.Abs(wa-1) > 0.01 || math.Abs(wb-1) > 0.01 {
		t.Errorf("soft caps: w(a) %.3f, w(b) %.3f, want 1, 1", wa, wb)
	}
}

// The same two too-fast kernels bind LP2's hard caps; re-measuring them
// (Remeasure 4: median of five) gives their true cycles and the right
// core — unless the oracle remembers, when nothing is re-measured.
func TestRemeasureBinding(t *testing.T) {
	truth := portmap.MustMapping("one", "0").MustSetUsage("a", "1*p0").MustSetUsage("b", "1*p0")
	fast := map[string]float64{
		single("a").Scale(2).Plus(single("b")).Key(): 0.8,
		single("a").Plus(single("b").Scale(3)).Key(): 0.8,
	}
	cfg := DefaultConfig().Effective(0.02)
	cfg.SlackPenalty = 0
	o := &fastOnce{inner: oracle.Simulate(truth, 0, 1), fast: fast, seen: map[string]int{}}
	wa, wb := twoOnOne(t, o, cfg)
	t.Logf("hard caps, re-measured: w(a) %.3f, w(b) %.3f", wa, wb)
	if math.Abs(wa-1) > 0.03 || math.Abs(wb-1) > 0.03 {
		t.Errorf("re-measured: w(a) %.3f, w(b) %.3f, want 1, 1", wa, wb)
	}
	for k, n := range o.seen {
		if fast[k] > 0 && n != 1+cfg.Remeasure {
			t.Errorf("%s measured %d times, want %d", k, n, 1+cfg.Remeasure)
		}
	}
	// An oracle that answers a repeat from memory is not asked again.
	o = &fastOnce{inner: oracle.Simulate(truth, 0, 1), fast: fast, seen: map[string]int{}}
	wa, wb = twoOnOne(t, oracle.Wrap(o, oracle.Hooks{Once: true}), cfg)
	for k, n := range o.seen {
		if n != 1 {
			t.Errorf("%s measured %d times by a remembering oracle", k, n)
		}
	}
	if math.Abs(wa-1) < 0.1 && math.Abs(wb-1) < 0.1 {
		t.Errorf("not re-measured: w(a) %.3f, w(b) %.3f; want the fast kernels' pinned loads", wa, wb)
	}
}
