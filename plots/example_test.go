package plots_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"log"
	"regexp"
	"strings"
	"time"

	"github.com/portlab/portlab/lib/infer/pmevo"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/plots"
)

// pngSize decodes a PNG and returns its size in pixels.
func pngSize(b []byte, err error) string {
	if err != nil {
		log.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		log.Fatal(err)
	}
	return fmt.Sprintf("%d×%d", img.Bounds().Dx(), img.Bounds().Dy())
}

// fig31 is the mapping of thesis Fig. 3.1.
func fig31() *portmap.Mapping {
	m := portmap.MustMapping("fig3.1", "p1", "p2", "p3")
	return m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]")
}

func ExampleNewHeatmap() {
	// A mapping compared with three measured experiments, then drawn.
	m := fig31()
	set := &portmap.ExperimentSet{Arch: m.Arch()}
	for _, c := range []struct {
		counts map[string]int
		cycles float64
	}{
		{map[string]int{"add": 2, "mul": 1, "store": 1}, 1.6},
		{map[string]int{"mul": 2}, 2.0},
		{map[string]int{"add": 1, "store": 3}, 3.1},
	} {
		e, _ := portmap.ExperimentOf(c.counts)
		set.Measurements = append(set.Measurements, portmap.Measurement{Experiment: e, Cycles: c.cycles})
	}
	ev := metrics.Evaluate(context.Background(), oracle.FromMapping(m), set)
	h := plots.NewHeatmap(ev)
	fmt.Println(h.Title, "PNG", pngSize(h.PNG()))
	fmt.Printf("n=%d MAPE=%.2f%%\n", ev.Summary.N, ev.Summary.MAPE)
	// Output:
	// fig3.1 PNG 806×691
	// n=3 MAPE=3.16%
}

func ExampleHeatmap_Histogram() {
	// Bare numbers go through metrics.EvaluationOf.
	measured := []float64{1.00, 1.02, 2.10, 2.50, 4.00, 4.20, 0.50, 12}
	predicted := []float64{1.00, 1.00, 2.00, 2.00, 3.00, 4.20, 0.50, 11}
	h := plots.NewHeatmap(metrics.EvaluationOf("toy predictor", measured, predicted))
	hist, _ := h.Histogram()
	fmt.Printf("%d×%d bins over [0, %g], fullest bin %d\n", hist.NX, hist.NY, hist.XMax, hist.Max())

	// A fixed range, as PMEvo's 0–35 cycles for Skylake: points beyond it
	// are counted, and printed in the corner.
	h.Min, h.Max = 0, 10
	outside, _ := h.Outside()
	fmt.Println("outside [0, 10]:", outside)
	// Output:
	// 35×35 bins over [0, 20], fullest bin 2
	// outside [0, 10]: 1
}

func ExampleHeatmap_HTML() {
	h := plots.NewHeatmap(metrics.EvaluationOf("", []float64{1, 2, 3}, []float64{1, 2, 2.5})).Titled("interactive")
	frag := h.HTML()
	fmt.Println("fragment, not a page:", !strings.Contains(frag, "<html"))
	fmt.Println("one chart element:", len(regexp.MustCompile(`id="portlab-chart-[0-9a-f]{16}"`).FindAllString(frag, -1)))
	fmt.Println("ECharts inside, version", plots.EChartsVersion, strings.Contains(frag, `data-portlab-echarts="5.6.0"`))
	fmt.Println("a new id each time:", h.HTML()[:60] != frag[:60])
	// Output:
	// fragment, not a page: true
	// one chart element: 1
	// ECharts inside, version 5.6.0 true
	// a new id each time: true
}

func ExampleNewHeatmapGrid() {
	a := plots.NewHeatmap(metrics.EvaluationOf("", []float64{1, 2, 3, 4}, []float64{1, 2, 3, 4})).Titled("exact")
	b := plots.NewHeatmap(metrics.EvaluationOf("", []float64{1, 2, 3, 4}, []float64{1, 1.5, 2, 2.5})).Titled("optimistic")
	c := plots.NewHeatmap(metrics.EvaluationOf("", []float64{1, 2, 3, 4}, []float64{2, 3, 4, 5})).Titled("pessimistic")
	g := plots.NewHeatmapGrid(3, a, b, c).Titled("three predictors")
	g.DPI = 100
	fmt.Println("PNG", pngSize(g.PNG()))
	// Output:
	// PNG 1085×345
}

func ExamplePortPressureOf() {
	m := fig31()
	e, _ := portmap.ExperimentOf(map[string]int{"add": 2, "mul": 1, "store": 1})
	pp := plots.PortPressureOf(m, e)
	fmt.Println(pp.Title, "→ bottleneck", pp.Bottleneck())
	fmt.Println("PNG", pngSize(pp.PNG()))
	// Output:
	// 2×add + mul + store → bottleneck [p1 p2]
	// PNG 749×518
}

