package compare

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/metrics"
)

// Evaluations returns the rows' evaluations that have metrics, in row
// order: for metrics.Table and heat maps (plots.NewHeatmap).
func (t *Table) Evaluations() []*metrics.Evaluation {
	var out []*metrics.Evaluation
	for _, r := range t.Rows {
		if r.OK() {
			out = append(out, r.Eval)
		}
	}
	return out
}

// Row returns the row of the method labelled label, or nil.
func (t *Table) Row(label string) *Row {
	for _, r := range t.Rows {
		if r.Method == label {
			return r
		}
	}
	return nil
}

func (t *Table) hasReference() bool {
	for _, r := range t.Rows {
		if r.OK() && r.Eval.Reference != nil {
			return true
		}
	}
	return false
}

// cells returns the header and rows of the table as text, and the notes
// below it (each row's reason, note and held-out set where it differs).
func (t *Table) cells() (head []string, rows [][]string, notes []string) {
	head = []string{"method", "forms", "queries", "stored", "time", "budget", "n", "MAPE", "Kendall τ-b", "Pearson"}
	ref := t.hasReference()
	if ref {
		head = append(head, "ref. MAPE", "ref. τ-b")
	}
	for _, r := range t.Rows {
		row := []string{r.Method, strconv.Itoa(r.Forms), "—", "—", "—", r.Budget, "—", "—", "—", "—"}
		if r.Result != nil {
			row[2] = strconv.Itoa(r.Result.Queries)
			row[3] = strconv.Itoa(r.Result.Data)
			row[4] = round(r.Result.Elapsed).String()
		}
		switch {
		case r.OK():
			s := r.Eval.Summary
			row[6] = strconv.Itoa(s.N)
			if len(r.Eval.Failures) > 0 {
				row[6] += fmt.Sprintf(" (%d not predicted)", len(r.Eval.Failures))
			}
			row[7], row[8], row[9] = pct(s.MAPE), corr(s.KendallTauB), corr(s.Pearson)
		case r.Result == nil && r.Err != nil:
			// A limit that stopped the run before any result is said
			// as such; any other error kept the method from running.
			if st := infer.StatusOf(r.Err); st == infer.QueryLimit || st == infer.TimeLimit {
				row[5] = "no result: " + r.Budget
			} else {
				row[5] = "not run"
			}
			notes = append(notes, fmt.Sprintf("%s: %v", r.Method, r.Err))
		case r.Eval != nil && r.Eval.Err() != nil:
			notes = append(notes, fmt.Sprintf("%s: %v", r.Method, r.Eval.Err()))
		}
		if r.Result != nil && r.Err != nil {
			notes = append(notes, fmt.Sprintf("%s ended with: %v", r.Method, r.Err))
		}
		if ref {
			row = append(row, "—", "—")
			if r.OK() && r.Eval.Reference != nil {
				row[len(row)-2], row[len(row)-1] = pct(r.Eval.Reference.MAPE), corr(r.Eval.Reference.KendallTauB)
			}
		}
		if r.Note != "" {
			notes = append(notes, r.Method+": "+r.Note)
		}
		if r.Result != nil && r.HeldOut != t.HeldOut {
			notes = append(notes, fmt.Sprintf("%s: evaluated on %s", r.Method, r.HeldOut))
		}
		rows = append(rows, row)
	}
	return head, rows, notes
}

// round rounds a run's time for display: to 0.1 s below a minute, to
// seconds above.
func round(d time.Duration) time.Duration {
	if d < time.Minute {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}

func pct(v float64) string {
	if math.IsNaN(v) {
		return "undefined"
	}
	return strconv.FormatFloat(v, 'f', 2, 64) + " %"
}

func corr(v float64) string {
	if math.IsNaN(v) {
		return "undefined"
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

// String returns the table as aligned text: a title line (oracle, budget,
// held-out set), one line per method, the notes, and the disagreements.
func (t *Table) String() string {
	head, rows, notes := t.cells()
	var b strings.Builder
	fmt.Fprintf(&b, "%s — budget %s — evaluated on %s\n", t.Oracle, t.Budget, t.HeldOut)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, r := range append([][]string{head}, rows...) {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
	for _, n := range notes {
		b.WriteString("  " + n + "\n")
	}
	b.WriteString(t.DisagreementsString(10))
	return b.String()
}

// DisagreementsString lists the first n disagreements (all when n ≤ 0),
// one line each: the instruction, the experiment that tells the methods
// apart, each method's prediction and the truth's.
func (t *Table) DisagreementsString(n int) string {
	ds := t.Disagreements
	if n > 0 && len(ds) > n {
		ds = ds[:n]
	}
	var b strings.Builder
	if len(t.Disagreements) == 0 {
		b.WriteString("no instruction on which the methods with a result disagree by more than 2 %\n")
		return b.String()
	}
	fmt.Fprintf(&b, "%d instructions on which the methods disagree by more than 2 %% (the first %d):\n", len(t.Disagreements), len(ds))
	for _, d := range ds {
		fmt.Fprintf(&b, "  %s\n    %v: %s\n", d.Insn, d.Experiment, d.predictions())
	}
	return b.String()
}

// predictions formats d's predictions, e.g. "pmevo 1.00, palmed 1.25;
// truth 1.00 (spread 25 %)".
func (d Disagreement) predictions() string {
	var parts []string
	for _, p := range d.Predictions {
		if math.IsNaN(p.Cycles) {
			parts = append(parts, p.Method+" —")
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %.3g", p.Method, p.Cycles))
	}
	s := strings.Join(parts, ", ")
	if !math.IsNaN(d.Truth) {
		s += fmt.Sprintf("; truth %.3g", d.Truth)
	}
	return s + fmt.Sprintf(" (spread %.0f %%)", 100*d.Spread)
}

// HTML returns the table in HTML: the title, the rows, the notes and the
// first ten disagreements.
func (t *Table) HTML() string {
	head, rows, notes := t.cells()
	var b strings.Builder
	fmt.Fprintf(&b, "<p><b>%s</b> — budget %s — evaluated on %s</p>\n", html.EscapeString(t.Oracle), html.EscapeString(t.Budget.String()), html.EscapeString(t.HeldOut))
	b.WriteString("<table class=\"compare-side-by-side\">\n<thead><tr>")
	for _, h := range head {
		b.WriteString("<th>" + html.EscapeString(h) + "</th>")
	}
	b.WriteString("</tr></thead>\n<tbody>")
	for _, r := range rows {
		b.WriteString("<tr>")
		for i, c := range r {
			align := "right"
			if i == 0 || i == 5 {
				align = "left"
			}
			fmt.Fprintf(&b, "<td style=\"text-align:%s\">%s</td>", align, html.EscapeString(c))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>\n")
	if len(notes) > 0 {
		b.WriteString("<ul>")
		for _, n := range notes {
			b.WriteString("<li>" + html.EscapeString(n) + "</li>")
		}
		b.WriteString("</ul>\n")
	}
	b.WriteString("<pre>" + html.EscapeString(t.DisagreementsString(10)) + "</pre>")
	return b.String()
}
