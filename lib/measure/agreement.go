package measure

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/portlab/portlab/lib/portmap"
)

// Agreement is how well two measurements of the same experiments agree:
// the distribution of the relative differences |b/a − 1| over the
// experiments measured in both (and successful in both), with the spread
// and contention the measurements reported.
type Agreement struct {
	N int
	// Median, P90 and Max are quantiles of the relative differences.
	Median, P90, Max float64
	// Spread is the median of the measurements' own Spread (the difference
	// between their two fastest passes); Contention the median and P90 of
	// their contention.
	Spread, Contention, ContentionP90 float64
	// Worst lists the experiments of the largest differences, largest
	// first (at most five).
	Worst []Difference
}

// Difference is one experiment's two values.
type Difference struct {
	Experiment portmap.Experiment
	A, B       float64
}

// Relative returns |B/A − 1|.
func (d Difference) Relative() float64 { return math.Abs(d.B/d.A - 1) }

// CompareRuns compares two runs over the same experiments, restricted to
// the experiments keep accepts (nil: all).
func CompareRuns(a, b *portmap.ExperimentSet, keep func(portmap.Experiment) bool) Agreement {
	second := map[string]portmap.Measurement{}
	for _, m := range b.Measurements {
		second[m.Experiment.Key()] = m
	}
	var diffs []Difference
	var spread, cont []float64
	for _, x := range a.Measurements {
		y, ok := second[x.Experiment.Key()]
		if !ok || x.Cycles <= 0 || y.Cycles <= 0 || (keep != nil && !keep(x.Experiment)) {
			continue
		}
		diffs = append(diffs, Difference{x.Experiment, x.Cycles, y.Cycles})
		spread = append(spread, x.Spread, y.Spread)
		cont = append(cont, x.Contention, y.Contention)
	}
	ag := Agreement{N: len(diffs)}
	if len(diffs) == 0 {
		return ag
	}
	slices.SortFunc(diffs, func(p, q Difference) int { return cmp.Compare(q.Relative(), p.Relative()) })
	rel := make([]float64, len(diffs))
	for i, d := range diffs {
		rel[len(diffs)-1-i] = d.Relative() // ascending
	}
	// Quantiles interpolate between order statistics (numpy's default).
	q := func(v []float64, p float64) float64 {
		x := p * float64(len(v)-1)
		lo := int(x)
		hi := min(lo+1, len(v)-1)
		return v[lo] + (x-float64(lo))*(v[hi]-v[lo])
	}
	slices.Sort(spread)
	slices.Sort(cont)
	ag.Median, ag.P90, ag.Max = q(rel, 0.5), q(rel, 0.9), rel[len(rel)-1]
	ag.Spread, ag.Contention, ag.ContentionP90 = q(spread, 0.5), q(cont, 0.5), q(cont, 0.9)
	ag.Worst = diffs[:min(5, len(diffs))]
	return ag
}

// String summarises the agreement in one line (the spread and contention
// only when the measurements carried them).
func (ag Agreement) String() string {
	if ag.N == 0 {
		return "no experiment measured in both runs"
	}
	s := fmt.Sprintf("n=%d, run-to-run difference median %.2f %%, p90 %.2f %%, max %.2f %%", ag.N, 100*ag.Median, 100*ag.P90, 100*ag.Max)
	if ag.Spread != 0 || ag.Contention != 0 || ag.ContentionP90 != 0 {
		s += fmt.Sprintf("; spread of the passes median %.2f %%; contention median %.2f %%, p90 %.2f %%", 100*ag.Spread, 100*ag.Contention, 100*ag.ContentionP90)
	}
	return s
}
