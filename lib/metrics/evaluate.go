package metrics

import (
	"context"
	"errors"
	"fmt"
	"html"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// Evaluation is a predictor compared with measurements: the experiments it
// predicted, their measured and predicted inverse throughputs in the same
// order, the experiments it could not predict with the reasons, and the
// summary metrics over the predicted ones. It renders itself (String,
// HTML, Markdown), heat maps and scatter plots are drawn from it (package
// plots), and Table puts several side by side.
type Evaluation struct {
	// Predictor names what was evaluated, Data what it was compared with.
	Predictor, Data string
	// Experiments, Measured and Predicted hold one entry per predicted
	// experiment, in the order of the data set. Experiments is nil when the
	// evaluation was made from bare numbers (EvaluationOf).
	Experiments         []portmap.Experiment
	Measured, Predicted []float64
	// Failures are the experiments the predictor could not predict (Index
	// is the position in the data set), left out of everything else.
	Failures []portmap.Failure
	// Summary holds the metrics over the predicted experiments; its
	// correlations are NaN when they are undefined (constant predictions).
	Summary Summary
	// Reference, when not nil, holds published numbers for the same
	// comparison (a paper's MAPE, Pearson and Kendall τ-b; NaN where it
	// gives none), shown beside portlab's by Table.
	Reference *Summary

	err error
}

// Evaluate predicts the experiments of set with p and compares the
// predictions with the measurements. Experiments p cannot predict are left
// out and listed in Failures. It never returns nil: when the prediction
// fails as a whole (ctx cancelled, a peer tool missing) or nothing could be
// compared, the problem is kept and reported by Err and by every rendering
// — so that a notebook cell can end in plots.NewHeatmap(metrics.Evaluate(…)).
func Evaluate(ctx context.Context, p oracle.Predictor, set *portmap.ExperimentSet) *Evaluation {
	ev := &Evaluation{Predictor: p.Name()}
	if set == nil || set.Len() == 0 {
		ev.err = fmt.Errorf("metrics: evaluating %s: no measured experiments", ev.Predictor)
		return ev
	}
	if set.Arch != nil {
		ev.Data = set.Arch.Name()
	}
	exps := set.Experiments()
	pred, failures, err := oracle.Predict(ctx, p, exps)
	if err != nil {
		ev.err = fmt.Errorf("metrics: evaluating %s: %w", ev.Predictor, err)
		return ev
	}
	ev.Failures = failures
	for i, m := range set.Measurements {
		if !math.IsNaN(pred[i]) {
			ev.Experiments = append(ev.Experiments, m.Experiment)
			ev.Measured = append(ev.Measured, m.Cycles)
			ev.Predicted = append(ev.Predicted, pred[i])
		}
	}
	ev.summarize()
	return ev
}

// EvaluationOf compares bare numbers: predicted against measured, one pair
// per experiment, named name. Pairs whose prediction is NaN are left out
// as failures.
func EvaluationOf(name string, measured, predicted []float64) *Evaluation {
	ev := &Evaluation{Predictor: name}
	if len(measured) != len(predicted) {
		ev.err = fmt.Errorf("metrics: %s: %w: %d measured values but %d predicted", name, ErrLength, len(measured), len(predicted))
		return ev
	}
	for i := range measured {
		if math.IsNaN(predicted[i]) {
			ev.Failures = append(ev.Failures, portmap.Failure{Index: i, Reason: "no prediction"})
			continue
		}
		ev.Measured = append(ev.Measured, measured[i])
		ev.Predicted = append(ev.Predicted, predicted[i])
	}
	ev.summarize()
	return ev
}

// FailedEvaluation returns the evaluation of a predictor that could not
// be compared at all (the prediction failed as a whole, no data): err is
// reported by Err and by every rendering, as Evaluate does for its own
// failures. Evaluations of other kinds of input (blocks, package sim)
// build on EvaluationOf and this.
func FailedEvaluation(name, data string, err error) *Evaluation {
	if err == nil {
		err = fmt.Errorf("metrics: evaluating %s: failed without a reason", name)
	}
	return &Evaluation{Predictor: name, Data: data, err: err}
}

func (ev *Evaluation) summarize() {
	if len(ev.Measured) == 0 {
		ev.err = fmt.Errorf("metrics: %s predicted none of the %d experiments", ev.Predictor, len(ev.Failures))
		if len(ev.Failures) > 0 {
			ev.err = fmt.Errorf("%w (first: %s)", ev.err, ev.Failures[0])
		}
		return
	}
	s, err := Summarize(ev.Measured, ev.Predicted)
	if err != nil && !errors.Is(err, ErrConstant) {
		ev.err = fmt.Errorf("metrics: %s: %w", ev.Predictor, err)
		return
	}
	ev.Summary = s
}

// Err returns the error that made the comparison impossible, if any.
func (ev *Evaluation) Err() error { return ev.err }

// Len returns the number of compared experiments.
func (ev *Evaluation) Len() int { return len(ev.Measured) }

// Titled sets the predictor's name as shown, and returns ev.
func (ev *Evaluation) Titled(name string) *Evaluation { ev.Predictor = name; return ev }

// WithReference sets published numbers for the same comparison — MAPE in
// percent, Pearson's r and Kendall's τ-b, NaN for those not given — and
// returns ev.
func (ev *Evaluation) WithReference(mape, pearson, kendall float64) *Evaluation {
	ev.Reference = &Summary{MAPE: mape, MedianAPE: math.NaN(), Pearson: pearson, Spearman: math.NaN(), KendallTauB: kendall}
	return ev
}

// Labels returns a label per compared experiment (its String form), or nil
// when the evaluation was made from bare numbers.
func (ev *Evaluation) Labels() []string {
	if ev.Experiments == nil {
		return nil
	}
	out := make([]string, len(ev.Experiments))
	for i, e := range ev.Experiments {
		out[i] = e.String()
	}
	return out
}

// Row is one compared experiment.
type Row struct {
	Experiment          portmap.Experiment
	Measured, Predicted float64
	APE                 float64 // absolute percentage error, in percent
}

// Worst returns the n compared experiments with the largest absolute
// percentage error, largest first.
func (ev *Evaluation) Worst(n int) []Row {
	rows := make([]Row, len(ev.Measured))
	for i := range rows {
		rows[i] = Row{Measured: ev.Measured[i], Predicted: ev.Predicted[i],
			APE: math.Abs(ev.Predicted[i]-ev.Measured[i]) / ev.Measured[i] * 100}
		if ev.Experiments != nil {
			rows[i].Experiment = ev.Experiments[i]
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].APE > rows[j].APE })
	return rows[:min(n, len(rows))]
}

