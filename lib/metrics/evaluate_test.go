package metrics

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

func toySet(t *testing.T) (*portmap.Mapping, *portmap.ExperimentSet) {
	m := portmap.MustMapping("fig3.1", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]")
	arch, err := portmap.NewArchitecture("bench", []string{"p1", "p2", "p3"}, []string{"add", "mul", "store", "div"})
	if err != nil {
		t.Fatal(err)
	}
	set := &portmap.ExperimentSet{Arch: arch, Measurements: []portmap.Measurement{
		{Experiment: portmap.NewExperiment("add", "add", "mul", "store"), Cycles: 1.6},
		{Experiment: portmap.NewExperiment("div", "add"), Cycles: 20},
		{Experiment: portmap.NewExperiment("store", "store"), Cycles: 2},
		{Experiment: portmap.NewExperiment("mul", "mul", "add"), Cycles: 2.5},
	}}
	return m, set
}

func TestEvaluate(t *testing.T) {
	m, set := toySet(t)
	ev := Evaluate(t.Context(), oracle.FromMapping(m), set)
	if ev.Err() != nil {
		t.Fatal(ev.Err())
	}
	if ev.Len() != 3 || len(ev.Failures) != 1 || ev.Failures[0].Index != 1 || ev.Failures[0].Insn != "div" {
		t.Fatalf("%d compared, failures %v", ev.Len(), ev.Failures)
	}
	want, _ := Summarize([]float64{1.6, 2, 2.5}, []float64{1.5, 2, 2}) // mul, mul, add: 2 cycles on p1
	if ev.Summary != want || ev.Predicted[2] != 2 || ev.Experiments[1].String() != "{store ↦ 2}" {
		t.Errorf("summary %+v, want %+v; predicted %v", ev.Summary, want, ev.Predicted)
	}
	if l := ev.Labels(); len(l) != 3 || l[0] != "{add ↦ 2, mul ↦ 1, store ↦ 1}" {
		t.Errorf("labels %v", l)
	}
	if w := ev.Worst(2); len(w) != 2 || w[0].Measured != 2.5 || math.Abs(w[0].APE-20) > 1e-9 || math.Abs(w[1].APE-6.25) > 1e-9 {
		t.Errorf("worst %+v", w)
	}
	for _, s := range []string{ev.String(), ev.Markdown(), ev.HTML()} {
		for _, want := range []string{"fig3.1 on bench", "1 left out", "8.75%"} {
			if !strings.Contains(s, want) {
				t.Errorf("rendering lacks %q:\n%s", want, s)
			}
		}
	}
	// A whole failure is kept and shown.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	bad := Evaluate(ctx, oracle.FromMapping(m), set)
	if bad.Err() == nil || !strings.Contains(bad.String(), "context canceled") || !strings.Contains(bad.HTML(), "error") {
		t.Errorf("cancelled: %v / %s", bad.Err(), bad)
	}
	none := Evaluate(t.Context(), oracle.Stored(set, "IACA"), set)
	if none.Err() == nil || !strings.Contains(none.Err().Error(), "predicted none of the 4") {
		t.Errorf("nothing predicted: %v", none.Err())
	}
	// Constant predictions: correlations undefined, not an error.
	c := EvaluationOf("constant", []float64{1, 2, 3}, []float64{2, 2, math.NaN()})
	if c.Err() != nil || !math.IsNaN(c.Summary.Pearson) || c.Summary.N != 2 || len(c.Failures) != 1 {
		t.Errorf("constant: %+v %v", c.Summary, c.Err())
	}
	if EvaluationOf("short", []float64{1}, nil).Err() == nil {
		t.Error("lengths that differ are not an error")
	}
}

func TestTable(t *testing.T) {
	m, set := toySet(t)
	a := Evaluate(t.Context(), oracle.FromMapping(m), set).Titled("A").WithReference(2.5, 0.99, math.NaN())
	b := EvaluationOf("B", []float64{1, 2, 4}, []float64{1, 2, 3})
	tab := Table(a, b)
	md := tab.Markdown()
	for _, want := range []string{"| predictor | n | MAPE (ref.) | MAPE |", "| A on bench | 3 (1 left out) | 2.50% | 8.75% | 6.25% | 0.990 | 0.832 | — | 0.816 |", "| B | 3 | — | 8.33% |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if lines := strings.Split(strings.TrimSpace(tab.String()), "\n"); len(lines) != 3 || !strings.HasPrefix(lines[2], "B ") {
		t.Errorf("text table:\n%s", tab)
	}
	if h := Table(b).HTML(); strings.Contains(h, "(ref.)") || !strings.Contains(h, "<td style=\"text-align:right\">8.33%</td>") {
		t.Errorf("html: %s", h)
	}
}

func TestFailedEvaluation(t *testing.T) {
	cause := errors.New("llvm-mca not found")
	ev := FailedEvaluation("p", "blocks", cause)
	if !errors.Is(ev.Err(), cause) || ev.Len() != 0 || !strings.Contains(ev.String(), "llvm-mca not found") {
		t.Errorf("FailedEvaluation: err %v, %d rows, renders %q", ev.Err(), ev.Len(), ev.String())
	}
}
