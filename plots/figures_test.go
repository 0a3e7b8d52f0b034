package plots

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"image"
	"io"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/dataset/datasettest"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/plots/internal/echarts"
	"gonum.org/v1/plot"
)

// bounds returns the smallest rectangle holding the pixels within tol of
// c, and their number.
func bounds(img image.Image, c interface{ RGBA() (r, g, b, a uint32) }, tol int) (image.Rectangle, int) {
	var r image.Rectangle
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if dist(img.At(x, y), c) <= tol {
				p := image.Rect(x, y, x+1, y+1)
				if n == 0 {
					r = p
				} else {
					r = r.Union(p)
				}
				n++
			}
		}
	}
	return r, n
}

// TestPortPressure checks thesis Example 3.8 (Fig. 3.2/3.4): 2×add + mul +
// store on the Fig. 3.1 mapping has t* = 1.5 with bottleneck ports p1 and
// p2, so the two left bars are highlighted, 1.5 high, and the p3 bar is
// plain, 1 high.
func TestPortPressure(t *testing.T) {
	m := fig31()
	e, _ := portmap.ExperimentOf(map[string]int{"add": 2, "mul": 1, "store": 1})
	pp := PortPressureOf(m, e)
	if err := pp.Err(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(pp.Bottleneck(), ","); got != "p1,p2" || pp.cycles != 1.5 {
		t.Fatalf("bottleneck %s, t* %v; want p1,p2 and 1.5", got, pp.cycles)
	}
	if pp.Title != "2×add + mul + store" {
		t.Errorf("title %q", pp.Title)
	}
	b, err := pp.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, b)
	hr, hn := bounds(img, HighlightColor, 0)
	br, bn := bounds(img, BarColor, 0)
	if hn == 0 || bn == 0 {
		t.Fatalf("%d highlighted and %d plain bar pixels", hn, bn)
	}
	// Bars p1 and p2 left of p3, and the legend swatches right of all: so
	// compare the leftmost pixels and the areas inside the data area.
	if hr.Min.X >= br.Min.X {
		t.Errorf("highlighted pixels start at x = %d, plain ones at %d; want bottleneck bars p1, p2 left of p3", hr.Min.X, br.Min.X)
	}
	// Area ratio: two bars of 1.5 against one of 1 → 3 (legend swatches
	// are small and equal).
	if ratio := float64(hn) / float64(bn); math.Abs(ratio-3) > 0.25 {
		t.Errorf("highlighted/plain area %.2f, want ≈ 3", ratio)
	}
	// The bars stand on the same baseline; the highlighted ones are taller.
	if hr.Max.Y != br.Max.Y || hr.Min.Y >= br.Min.Y {
		t.Errorf("highlighted bars span y %d…%d, plain %d…%d", hr.Min.Y, hr.Max.Y, br.Min.Y, br.Max.Y)
	}
	svg, err := pp.SVG()
	if err != nil {
		t.Fatal(err)
	}
	text := parseXML(t, svg)
	for _, want := range []string{"p1", "p2", "p3", "t* = 1.5", "bottleneck", "2×add + mul + store", "port"} {
		if !strings.Contains(text, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	// By µop: the bars are split, the bottleneck bars framed.
	pp.ByUop = true
	b, err = pp.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img = decodePNG(t, b)
	if _, n := bounds(img, HighlightColor, 0); n == 0 || n > hn/4 {
		t.Errorf("by µop: %d highlight pixels, want a frame (some, far fewer than %d)", n, hn)
	}
	if _, n := bounds(img, seriesColor(0), 0); n == 0 {
		t.Error("by µop: no pixels of the first µop's colour")
	}
	text = parseXML(t, mustSVG(t, pp))
	for _, want := range []string{"µop p1", "µop p12", "µop p3"} {
		if !strings.Contains(text, want) {
			t.Errorf("by-µop SVG lacks %q:\n%s", want, text)
		}
	}
	// Interactive: bottleneck bars in the highlight colour, µops in the tooltips.
	html := pp.HTML()
	if strings.Count(html, hex(HighlightColor)) < 2 || !strings.Contains(html, "µop p12") {
		t.Errorf("HTML lacks the highlight colour or the µops")
	}
	// Errors.
	for name, bad := range map[string]*PortPressure{
		"lengths":    NewPortPressure([]string{"a", "b"}, []float64{1}, nil, 0),
		"port":       NewPortPressure([]string{"a"}, []float64{1}, []string{"z"}, 0),
		"negative":   NewPortPressure([]string{"a"}, []float64{-1}, nil, 0),
		"unknown":    PortPressureOf(m, portmap.NewExperiment("div")),
		"none":       NewPortPressure(nil, nil, nil, 0),
		"not finite": NewPortPressure([]string{"a"}, []float64{math.Inf(1)}, nil, 0),
	} {
		if bad.Err() == nil {
			t.Errorf("%s: no error", name)
		}
		if _, err := bad.PNG(); err == nil {
			t.Errorf("%s: PNG without error", name)
		}
	}
}

func mustSVG(t *testing.T, f Figure) []byte {
	t.Helper()
	b, err := f.SVG()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fig33 is a three-level mapping in the spirit of thesis Fig. 3.3.
func fig33() *portmap.Mapping {
	m := portmap.MustMapping("fig3.3", "p1", "p2", "p3")
	return m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]+2*[p1,p2]")
}

func TestMappingGraph(t *testing.T) {
	g := NewMappingGraph(fig33()).Titled("three-level")
	text := parseXML(t, mustSVG(t, g))
	for _, want := range []string{"three-level", "instructions", "µops", "ports", "mul", "add", "store", "p1", "p12", "p3", "2×"} {
		if !strings.Contains(text, want) {
			t.Errorf("SVG lacks %q:\n%s", want, text)
		}
	}
	l := g.layout()
	if len(l.uops) != 3 || len(l.insns) != 3 || len(l.ports) != 3 {
		t.Errorf("layout %d instructions, %d µops, %d ports", len(l.insns), len(l.uops), len(l.ports))
	}
	b, err := g.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, b)
	w, h := g.size()
	if math.Abs(float64(img.Bounds().Dx())-float64(w)*DefaultDPI/72) > 1 || math.Abs(float64(img.Bounds().Dy())-float64(h)*DefaultDPI/72) > 1 {
		t.Errorf("PNG %v, want %v × %v points at %d DPI", img.Bounds(), w, h, DefaultDPI)
	}
	// Every µop's edges have its colour.
	for j := range l.uops {
		if _, n := bounds(img, seriesColor(j), 40); n == 0 {
			t.Errorf("no pixels of µop %d's colour", j)
		}
	}
	if NewMappingGraph(fig33(), "nope").Err() == nil {
		t.Error("graph of an unknown instruction: no error")
	}
	if NewMappingGraph(portmap.MustMapping("empty", "p0")).Err() == nil {
		t.Error("graph of an empty mapping: no error")
	}
}

// TestMappingGraphSKL draws 30 uops.info Skylake instructions: every name
// is in the SVG (shortened past 48 characters), and the rows are at least
// 17 points apart.
func TestMappingGraphSKL(t *testing.T) {
	datasettest.Need(t)
	m, err := dataset.PMEvoMapping("SKL", "uops_info")
	if err != nil {
		t.Fatal(err)
	}
	insns := m.Instructions()[:30]
	g := NewMappingGraph(m, insns...)
	text := parseXML(t, mustSVG(t, g))
	for _, in := range insns {
		if !strings.Contains(text, shorten(in, 48)) {
			t.Errorf("SVG lacks %q", shorten(in, 48))
		}
	}
	for _, p := range m.Ports() {
		if !strings.Contains(text, p) {
			t.Errorf("SVG lacks port %q", p)
		}
	}
	if _, h := g.size(); h < 30*graphPitch {
		t.Errorf("height %v for 30 rows", h)
	}
}

func TestMappingMatrix(t *testing.T) {
	m := fig33()
	mm := NewMappingMatrix(m)
	want := map[string][]float64{"mul": {1, 0, 0}, "add": {0.5, 0.5, 0}, "store": {1, 1, 1}}
	for i, in := range mm.Instructions() {
		row := mm.Matrix()[i]
		sum := 0.0
		for k, v := range row {
			if math.Abs(v-want[in][k]) > 1e-12 {
				t.Errorf("%s on %s: %v, want %v", in, m.Ports()[k], v, want[in][k])
			}
			sum += v
		}
		if math.Abs(sum-float64(m.NumUops(in))) > 1e-12 {
			t.Errorf("%s: row sums to %v, want %d µops", in, sum, m.NumUops(in))
		}
	}
	text := parseXML(t, mustSVG(t, mm.Titled("matrix")))
	for _, want := range []string{"matrix", "mul", "add", "store", "p1", "p2", "p3", ".5", "µops per execution"} {
		if !strings.Contains(text, want) {
			t.Errorf("SVG lacks %q:\n%s", want, text)
		}
	}
	b, err := mm.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, b)
	// The darkest cells (value 1 = top) have the darkest colour.
	if _, n := bounds(img, countStops[len(countStops)-1], 2); n < 4*100 {
		t.Errorf("%d pixels of the darkest colour; want 4 full cells", n)
	}
	if html := mm.HTML(); !strings.Contains(html, `1*p12`) && !strings.Contains(html, `1*[p1,p2]`) {
		t.Errorf("matrix HTML lacks the usage in its tooltips")
	}
}

