package palmed

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// TestNoiseSweep runs PALMED on simulated Skylake (pmevo:SKL/uops_info)
// with relative measurement noise σ ∈ {0, 0.5 %, 1 %, 2 %, 5 %}
// (oracle.Simulate, seed 1, default Config: σ estimated from repeated
// singletons) and prints, per σ, the MAPE and Kendall τ-b of the result on
// 2,000 random length-5 experiments of the exact truth (design.Random seed
// 7) and on PMEvo's measured eval_small. It takes a few minutes per point:
// set PORTLAB_PALMED_SWEEP=1 to run it; PORTLAB_PALMED_SIGMAS=0,0.02
// picks the points, PORTLAB_PALMED_SWEEP_OUT=FILE appends the table rows
// to FILE, PORTLAB_PALMED_SWEEP_MAPPINGS=DIR writes each run's mapping to
// DIR/sigmaσ-seedN.resources.json. "kernels" counts the distinct kernels
// measured, "measurements" every measurement, repeats included.
// bench/results/palmed-noise-sweep-*.txt holds its output.
func TestNoiseSweep(t *testing.T) {
	if os.Getenv("PORTLAB_PALMED_SWEEP") == "" {
		t.Skip("set PORTLAB_PALMED_SWEEP=1 to sweep PALMED over noise on simulated Skylake")
	}
	sigmas := []float64{0, 0.005, 0.01, 0.02, 0.05}
	if s := os.Getenv("PORTLAB_PALMED_SIGMAS"); s != "" {
		sigmas = nil
		for _, f := range strings.Split(s, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil {
				t.Fatalf("PORTLAB_PALMED_SIGMAS=%q: %v", s, err)
			}
			sigmas = append(sigmas, v)
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
	rnd, _, err := oracle.MeasureAll(ctx, oracle.Simulate(truth, 0, 1), design.Random(truth.Instructions(), 5, 2000, 7), nil)
	if err != nil {
		t.Fatal(err)
	}
	seeds := []uint64{1}
	if s := os.Getenv("PORTLAB_PALMED_SEEDS"); s != "" {
		seeds = nil
		for _, f := range strings.Split(s, ",") {
			v, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
			if err != nil {
				t.Fatalf("PORTLAB_PALMED_SEEDS=%q: %v", s, err)
			}
			seeds = append(seeds, v)
		}
	}
	var out *os.File
	if p := os.Getenv("PORTLAB_PALMED_SWEEP_OUT"); p != "" {
		if out, err = os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err != nil {
			t.Fatal(err)
		}
		defer out.Close()
	}
	emit := func(line string) {
		t.Log(line)
		if out != nil {
			fmt.Fprintln(out, line)
		}
	}
	singles, _, err := oracle.MeasureAll(ctx, oracle.Simulate(truth, 0, 1), design.Singletons(truth.Instructions()), nil)
	if err != nil {
		t.Fatal(err)
	}
	emit("| σ | seed | σ estimated | random-5 MAPE % | random-5 bias % | random-5 τ-b | core-5 MAPE % | core-5 bias % | alone MAPE % | eval_small MAPE % | eval_small τ-b | resources | kernels | measurements | misfits | time |")
	emit("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, sigma := range sigmas {
		for _, seed := range seeds {
			start := time.Now()
			o := oracle.Count(oracle.Simulate(truth, sigma, seed))
			res, err := Infer(ctx, o, truth.Instructions(), DefaultConfig(), nil)
			if res == nil {
				t.Fatalf("σ %g: %v", sigma, err)
			}
			if err != nil && !errors.Is(err, ErrNoFit) {
				t.Fatalf("σ %g: %v", sigma, err)
			}
			if dir := os.Getenv("PORTLAB_PALMED_SWEEP_MAPPINGS"); dir != "" {
				name := fmt.Sprintf("%s/sigma%g-seed%d.resources.json", dir, sigma, seed)
				if err := res.Mapping.WriteFile(name, true); err != nil {
					t.Fatal(err)
				}
			}
			ev := metrics.Evaluate(ctx, res.Mapping, rnd)
			ev2 := metrics.Evaluate(ctx, res.Mapping, eval)
			// The core alone: random length-5 experiments of the basic
			// instructions; and every instruction alone.
			core, _, err := oracle.MeasureAll(ctx, oracle.Simulate(truth, 0, 1), design.Random(res.Basic, 5, 500, 7), nil)
			if err != nil {
				t.Fatal(err)
			}
			ev3 := metrics.Evaluate(ctx, res.Mapping, core)
			ev4 := metrics.Evaluate(ctx, res.Mapping, singles)
			emit(fmt.Sprintf("| %.3g %% | %d | %.3g %% | %.2f | %+.2f | %.3f | %.2f | %+.2f | %.2f | %.2f | %.3f | %d | %d | %d | %d | %s |",
				100*sigma, seed, 100*res.Config.Noise, ev.Summary.MAPE, bias(ctx, res, rnd), ev.Summary.KendallTauB,
				ev3.Summary.MAPE, bias(ctx, res, core), ev4.Summary.MAPE, ev2.Summary.MAPE, ev2.Summary.KendallTauB,
				res.Mapping.NumResources(), res.Benchmarks, o.Queries(), len(res.Misfits), time.Since(start).Round(time.Second)))
		}
	}
}

// bias returns the mean signed relative error (predicted − measured) /
// measured of res's mapping on set, in percent: negative when the
// mapping predicts too fast (loads held low).
func bias(ctx context.Context, res *Result, set *portmap.ExperimentSet) float64 {
	sum, n := 0.0, 0
	for _, m := range set.Measurements {
		p, _, err := res.Mapping.Cycles(m.Experiment)
		if err != nil || !(m.Cycles > 0) {
			continue
		}
		sum += (p - m.Cycles) / m.Cycles
		n++
	}
	if n == 0 {
		return 0
	}
	return 100 * sum / float64(n)
}
