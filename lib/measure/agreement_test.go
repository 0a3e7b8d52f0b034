package measure

import (
	"math"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/portmap"
)

func TestCompareRuns(t *testing.T) {
	a, b := &portmap.ExperimentSet{}, &portmap.ExperimentSet{}
	// Ten experiments, the k-th off by k %; one only in a; one failed (0).
	for k := 0; k < 10; k++ {
		e := portmap.NewExperiment(string(rune('a'+k)), "x")
		a.Measurements = append(a.Measurements, portmap.Measurement{Experiment: e, Cycles: 1, Spread: 0.01})
		b.Measurements = append(b.Measurements, portmap.Measurement{Experiment: e, Cycles: 1 + float64(k)/100, Spread: 0.03})
	}
	a.Measurements = append(a.Measurements, portmap.Measurement{Experiment: portmap.NewExperiment("only-a"), Cycles: 1},
		portmap.Measurement{Experiment: portmap.NewExperiment("failed"), Cycles: 0})
	b.Measurements = append(b.Measurements, portmap.Measurement{Experiment: portmap.NewExperiment("failed"), Cycles: 2})
	ag := CompareRuns(a, b, nil)
	near := func(x, y float64) bool { return math.Abs(x-y) < 1e-9 }
	if ag.N != 10 || !near(ag.Median, 0.045) || !near(ag.P90, 0.081) || !near(ag.Max, 0.09) || !near(ag.Spread, 0.02) {
		t.Errorf("agreement %+v", ag)
	}
	if len(ag.Worst) != 5 || ag.Worst[0].Experiment.Count("j") != 1 || !near(ag.Worst[0].Relative(), 0.09) {
		t.Errorf("worst %v", ag.Worst)
	}
	if !strings.Contains(ag.String(), "median 4.50 %") {
		t.Errorf("String: %s", ag)
	}
	ag = CompareRuns(a, b, func(e portmap.Experiment) bool { return e.Count("a") > 0 })
	if ag.N != 1 || ag.Max != 0 {
		t.Errorf("restricted to a: %+v", ag)
	}
	for i := range b.Measurements {
		b.Measurements[i].Spread = 0
		a.Measurements[i].Spread = 0
	}
	if s := CompareRuns(a, b, nil).String(); strings.Contains(s, "spread") {
		t.Errorf("without spreads: %s", s)
	}
	if CompareRuns(a, &portmap.ExperimentSet{}, nil).String() != "no experiment measured in both runs" {
		t.Error("empty comparison")
	}
}
