package metrics_test

import (
	"context"
	"fmt"
	"math"

	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

func ExampleMAPE() {
	// Inverse throughputs in cycles per experiment.
	measured := []float64{2, 4, 8, 10}
	predicted := []float64{2.5, 3, 8, 12}

	ape, err := metrics.APE(measured, predicted)
	if err != nil {
		fmt.Println(err)
		return
	}
	mape, _ := metrics.MAPE(measured, predicted)
	med, _ := metrics.MedianAPE(measured, predicted)
	fmt.Println("APE:", ape)
	fmt.Printf("MAPE = %.2f%%, median APE = %.2f%%\n", mape, med)

	// A measured value of 0 cannot be divided by.
	_, err = metrics.MAPE([]float64{1, 0}, []float64{1, 1})
	fmt.Println(err)
	// Output:
	// APE: [25 25 0 20]
	// MAPE = 17.50%, median APE = 22.50%
	// metrics: non-positive measured value: measured[1] = 0; MAPE needs every measured value > 0
}

func ExampleKendallTauB() {
	// Without ties τ-b is (concordant − discordant)/pairs: of the 10 pairs,
	// 2 are discordant, so τ-b = (8 − 2)/10.
	tau, _ := metrics.KendallTauB([]float64{1, 2, 3, 4, 5}, []float64{2, 1, 4, 3, 5})
	fmt.Printf("%.3f\n", tau)

	// Rounding to two decimals turns differences within noise into ties,
	// which τ-b corrects for.
	measured := metrics.Round([]float64{1.001, 1.004, 2.5, 3.0}, 2)
	predicted := []float64{1.2, 1.1, 2.4, 3.3}
	fmt.Println(measured)
	tau, _ = metrics.KendallTauB(measured, predicted)
	fmt.Printf("%.3f\n", tau)

	_, err := metrics.KendallTauB([]float64{1.5, 1.5, 1.5}, []float64{1, 2, 3})
	fmt.Println(err)
	// Output:
	// 0.600
	// [1 1 2.5 3]
	// 0.913
	// metrics: constant input: KendallTauB undefined: x is constant (all 3 values equal 1.5)
}

func ExampleSummarize() {
	// APE = [10, 0, 10, 16.67, 15, 10] %; one discordant pair of 15.
	measured := []float64{1.0, 1.5, 2.0, 3.0, 4.0, 6.0}
	predicted := []float64{1.1, 1.5, 1.8, 3.5, 3.4, 6.6}
	s, err := metrics.Summarize(measured, predicted)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s)
	fmt.Println(s.Markdown())
	// Output:
	// n=6 MAPE=10.28% median APE=10.00% Pearson=0.978 Spearman=0.943 Kendall τ-b=0.867
	// | n | MAPE | median APE | Pearson | Spearman | Kendall τ-b |
	// |---:|---:|---:|---:|---:|---:|
	// | 6 | 10.28% | 10.00% | 0.978 | 0.943 | 0.867 |
}

func ExampleNewHistogram2D() {
	measured := []float64{0.5, 1.0, 1.5, 2.0, 3.9, 4.0, 5.0}
	predicted := []float64{0.6, 1.1, 3.0, 2.0, 3.5, 4.5, 1.0}
	// 4×4 bins of width 1 over [0, 4]×[0, 4]. (3.9, 3.5) is in the top
	// right bin, (4.0, 4.5) lies above the range, (5.0, 1.0) right of it.
	h, err := metrics.NewHistogram2D(measured, predicted, 4, 4, 0, 4, 0, 4)
	if err != nil {
		fmt.Println(err)
		return
	}
	for iy := h.NY - 1; iy >= 0; iy-- { // top row first, as in a plot
		fmt.Println(h.Counts[iy])
	}
	fmt.Printf("inside %d, outside %d (right %d, above %d), n %d\n",
		h.Total(), h.Outside, h.Right, h.Above, h.N)
	// Output:
	// [0 1 0 1]
	// [0 0 1 0]
	// [0 1 0 0]
	// [1 0 0 0]
	// inside 5, outside 2 (right 1, above 1), n 7
}

func ExampleEvaluate() {
	// A mapping evaluated on four measured experiments, one of which it
	// cannot predict.
	m := portmap.MustMapping("fig3.1", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]")
	set := &portmap.ExperimentSet{Measurements: []portmap.Measurement{
		{Experiment: portmap.NewExperiment("add", "add", "mul", "store"), Cycles: 1.6},
		{Experiment: portmap.NewExperiment("div", "add"), Cycles: 20},
		{Experiment: portmap.NewExperiment("store", "store"), Cycles: 2},
		{Experiment: portmap.NewExperiment("mul", "mul", "add"), Cycles: 2.5},
	}}
	ev := metrics.Evaluate(context.Background(), oracle.FromMapping(m), set)
	fmt.Println(ev)
	fmt.Print(metrics.Table(ev.WithReference(2.5, 0.99, math.NaN())))
	// Output:
	// fig3.1: n=3 MAPE=8.75% median APE=6.25% Pearson=0.832 Spearman=0.866 Kendall τ-b=0.816 (1 left out; first: experiment 1 {add ↦ 1, div ↦ 1}: instruction "div": portmap: experiment {add ↦ 1, div ↦ 1}: unknown instruction "div" (not in architecture "fig3.1"))
	// predictor  n               MAPE (ref.)  MAPE   median APE  Pearson (ref.)  Pearson  Kendall τ-b (ref.)  Kendall τ-b
	// fig3.1     3 (1 left out)  2.50%        8.75%  6.25%       0.990           0.832    —                   0.816
}

// Whether a paper's ranking carries over: two predictors rank the other
// way round here than in the published numbers.
func ExampleComparison_Order() {
	measured := []float64{1, 2, 4}
	a := metrics.EvaluationOf("A", measured, []float64{1.1, 2.2, 4.4}).WithReference(5, 0.9, 0.8)
	b := metrics.EvaluationOf("B", measured, []float64{1, 2, 4.4}).WithReference(9, 0.9, 0.8)
	c := metrics.EvaluationOf("C", measured, []float64{1, 2, 4})
	fmt.Print(metrics.Table(a, b, c).Order())
	// Output:
	// by MAPE here: B 3.33 % < A 10.00 %
	// by the reference MAPE: A 5.00 % < B 9.00 %
	// not the reference's order
	// not compared (no reference MAPE or no result): C
}
