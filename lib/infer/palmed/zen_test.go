package palmed

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
)

// TestZenPlusLike runs PALMED on the simulated Zen+-like machine
// (portlab:zenplus-like, exact oracle, front end of 5 instructions per
// cycle) and reports the random length-5 MAPE and τ-b (2,000 experiments,
// design.Random seed 13 as notebook 13) of the mapping as it comes, with
// the machine's front end added (WithFrontEnd, as infer's Method does when
// the problem states the peak IPC), and of the length-1…2 kernels. Set
// PORTLAB_PALMED_ZEN=1 to run it (minutes).
func TestZenPlusLike(t *testing.T) {
	if os.Getenv("PORTLAB_PALMED_ZEN") == "" {
		t.Skip("set PORTLAB_PALMED_ZEN=1 to run PALMED on portlab:zenplus-like")
	}
	m, err := machine.Lookup("portlab:zenplus-like")
	if err != nil {
		t.Skip(err)
	}
	ctx := context.Background()
	insns := m.Mapping.Instructions()
	res, err := Infer(ctx, m.Oracle(0, 1), insns, DefaultConfig(), nil)
	if res == nil {
		t.Fatal(err)
	}
	if err != nil && !errors.Is(err, ErrNoFit) {
		t.Fatal(err)
	}
	t.Log(res)
	rnd, _, err := oracle.MeasureAll(ctx, m.Oracle(0, 1), design.Random(insns, 5, 2000, 13), nil)
	if err != nil {
		t.Fatal(err)
	}
	ev := metrics.Evaluate(ctx, res.Mapping, rnd)
	t.Logf("random length 5, mapping as it comes: %v, bias %+.2f%% (%d not predicted)", ev.Summary, bias(ctx, res, rnd), len(ev.Failures))
	fe := WithFrontEnd(res.Mapping, m.InstructionsPerCycle)
	ev = metrics.Evaluate(ctx, fe, rnd)
	t.Logf("random length 5, with the front end (%g IPC): %v (%d not predicted)", m.InstructionsPerCycle, ev.Summary, len(ev.Failures))
	// Where the error is: experiments with the truth's front end binding
	// or not.
	exact := m.Oracle(0, 1)
	plain := oracle.Simulate(m.Mapping, 0, 1)
	var feBound, portBound int
	var feErr, portErr float64
	for _, x := range rnd.Measurements {
		p, _, err := res.Mapping.Cycles(x.Experiment)
		if err != nil {
			continue
		}
		c, _ := oracle.Cycles(ctx, plain, x.Experiment)
		withFE, _ := oracle.Cycles(ctx, exact, x.Experiment)
		rel := (p - withFE) / withFE
		if rel < 0 {
			rel = -rel
		}
		if withFE > c*(1+1e-9) {
			feBound++
			feErr += rel
		} else {
			portBound++
			portErr += rel
		}
	}
	t.Logf("front end binding in %d of %d experiments (MAPE there %.2f%%), ports in %d (MAPE %.2f%%)",
		feBound, feBound+portBound, 100*feErr/max(1, float64(feBound)), portBound, 100*portErr/max(1, float64(portBound)))
}
