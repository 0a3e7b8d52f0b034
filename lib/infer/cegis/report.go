package cegis

import (
	"fmt"
	"time"

	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/portmap"
)

// String summarises the run: the search, the measurements and where the
// time went.
func (r *Result) String() string {
	state := "unique: no consistent mapping predicts differently on any experiment"
	if !r.Complete {
		state = "not proven unique"
		if r.Config.MaxSize > 0 {
			state = fmt.Sprintf("unique among experiments of at most %d instructions", r.Config.MaxSize)
		}
	}
	largest := 0
	for _, m := range r.Measurements.Measurements {
		largest = max(largest, m.Experiment.Len())
	}
	return fmt.Sprintf("%s encoding, ε = %g: %d iterations, %s measured (largest %d instructions); %s\n"+
		"time %v: findMapping %v, findOtherMapping %v bounded + %v unbounded, simulation %v, measuring %v",
		r.Config.Encoding, r.Epsilon, len(r.Iterations), portmap.Count(r.Measurements.Len(), "experiment"), largest, state,
		r.Elapsed.Round(time.Millisecond), r.FindMapping.Round(time.Millisecond), r.FindOther.Round(time.Millisecond),
		r.Unbounded.Round(time.Millisecond), r.Simulation.Round(time.Millisecond), r.Measuring.Round(time.Millisecond)) + r.validation()
}

// validation describes the validation rounds, if any.
func (r *Result) validation() string {
	if r.Config.Validation == 0 {
		return ", no validation"
	}
	return fmt.Sprintf(", validation (%d random experiments per round) %v", r.Config.Validation, r.Validating.Round(time.Millisecond))
}

// HTML returns the summary and the iterations as a table for a notebook.
func (r *Result) HTML() string {
	var h infer.HTML
	h.Para(r.String())
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
	h.Table("", []string{"#", "step", "bound", "findMapping", "findOther", "unbounded", "measured", "cycles", "experiments"}, func(t *infer.Table) {
		for _, it := range r.Iterations {
			e := ""
			if it.Size > 0 {
				e = it.Experiment.String()
			}
			t.Row(fmt.Sprint(it.Index), it.Step, fmt.Sprint(it.Bound), ms(it.FindMapping), ms(it.FindOther), ms(it.Unbounded), e, fmt.Sprintf("%.4g", it.Cycles), fmt.Sprint(it.Measured))
		}
	})
	return h.String()
}

// WriteFiles writes no files of its own: the report's JSON
// (PREFIX.report.json) is written by infer.Result.WriteFiles.
func (r *Result) WriteFiles(prefix string) ([]string, error) { return nil, nil }
