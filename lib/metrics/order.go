package metrics

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Order says how the rows rank by MAPE here and by their reference MAPE: a
// line per ranking, smallest error first, and a line saying whether the
// two orders agree — so that a notebook's text can follow its table rather
// than assume a paper's ranking carries over. Rows without a reference
// MAPE, and rows that failed, are left out of the comparison (and named).
func (c *Comparison) Order() string {
	var rows, left []*Evaluation
	for _, ev := range c.Rows {
		if ev.err != nil || ev.Reference == nil || math.IsNaN(ev.Reference.MAPE) {
			left = append(left, ev)
			continue
		}
		rows = append(rows, ev)
	}
	var b strings.Builder
	if len(rows) < 2 {
		b.WriteString("fewer than two rows with a reference MAPE: no order to compare\n")
	} else {
		here := slices.Clone(rows)
		slices.SortStableFunc(here, func(x, y *Evaluation) int { return cmpFloat(x.Summary.MAPE, y.Summary.MAPE) })
		ref := slices.Clone(rows)
		slices.SortStableFunc(ref, func(x, y *Evaluation) int { return cmpFloat(x.Reference.MAPE, y.Reference.MAPE) })
		line := func(label string, evs []*Evaluation, mape func(*Evaluation) float64) {
			b.WriteString(label)
			for i, ev := range evs {
				if i > 0 {
					b.WriteString(" < ")
				}
				fmt.Fprintf(&b, "%s %.2f %%", ev.name(), mape(ev))
			}
			b.WriteString("\n")
		}
		line("by MAPE here: ", here, func(ev *Evaluation) float64 { return ev.Summary.MAPE })
		line("by the reference MAPE: ", ref, func(ev *Evaluation) float64 { return ev.Reference.MAPE })
		if slices.Equal(here, ref) {
			b.WriteString("the same order as the reference\n")
		} else {
			b.WriteString("not the reference's order\n")
		}
	}
	for _, ev := range left {
		fmt.Fprintf(&b, "not compared (no reference MAPE or no result): %s\n", ev.name())
	}
	return b.String()
}

// cmpFloat orders a and b, NaN last.
func cmpFloat(a, b float64) int {
	switch {
	case math.IsNaN(a) && math.IsNaN(b):
		return 0
	case math.IsNaN(a):
		return 1
	case math.IsNaN(b):
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
