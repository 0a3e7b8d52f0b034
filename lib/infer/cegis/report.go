package cegis

import (
	"fmt"
	"html"
	"strings"
	"time"

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
		r.Config.Encoding, r.Config.Epsilon, len(r.Iterations), portmap.Count(r.Measurements.Len(), "experiment"), largest, state,
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
	var b strings.Builder
	b.WriteString("<p>" + html.EscapeString(r.String()) + "</p><table><tr><th>#</th><th>step</th><th>bound</th><th>findMapping</th><th>findOther</th><th>unbounded</th><th>measured</th><th>cycles</th><th>experiments</th></tr>")
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
	for _, it := range r.Iterations {
		e := ""
		if it.Size > 0 {
			e = it.Experiment.String()
		}
		fmt.Fprintf(&b, "<tr><td>%d</td><td>%s</td><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%.4g</td><td>%d</td></tr>",
			it.Index, it.Step, it.Bound, ms(it.FindMapping), ms(it.FindOther), ms(it.Unbounded), html.EscapeString(e), it.Cycles, it.Measured)
	}
	b.WriteString("</table>")
	return b.String()
}