func TestMappingMatrixLarge(t *testing.T) {
	datasettest.Need(t)
	m, err := dataset.PMEvoMapping("SKL", "uops_info")
	if err != nil {
		t.Fatal(err)
	}
	mm := NewMappingMatrix(m)
	w, h := mm.size()
	if h > 12*72 || w > 10*72 {
		t.Errorf("matrix of %d instructions is %v × %v points", m.Len(), w, h)
	}
	text := parseXML(t, mustSVG(t, mm))
	if !strings.Contains(text, "instructions (index order)") {
		t.Errorf("large matrix: no note in place of the hidden names")
	}
	if html := mm.HTML(); !strings.Contains(html, `"dataZoom"`) {
		t.Error("large matrix HTML has no slider")
	}
}

func TestCurves(t *testing.T) {
	c := LPvsBottleneckFile("testdata/lpvsbottleneck_quick.csv", "ports")
	if err := c.Err(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Series(), "|"); got != "LP (gonum simplex)|bottleneck formula" {
		t.Errorf("series %s", got)
	}
	if len(c.series[0].x) != 17 || c.series[0].x[0] != 4 || c.series[0].x[16] != 20 {
		t.Errorf("ports axis %v", c.series[0].x)
	}
	text := parseXML(t, mustSVG(t, c))
	for _, want := range []string{"number of ports", "time per experiment", "100 µs", "1 µs", "LP (gonum simplex)", "bottleneck formula"} {
		if !strings.Contains(text, want) {
			t.Errorf("SVG lacks %q:\n%s", want, text)
		}
	}
	if l := LPvsBottleneckFile("testdata/lpvsbottleneck_quick.csv", "length"); l.Err() != nil || len(l.series[0].x) != 16 {
		t.Errorf("length axis: %v", l.Err())
	}
	for name, bad := range map[string]*Curves{
		"axis":     LPvsBottleneckFile("testdata/lpvsbottleneck_quick.csv", "nope"),
		"file":     LPvsBottleneckFile("testdata/missing.csv", "ports"),
		"columns":  LPvsBottleneck(strings.NewReader("a,b\n1,2\n"), "ports"),
		"lengths":  NewCurves("", "", "").Add("s", []float64{1, 2}, []float64{1}),
		"log":      NewCurves("", "", "").Add("s", []float64{1, 2}, []float64{0, 1}).Log(false, true),
		"NaN":      NewCurves("", "", "").Add("s", []float64{1}, []float64{math.NaN()}),
		"empty":    NewCurves("", "", ""),
		"errbars":  NewCurves("", "", "").AddErrorBars("s", []float64{1}, []float64{1}, nil, []float64{2}),
		"csv cols": CurvesFromCSV(strings.NewReader("x,y\n1,2\n"), "x", "z"),
	} {
		if bad.Err() == nil {
			t.Errorf("%s: no error", name)
		}
	}
	e := ErrorVsLength([]float64{1, 2, 3}, []float64{1, 2.9, 5.5}, []float64{0.5, 2, 4}, []float64{2, 4, 7})
	b, err := e.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, b)
	if _, n := bounds(img, seriesColor(0), 10); n < 200 {
		t.Errorf("%d pixels of the series colour", n)
	}
	text = parseXML(t, mustSVG(t, e))
	for _, want := range []string{"MAPE [%]", "experiment length [instructions]", "7"} {
		if !strings.Contains(text, want) {
			t.Errorf("error plot SVG lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "1.5") {
		t.Errorf("error plot has a tick at 1.5 instructions:\n%s", text)
	}
	f := FitnessCurves([]float64{50, 20, 10, 9}, []float64{80, 40, 30, 25})
	if f.Err() != nil || len(f.Series()) != 2 || !f.LogY {
		t.Errorf("fitness curves: %v %v", f.Err(), f.Series())
	}
	csv := CurvesFromCSV(strings.NewReader("n,a,b\n1,2,\n2,3,4\n"), "n", "a", "b")
	if csv.Err() != nil || len(csv.series[0].x) != 2 || len(csv.series[1].x) != 1 {
		t.Errorf("CSV curves: %v", csv.Err())
	}
}

// tickLabels returns the labels of the labelled ticks, space-separated.
func tickLabels(ticks []plot.Tick) string {
	var got []string
	for _, tk := range ticks {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	return strings.Join(got, " ")
}

func TestTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   string
	}{
		{0, 35, "0 10 20 30"},
		{0, 25, "0 5 10 15 20 25"},
		{0.5, 17.5, "2.5 5.0 7.5 10.0 12.5 15.0 17.5"},
		{0, 1.725, "0.00 0.25 0.50 0.75 1.00 1.25 1.50"},
		{1, 20, "5 10 15 20"},
	} {
		if got := tickLabels((niceTicks{}).Ticks(tc.lo, tc.hi)); got != tc.want {
			t.Errorf("ticks %g…%g: %s, want %s", tc.lo, tc.hi, got, tc.want)
		}
	}
	// Whole numbers only: no 12.5 ports, no minor ticks at halves.
	for _, tc := range []struct {
		lo, hi float64
		want   string
	}{
		{4, 20, "5 10 15 20"},
		{1, 16, "2 4 6 8 10 12 14 16"},
		{1, 3, "1 2 3"},
		{0, 100, "0 20 40 60 80 100"},
	} {
		ticks := (niceTicks{integers: true}).Ticks(tc.lo, tc.hi)
		for _, tk := range ticks {
			if tk.Value != math.Round(tk.Value) {
				t.Errorf("integer ticks %g…%g: tick at %g", tc.lo, tc.hi, tk.Value)
			}
		}
		if got := tickLabels(ticks); got != tc.want {
			t.Errorf("integer ticks %g…%g: %s, want %s", tc.lo, tc.hi, got, tc.want)
		}
	}
	if got := tickLabels((decadeTicks{format: siSeconds}).Ticks(2.5e-7, 4e-4)); got != "1 µs 10 µs 100 µs" {
		t.Errorf("decade ticks: %v", got)
	}
	for v, want := range map[float64]string{1e-6: "1e-6", 0.01: "0.01", 1e5: "1e5", 250: "250"} {
		if got := plainNumber(v); got != want {
			t.Errorf("plainNumber(%g) = %s, want %s", v, got, want)
		}
	}
}

