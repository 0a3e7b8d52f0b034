package measure

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// batchRecorder measures batches with a simulation and records their
// sizes and what it was told to prepare.
type batchRecorder struct {
	oracle.Oracle
	batches  []int
	alone    int
	prepared int
}

func (b *batchRecorder) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	b.alone++
	return b.Oracle.Measure(ctx, e)
}

func (b *batchRecorder) MeasureBatch(ctx context.Context, exps []portmap.Experiment, done func(int, portmap.Measurement, error)) error {
	b.batches = append(b.batches, len(exps))
	for i, e := range exps {
		m, err := b.Oracle.Measure(ctx, e)
		done(i, m, err)
	}
	return nil
}

func (b *batchRecorder) Prepare(ctx context.Context, exps []portmap.Experiment) error {
	b.prepared += len(exps)
	return nil
}

// TestCampaignRemembers: a campaign answers from its file, so a median of
// repeats over it is refused, naming the file; the median belongs below
// it, where its repeats reach the oracle as one batch and the file keeps
// the medians.
func TestCampaignRemembers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.jsonl")
	rec := &batchRecorder{Oracle: oracle.Simulate(toyMapping(), 0.05, 1)}
	rep, err := oracle.Repeat(rec, 5)
	if err != nil {
		t.Fatal(err)
	}
	c := openCampaign(t, path, rep)
	if !oracle.Remembers(c) {
		t.Error("a campaign does not say it remembers")
	}
	if _, err := oracle.Repeat(c, 5); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "from memory") {
		t.Errorf("Repeat over a campaign: %v", err)
	}
	exps := []portmap.Experiment{portmap.NewExperiment("add"), portmap.NewExperiment("mul", "store"), portmap.NewExperiment("add")}
	c.Resettle = -1
	out, err := c.Run(t.Context(), exps, nil)
	if err != nil || out.Set.Len() != 3 {
		t.Fatalf("%v, %v", out, err)
	}
	// The duplicate is measured once: one batch of 2×5 samples.
	if len(rec.batches) != 1 || rec.batches[0] != 10 || rec.alone != 0 || rec.prepared != 3 {
		t.Errorf("batches %v, %d alone, %d prepared; want one batch of 10, the 3 prepared", rec.batches, rec.alone, rec.prepared)
	}
	if c.Measured() != 2 || out.Set.Measurements[0].Cycles != out.Set.Measurements[2].Cycles {
		t.Errorf("measured %d, set %v", c.Measured(), out.Set)
	}
	c.Close()
	// Reopened, the file answers with the medians it kept.
	again := openCampaign(t, path, rep)
	out2, err := again.Run(t.Context(), exps, nil)
	if err != nil || out2.Resumed != 3 || len(rec.batches) != 1 {
		t.Fatalf("resumed %v, %v; batches %v", out2, err, rec.batches)
	}
	for i, m := range out2.Set.Measurements {
		if m.Cycles != out.Set.Measurements[i].Cycles {
			t.Errorf("%d: %v from the file, %v measured", i, m.Cycles, out.Set.Measurements[i].Cycles)
		}
	}
}