// name returns the predictor's name with the data set's.
func (ev *Evaluation) name() string {
	if ev.Data != "" {
		return ev.Predictor + " on " + ev.Data
	}
	return ev.Predictor
}

// leftOut describes the failures, e.g. "3 left out; first: …".
func (ev *Evaluation) leftOut() string {
	if len(ev.Failures) == 0 {
		return ""
	}
	return fmt.Sprintf("%d left out; first: %s", len(ev.Failures), ev.Failures[0])
}

// String returns the evaluation on one line, e.g.
//
//	uops_info on SKL: n=2000 MAPE=9.55% median APE=1.64% Pearson=0.913 Spearman=0.874 Kendall τ-b=0.758
//
// followed by the number of experiments left out, or the error.
func (ev *Evaluation) String() string {
	if ev.err != nil {
		return ev.name() + ": error: " + ev.err.Error()
	}
	s := ev.name() + ": " + ev.Summary.String()
	if lo := ev.leftOut(); lo != "" {
		s += " (" + lo + ")"
	}
	return s
}

// HTML returns the evaluation as a small table captioned with the
// predictor and data set, for a notebook.
func (ev *Evaluation) HTML() string { return Table(ev).HTML() }

// Markdown returns the evaluation as a Markdown table.
func (ev *Evaluation) Markdown() string { return Table(ev).Markdown() }

// Comparison is several evaluations side by side, one row each: the
// table of a paper's evaluation section. Build it with Table.
type Comparison struct {
	Rows []*Evaluation
	// LeftOutBelow moves the number of experiments each row left out
	// from its n column ("2000 (5 left out)") to a line of its own under
	// the table (String only), with the first reason.
	LeftOutBelow bool
}

// Table returns the comparison of evals, one row each, in order. When any
// has a Reference, its columns show the reference value beside portlab's.
func Table(evals ...*Evaluation) *Comparison { return &Comparison{Rows: evals} }

