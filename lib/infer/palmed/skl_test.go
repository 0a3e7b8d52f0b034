package palmed

import (
	"context"
	"errors"
	"os"
	"strconv"
	"testing"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
)

// TestSkylake runs PALMED on simulated Skylake (the uops.info mapping of
// the PMEvo artifact, exact oracle) and scores the result on PMEvo's
// measured experiments (want MAPE ≤ 12 %, Kendall τ-b ≥ 0.70; the
// uops.info mapping itself has 9.55 % / 0.758) and on random length-5
// experiments of the truth (want MAPE ≤ 3 %). It takes a few minutes:
// set PORTLAB_PALMED_SKL=1 to run it, and PORTLAB_PALMED_NOISE=0.02 for
// measurements with 2 % multiplicative noise (then only reported).
func TestSkylake(t *testing.T) {
	if os.Getenv("PORTLAB_PALMED_SKL") == "" {
		t.Skip("set PORTLAB_PALMED_SKL=1 to run PALMED on simulated Skylake")
	}
	noise := 0.0
	if s := os.Getenv("PORTLAB_PALMED_NOISE"); s != "" {
		var err error
		if noise, err = strconv.ParseFloat(s, 64); err != nil {
			t.Fatalf("PORTLAB_PALMED_NOISE=%q: %v", s, err)
		}
	}
	truth, err := dataset.Mapping("pmevo:SKL/uops_info")
	if err != nil {
		t.Skip(err)
	}
	eval, err := dataset.Experiments("pmevo:SKL/eval_small")
	if err != nil {
		t.Skip(err)
	}
	ctx := context.Background()
	res, err := Infer(ctx, oracle.Simulate(truth, noise, 1), truth.Instructions(), DefaultConfig(), func(s infer.Progress) {
		if s.Done == 0 {
			t.Log(s.Message)
		}
	})
	if res == nil {
		t.Fatal(err)
	}
	t.Log(res)
	if err != nil && !errors.Is(err, ErrNoFit) {
		t.Fatal(err)
	}
	fitErr := err
	ev := metrics.Evaluate(ctx, res.Mapping, eval)
	t.Logf("noise %g: eval_small: %v (%d not predicted)", noise, ev.Summary, len(ev.Failures))
	rnd, _, err := oracle.MeasureAll(ctx, oracle.Simulate(truth, 0, 1), design.Random(truth.Instructions(), 5, 2000, 7), nil)
	if err != nil {
		t.Fatal(err)
	}
	ev2 := metrics.Evaluate(ctx, res.Mapping, rnd)
	t.Logf("noise %g: random length 5: %v (%d not predicted)", noise, ev2.Summary, len(ev2.Failures))
	if noise > 0 {
		return
	}
	if fitErr != nil {
		// Known gap: the alternating LP2 leaves a few core kernels
		// sub-saturated; the accuracy below is what matters here.
		t.Logf("the core did not fit: %v", fitErr)
	}
	if ev.Summary.MAPE > 12 || ev.Summary.KendallTauB < 0.70 || len(ev.Failures) > 0 {
		t.Errorf("eval_small: MAPE %.2f%%, τ-b %.3f, %d unpredicted; want ≤ 12 %%, ≥ 0.70, 0", ev.Summary.MAPE, ev.Summary.KendallTauB, len(ev.Failures))
	}
	if ev2.Summary.MAPE > 3 {
		t.Errorf("random length 5: MAPE %.2f%%, want ≤ 3 %%", ev2.Summary.MAPE)
	}
}
