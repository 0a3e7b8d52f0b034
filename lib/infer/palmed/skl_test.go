package palmed

import (
	"context"
	"os"
	"testing"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
)

// TestSkylake runs PALMED on simulated Skylake (the uops.info mapping of
// the PMEvo artifact) and scores the result on PMEvo's measured
// experiments and on random experiments of the truth. It takes a minute;
// set PORTLAB_PALMED_SKL=1 to run it.
func TestSkylake(t *testing.T) {
	if os.Getenv("PORTLAB_PALMED_SKL") == "" {
		t.Skip("set PORTLAB_PALMED_SKL=1 to run PALMED on simulated Skylake")
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
	cfg := DefaultConfig()
	res, err := Infer(ctx, oracle.Simulate(truth, 0, 1), truth.Instructions(), cfg, func(s infer.Status) { t.Log(s.Message) })
	if res == nil {
		t.Fatal(err)
	}
	t.Log(res)
	if err != nil {
		t.Log(err)
	}
	ev := metrics.Evaluate(ctx, res.Mapping, eval)
	t.Logf("eval_small: %v (%d not predicted)", ev.Summary, len(ev.Failures))
	rnd, _, err := oracle.MeasureAll(ctx, oracle.Simulate(truth, 0, 1), design.Random(truth.Instructions(), 5, 2000, 7), nil)
	if err != nil {
		t.Fatal(err)
	}
	ev2 := metrics.Evaluate(ctx, res.Mapping, rnd)
	t.Logf("random length 5: %v (%d not predicted)", ev2.Summary, len(ev2.Failures))
}