func TestScatter(t *testing.T) {
	meas, pred := synthetic(2000)
	s := NewScatter(evalOf(meas, pred)).Titled("dots")
	text := parseXML(t, mustSVG(t, s))
	for _, want := range []string{"dots", "MAPE", MeasuredLabel} {
		if !strings.Contains(text, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	b, err := s.PNG()
	if err != nil {
		t.Fatal(err)
	}
	if _, n := bounds(decodePNG(t, b), DiagonalColor, 30); n < 300 {
		t.Errorf("%d diagonal pixels", n)
	}
	labels := make([]string, len(meas))
	for i := range labels {
		labels[i] = "exp <" + string(rune('a'+i%26)) + ">"
	}
	html := NewScatter(labelledAs(meas, pred, labels)).HTML()
	if !strings.Contains(html, "exp &lt;a&gt;") || strings.Contains(html, "exp <a>") {
		t.Error("scatter HTML does not carry the escaped labels")
	}
	if NewScatter(evalOf([]float64{1}, nil)).Err() == nil {
		t.Error("scatter with mismatched lengths: no error")
	}
}

// Patterns of a fragment: the chart's element id and the packed library.
var (
	idPat     = regexp.MustCompile(`<div class="portlab-chart" id="(portlab-chart-[0-9a-f]{16})"`)
	packedPat = regexp.MustCompile(`var packed = "([A-Za-z0-9+/=]+)";`)
)

func TestHTMLFragment(t *testing.T) {
	meas, pred := synthetic(1000)
	h := NewHeatmap(evalOf(meas, pred)).Titled(`a </script> "title"`)
	a, b := h.HTML(), h.HTML()
	ida, idb := idPat.FindStringSubmatch(a), idPat.FindStringSubmatch(b)
	if ida == nil || idb == nil || ida[1] == idb[1] {
		t.Fatalf("fragment ids %v and %v; want two distinct ids", ida, idb)
	}
	// Outside the packed library (base64, which may contain any word)
	// nothing refers to a page, a file or the network.
	rest := packedPat.ReplaceAllString(a, "")
	for _, bad := range []string{"<html", "<body", "<head", "src=", "http://", "https://", "//cdn", "<link"} {
		if strings.Contains(strings.ToLower(rest), bad) {
			t.Errorf("fragment contains %q", bad)
		}
	}
	if strings.Count(a, "</script>") != 2 || strings.Count(a, "<div") != 1 {
		t.Errorf("fragment has %d scripts and %d divs, want 2 and 1", strings.Count(a, "</script>"), strings.Count(a, "<div"))
	}
	if !strings.Contains(a, "if (w.echarts || w.__portlabECharts) return;") {
		t.Error("the library loader is not guarded")
	}
	if !strings.Contains(a, `data-portlab-echarts="`+EChartsVersion+`"`) {
		t.Error("the library script is not marked with its version")
	}
	// The packed library is echarts.min.js.
	m := packedPat.FindStringSubmatch(a)
	if m == nil {
		t.Fatal("no packed library in the fragment")
	}
	gz, err := base64.StdEncoding.DecodeString(m[1])
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	lib, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(lib, echarts.Library()) {
		t.Fatalf("packed library does not unpack to echarts.min.js (%d bytes, %v)", len(lib), err)
	}
	if !bytes.Contains(lib, []byte(`t.version="`+EChartsVersion+`"`)) {
		t.Errorf("embedded library is not ECharts %s", EChartsVersion)
	}
	// The title's </script> must not end the script early; the option
	// carries the bins, the diagonal and the functions as code.
	if strings.Contains(a, "a </script>") {
		t.Error("the title closes the script element")
	}
	for _, want := range []string{`"type":"heatmap"`, `"type":"line"`, `"tooltip":{`, `"formatter":function (p) {`, hex(DiagonalColor), `"visualMap":{`, `"graphic":[`} {
		if !strings.Contains(a, want) {
			t.Errorf("fragment option lacks %s", want)
		}
	}
	if size := len(a); size < 300_000 || size > 600_000 {
		t.Errorf("fragment is %d bytes; want the library packed to about 450 kB", size)
	}
	// Marshal splices functions and keeps quotes and line breaks inside.
	js, err := echarts.Marshal(map[string]any{"f": echarts.Func("function (p) {\n  return \"a\" + '</b>';\n}"), "s": "x</y"})
	if err != nil {
		t.Fatal(err)
	}
	if js != `{"f":function (p) {`+"\n"+`  return "a" + '<\/b>';`+"\n"+`},"s":"x<\/y"}` {
		t.Errorf("Marshal = %s", js)
	}
}

func TestDisplay(t *testing.T) {
	meas, pred := synthetic(100)
	h := NewHeatmap(evalOf(meas, pred))
	if p := AsPNG(h).PNG(); len(p) == 0 {
		t.Error("AsPNG: empty")
	} else {
		decodePNG(t, p)
	}
	parseXML(t, []byte(AsSVG(h).SVG()))
	if !strings.Contains(AsHTML(h).HTML(), "portlab-chart") {
		t.Error("AsHTML: no chart")
	}
	bad := NewHeatmap(evalOf([]float64{1}, nil))
	img := decodePNG(t, AsPNG(bad).PNG())
	if _, n := bounds(img, white, 0); n == img.Bounds().Dx()*img.Bounds().Dy() {
		t.Error("AsPNG of a bad figure is blank")
	}
	if !strings.Contains(parseXML(t, []byte(AsSVG(bad).SVG())), "measured") {
		t.Error("AsSVG of a bad figure does not show the error")
	}
	var _ Interactive = h
	var _ Interactive = &PortPressure{}
	var _ Interactive = &Scatter{}
	var _ Interactive = &MappingMatrix{}
	var _ Figure = &HeatmapGrid{}
	var _ Figure = &MappingGraph{}
	var _ Figure = &Curves{}
}