func (c *Comparison) hasReference() bool {
	for _, ev := range c.Rows {
		if ev.Reference != nil {
			return true
		}
	}
	return false
}

// cells returns the header and the rows of the table as text.
func (c *Comparison) cells() ([]string, [][]string) {
	ref := c.hasReference()
	head := []string{"predictor", "n", "MAPE", "median APE", "Pearson", "Kendall τ-b"}
	if ref {
		head = []string{"predictor", "n", "MAPE (ref.)", "MAPE", "median APE", "Pearson (ref.)", "Pearson", "Kendall τ-b (ref.)", "Kendall τ-b"}
	}
	var rows [][]string
	for _, ev := range c.Rows {
		n := strconv.Itoa(ev.Len())
		if len(ev.Failures) > 0 && !c.LeftOutBelow {
			n += fmt.Sprintf(" (%d left out)", len(ev.Failures))
		}
		if ev.err != nil {
			row := []string{ev.name(), n, "error: " + ev.err.Error()}
			for len(row) < len(head) {
				row = append(row, "")
			}
			rows = append(rows, row)
			continue
		}
		s := ev.Summary
		refOf := func(v float64, f func(float64) string) string {
			if ev.Reference == nil || math.IsNaN(v) {
				return "—"
			}
			return f(v)
		}
		if ref {
			var r Summary
			if ev.Reference != nil {
				r = *ev.Reference
			}
			rows = append(rows, []string{ev.name(), n, refOf(r.MAPE, pct), pct(s.MAPE), pct(s.MedianAPE),
				refOf(r.Pearson, corr), corr(s.Pearson), refOf(r.KendallTauB, corr), corr(s.KendallTauB)})
		} else {
			rows = append(rows, []string{ev.name(), n, pct(s.MAPE), pct(s.MedianAPE), corr(s.Pearson), corr(s.KendallTauB)})
		}
	}
	return head, rows
}

// String returns the table as aligned text.
func (c *Comparison) String() string {
	head, rows := c.cells()
	width := make([]int, len(head))
	for _, r := range append([][]string{head}, rows...) {
		for i, cell := range r {
			width[i] = max(width[i], len([]rune(cell)))
		}
	}
	var b strings.Builder
	for _, r := range append([][]string{head}, rows...) {
		for i, cell := range r {
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(cell)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", width[i]-len([]rune(cell))))
			}
		}
		b.WriteString("\n")
	}
	if c.LeftOutBelow {
		for _, ev := range c.Rows {
			if len(ev.Failures) == 0 {
				continue
			}
			f := ev.Failures[0]
			why := f.Reason
			if f.Insn != "" {
				why = fmt.Sprintf("instruction %q", f.Insn)
			}
			fmt.Fprintf(&b, "%s: %d of %d experiments left out (not predicted; first: %s)\n",
				ev.name(), len(ev.Failures), len(ev.Failures)+ev.Len(), why)
		}
	}
	return b.String()
}

// Markdown returns the table in Markdown, numbers right-aligned.
func (c *Comparison) Markdown() string {
	head, rows := c.cells()
	var b strings.Builder
	b.WriteString("| " + strings.Join(head, " | ") + " |\n|---|")
	for range head[1:] {
		b.WriteString("---:|")
	}
	for _, r := range rows {
		for i := range r {
			r[i] = strings.ReplaceAll(r[i], "|", `\|`)
		}
		b.WriteString("\n| " + strings.Join(r, " | ") + " |")
	}
	return b.String()
}

// HTML returns the table in HTML, numbers right-aligned.
func (c *Comparison) HTML() string {
	head, rows := c.cells()
	var b strings.Builder
	b.WriteString("<table class=\"metrics-comparison\">\n<thead><tr>")
	for _, h := range head {
		b.WriteString("<th>" + html.EscapeString(h) + "</th>")
	}
	b.WriteString("</tr></thead>\n<tbody>")
	for _, r := range rows {
		b.WriteString("<tr>")
		for i, cell := range r {
			if i == 0 {
				b.WriteString("<td style=\"text-align:left\">" + html.EscapeString(cell) + "</td>")
			} else {
				b.WriteString("<td style=\"text-align:right\">" + html.EscapeString(cell) + "</td>")
			}
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>")
	return b.String()
}