func ExampleNewMappingGraph() {
	m := portmap.MustMapping("three-level", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]+2*[p1,p2]")
	g := plots.NewMappingGraph(m).Titled("thesis Fig. 3.3")
	svg, err := g.SVG()
	if err != nil {
		log.Fatal(err)
	}
	var found []string
	for _, label := range []string{"mul", "store", "p12", "2×", "p3"} {
		found = append(found, fmt.Sprintf("%s:%v", label, bytes.Contains(svg, []byte(">"+label+"<"))))
	}
	fmt.Println(strings.Join(found, " "))
	fmt.Println("PNG", pngSize(g.PNG()))
	// Output:
	// mul:true store:true p12:true 2×:true p3:true
	// PNG 691×238
}

func ExampleNewMappingMatrix() {
	m := portmap.MustMapping("three-level", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]+2*[p1,p2]")
	mm := plots.NewMappingMatrix(m)
	for i, row := range mm.Matrix() {
		fmt.Println(mm.Instructions()[i], row)
	}
	// Output:
	// mul [1 0 0]
	// add [0.5 0.5 0]
	// store [1 1 1]
}

func ExampleLPvsBottleneckFile() {
	c := plots.LPvsBottleneckFile("testdata/lpvsbottleneck_quick.csv", "ports")
	if err := c.Err(); err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.Title)
	fmt.Println(c.Series(), "log y:", c.LogY)
	// Output:
	// LP vs bottleneck formula, experiments of length 4
	// [LP (gonum simplex) bottleneck formula] log y: true
}

func ExampleNewCurves() {
	c := plots.NewCurves("CEGIS run time", "instructions", "time [s]").Log(false, true)
	c.AddErrorBars("4 ports", []float64{2, 4, 8}, []float64{0.1, 0.8, 9}, []float64{0.08, 0.5, 6}, []float64{0.2, 1.1, 14})
	c.Add("6 ports", []float64{2, 4, 8}, []float64{0.2, 2, 30})
	fmt.Println(c.Series(), c.Err())
	fmt.Println("PNG", pngSize(c.PNG()))
	// Output:
	// [4 ports 6 ports] <nil>
	// PNG 806×547
}

func ExampleErrorVsLength() {
	lengths := []float64{1, 2, 3, 6, 10}
	mape := []float64{1.2, 2.89, 5.47, 7.74, 9.96}
	c := plots.ErrorVsLength(lengths, mape, nil, nil)
	fmt.Println(c.XLabel, "/", c.YLabel, c.Err())
	// Output:
	// experiment length [instructions] / MAPE [%] <nil>
}

func ExampleNewScatter() {
	ev := metrics.EvaluationOf("toy", []float64{1, 2, 3}, []float64{1.1, 1.9, 3.2})
	ev.Experiments = []portmap.Experiment{portmap.NewExperiment("add"), portmap.NewExperiment("mul", "mul"), portmap.NewExperiment("store", "store", "store")}
	s := plots.NewScatter(ev)
	frag := s.HTML()
	fmt.Println("hover names the experiment:", strings.Contains(frag, `"name":"{mul ↦ 2}"`))
	fmt.Println("PNG", pngSize(s.PNG()))
	// Output:
	// hover names the experiment: true
	// PNG 749×691
}

func ExampleAsSVG() {
	h := plots.NewHeatmap(metrics.EvaluationOf("", []float64{1, 2}, []float64{1, 2}))
	var v any = plots.AsSVG(h) // what a notebook cell returns to show SVG
	_, isSVG := v.(interface{ SVG() string })
	fmt.Println(isSVG, strings.HasPrefix(plots.AsSVG(h).SVG(), "<?xml"))
	// Output:
	// true true
}

// The live view of a PMEvo run: two charts (training error and µop
// volume per generation) and a line on the last generation.
func ExampleEvolutionProgress() {
	fmt.Println(plots.EvolutionProgress("toy run", nil))
	history := []pmevo.Generation{
		{Index: 0, BestError: 0.30, MinError: 0.25, MedianError: 0.6, BestVolume: 12, Distinct: 200, Elapsed: time.Second},
		{Index: 1, BestError: 0.12, MinError: 0.10, MedianError: 0.4, BestVolume: 10, Distinct: 150, Elapsed: 2 * time.Second},
	}
	v := string(plots.EvolutionProgress("toy run", history))
	fmt.Println(strings.Count(v, `<img alt="PMEvo progress" src="data:image/png;base64,`), "charts")
	fmt.Println(v[strings.LastIndex(v, "<p>"):])
	// Output:
	// <p><em>toy run: initialising the population…</em></p>
	// 2 charts
	// <p>toy run — generation 1, 2.0 s: fittest D_avg 12.00 % with volume 10, 150 distinct candidates</p>
}
