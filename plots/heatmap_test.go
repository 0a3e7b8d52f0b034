package plots

import (
	"context"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/dataset/datasettest"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"gonum.org/v1/plot/vg"
)

// checkHeatmapPNG renders h at dpi and checks the picture against the
// histogram: the colour at the centre of every bin off the diagonal is the
// colour of its count on the log scale, or white for an empty bin; the
// diagonal is orange along its length; the colour bar runs from the
// lightest to the darkest colour. h must have NoMetrics set (the box
// covers bins). It returns the image.
func checkHeatmapPNG(t *testing.T, h *Heatmap, dpi float64) image.Image {
	t.Helper()
	h.DPI = dpi
	b, err := h.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, b)
	w, ht := h.size()
	if dx, dy := img.Bounds().Dx(), img.Bounds().Dy(); math.Abs(float64(dx)-float64(w/vg.Inch)*dpi) > 1 || math.Abs(float64(dy)-float64(ht/vg.Inch)*dpi) > 1 {
		t.Errorf("image is %d × %d pixels, want %.0f × %.0f", dx, dy, float64(w/vg.Inch)*dpi, float64(ht/vg.Inch)*dpi)
	}
	hm := composeHeatmap(t, h, dpi)
	pm := pixelMapper{dpi: dpi, height: img.Bounds().Dy()}
	trX, trY := hm.plot.Transforms(&hm.data)
	xe, ye := hm.hist.XEdges(), hm.hist.YEdges()
	filled, empty := 0, 0
	for iy, row := range hm.hist.Counts {
		for ix, n := range row {
			if ix == iy {
				continue // the diagonal crosses the centre
			}
			centre := vg.Point{X: (trX(xe[ix]) + trX(xe[ix+1])) / 2, Y: (trY(ye[iy]) + trY(ye[iy+1])) / 2}
			got := img.At(pm.at(centre).X, pm.at(centre).Y)
			want := white
			if n > 0 {
				want = hm.scale.color(float64(n))
				filled++
			} else {
				empty++
			}
			if d := dist(got, want); d > 3 {
				t.Fatalf("bin (%d, %d) with %d points: pixel %v, want %v (off by %d)", ix, iy, n, got, want, d)
			}
		}
	}
	if filled == 0 || empty == 0 {
		t.Errorf("%d filled and %d empty bins checked; want both", filled, empty)
	}
	lo, hi := max(hm.hist.XMin, hm.hist.YMin), min(hm.hist.XMax, hm.hist.YMax)
	for i := 1; i < 40; i++ {
		v := lo + (hi-lo)*float64(i)/40
		p := pm.at(vg.Point{X: trX(v), Y: trY(v)})
		best := 255
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				best = min(best, dist(img.At(p.X+dx, p.Y+dy), DiagonalColor))
			}
		}
		if best > 30 {
			t.Fatalf("diagonal at %g: no orange pixel near %v (closest off by %d)", v, p, best)
		}
	}
	barX := hm.data.Max.X + vg.Points(12) + vg.Points(5.5)
	bottom := img.At(pm.at(vg.Point{X: barX, Y: hm.data.Min.Y + 2}).X, pm.at(vg.Point{X: barX, Y: hm.data.Min.Y + 2}).Y)
	top := img.At(pm.at(vg.Point{X: barX, Y: hm.data.Max.Y - 2}).X, pm.at(vg.Point{X: barX, Y: hm.data.Max.Y - 2}).Y)
	if dist(bottom, countStops[0]) > 8 || dist(top, countStops[len(countStops)-1]) > 8 {
		t.Errorf("colour bar runs from %v to %v, want %v to %v", bottom, top, countStops[0], countStops[len(countStops)-1])
	}
	return img
}

// darkPixels counts the pixels darker than 90 in every channel inside the
// rectangle of canvas coordinates r.
func darkPixels(img image.Image, pm pixelMapper, r vg.Rectangle) int {
	a, b := pm.at(r.Min), pm.at(r.Max)
	n := 0
	for y := b.Y; y <= a.Y; y++ {
		for x := a.X; x <= b.X; x++ {
			if cr, cg, cb, _ := img.At(x, y).RGBA(); cr>>8 < 90 && cg>>8 < 90 && cb>>8 < 90 {
				n++
			}
		}
	}
	return n
}

func TestHeatmapPNGMatchesHistogram(t *testing.T) {
	meas, pred := synthetic(5000)
	h := NewHeatmap(evalOf(meas, pred))
	h.NoMetrics = true
	hist, err := h.Histogram()
	if err != nil {
		t.Fatal(err)
	}
	want, err := metrics.NewHeatmapHistogram(meas, pred, DefaultBins)
	if err != nil {
		t.Fatal(err)
	}
	if hist.NX != DefaultBins || hist.XMax != want.XMax || hist.Total() != 5000 {
		t.Fatalf("histogram %d bins to %g with %d points; want %d to %g with 5000", hist.NX, hist.XMax, hist.Total(), DefaultBins, want.XMax)
	}
	checkHeatmapPNG(t, h, 144)

	// Other bins, an explicit range with points outside, and a colour top.
	h.Bins, h.Min, h.Max, h.ColorTop = 20, 0, 10, 1000
	checkHeatmapPNG(t, h, 100)
	outside, err := h.Outside()
	if err != nil {
		t.Fatal(err)
	}
	hist, _ = h.Histogram()
	if outside == 0 || outside != hist.Outside || h.summary.N != 5000 || hist.Total()+hist.Outside != 5000 {
		t.Errorf("%d outside, histogram total %d outside %d", outside, hist.Total(), hist.Outside)
	}
}

func TestHeatmapMetricsBox(t *testing.T) {
	meas, pred := synthetic(3000)
	ev := evalOf(meas, pred)
	h := NewHeatmap(ev)
	h.Min, h.Max = 0, 10 // some points outside, to print that line too
	const dpi = 120
	hm := composeHeatmap(t, h, dpi)
	box := vg.Rectangle{
		Min: vg.Point{X: hm.data.Min.X + 10, Y: hm.data.Max.Y - 60},
		Max: vg.Point{X: hm.data.Min.X + 90, Y: hm.data.Max.Y - 10},
	}
	h.DPI = dpi
	with, err := h.PNG()
	if err != nil {
		t.Fatal(err)
	}
	h.NoMetrics = true
	without, err := h.PNG()
	if err != nil {
		t.Fatal(err)
	}
	iw, io := decodePNG(t, with), decodePNG(t, without)
	pm := pixelMapper{dpi: dpi, height: iw.Bounds().Dy()}
	if n := darkPixels(iw, pm, box); n < 100 {
		t.Errorf("%d dark pixels in the top-left corner with metrics, want text", n)
	}
	if n := darkPixels(io, pm, box); n != 0 {
		t.Errorf("%d dark pixels in the top-left corner without metrics, want none", n)
	}
	h.NoMetrics = false
	svg, err := h.SVG()
	if err != nil {
		t.Fatal(err)
	}
	text := parseXML(t, svg)
	for _, want := range []string{"MAPE", "Pearson r", "Kendall τ-b", "n", "outside", MeasuredLabel, PredictedLabel,
		strings.TrimSuffix(trimFloat(math.Round(ev.Summary.MAPE*100)/100), "0"), "3000"} {
		if !strings.Contains(text, want) {
			t.Errorf("SVG text lacks %q:\n%s", want, text)
		}
	}
}

// TestHeatmapRealData draws the uops.info Skylake mapping against the 2,000
// measured Skylake experiments of the PMEvo artifact: the numbers of the
// README's reference table, and a picture that matches its histogram.
func TestHeatmapRealData(t *testing.T) {
	datasettest.Need(t)
	m, err := dataset.PMEvoMapping("SKL", "uops_info")
	if err != nil {
		t.Fatal(err)
	}
	set, err := dataset.PMEvoExperiments("SKL", "eval_small")
	if err != nil {
		t.Fatal(err)
	}
	h := NewHeatmap(metrics.Evaluate(context.Background(), oracle.FromMapping(m), set))
	hist, err := h.Histogram()
	if err != nil {
		t.Fatal(err)
	}
	if st := h.stats(hist); st.N != 2000 || st.Outside != 0 || math.Abs(st.MAPE-9.55) > 0.005 || math.Abs(st.Pearson-0.913) > 0.0005 || math.Abs(st.KendallTauB-0.758) > 0.0005 {
		t.Errorf("stats %+v; want n 2000, MAPE 9.55 %%, Pearson 0.913, Kendall 0.758 (README)", st)
	}
	if h.Title != m.Name() || len(h.labels) != 2000 {
		t.Errorf("title %q, %d labels", h.Title, len(h.labels))
	}
	h.NoMetrics = true
	checkHeatmapPNG(t, h, 144)

	// The stored IACA predictions, on PMEvo's 0–35 cycle axes.
	ann, err := dataset.PMEvoExperiments("SKL", "eval_small_annotated")
	if err != nil {
		t.Fatal(err)
	}
	iaca := NewHeatmap(metrics.Evaluate(context.Background(), oracle.Stored(ann, "IACA"), ann))
	iaca.Min, iaca.Max, iaca.NoMetrics = 0, 35, true
	checkHeatmapPNG(t, iaca, 110)
	if iaca.Title != "IACA (stored)" {
		t.Errorf("title %q", iaca.Title)
	}
	if bad := NewHeatmap(metrics.Evaluate(context.Background(), oracle.Stored(ann, "nope"), ann)); bad.Err() == nil {
		t.Error("a heat map of an unknown tool has no error")
	}
}

func TestHeatmapErrors(t *testing.T) {
	for name, h := range map[string]*Heatmap{
		"lengths":  NewHeatmap(evalOf([]float64{1, 2}, []float64{1})),
		"empty":    NewHeatmap(evalOf(nil, nil)),
		"NaN":      NewHeatmap(evalOf([]float64{1, math.NaN()}, []float64{1, 2})),
		"infinite": NewHeatmap(evalOf([]float64{1, 2}, []float64{1, math.Inf(1)})),
		"nil":      NewHeatmap(nil),
	} {
		if h.Err() == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if _, err := h.PNG(); err == nil {
			t.Errorf("%s: PNG without error", name)
		}
		if _, err := h.SVG(); err == nil {
			t.Errorf("%s: SVG without error", name)
		}
		if s := h.HTML(); !strings.Contains(s, "portlab-error") {
			t.Errorf("%s: HTML %q shows no error", name, s)
		}
		if err := h.Save(filepath.Join(t.TempDir(), "x.png")); err == nil {
			t.Errorf("%s: Save without error", name)
		}
	}
	// An instruction the mapping does not know.
	m := fig31()
	other := fig31()
	other.MustSetUsage("div", "1*[p3]")
	e, _ := portmap.ExperimentOf(map[string]int{"div": 1, "add": 1})
	set := &portmap.ExperimentSet{Arch: other.Arch(), Measurements: []portmap.Measurement{{Experiment: e, Cycles: 2}}}
	if h := NewHeatmap(metrics.Evaluate(context.Background(), oracle.FromMapping(m), set)); h.Err() == nil || !strings.Contains(h.Err().Error(), "div") {
		t.Errorf("prediction with an unknown instruction only: %v", h.Err())
	}
	// Some experiments not predicted: the rest is drawn, the box says so.
	set.Measurements = append(set.Measurements, portmap.Measurement{Experiment: portmap.NewExperiment("add", "mul"), Cycles: 1.2})
	h := NewHeatmap(metrics.Evaluate(context.Background(), oracle.FromMapping(m), set))
	if svg, err := h.SVG(); err != nil || !strings.Contains(parseXML(t, svg), "not predicted") {
		t.Errorf("a heat map with an unpredicted experiment: %v", err)
	}
	// Constant predictions: correlations undefined, still drawn.
	h = NewHeatmap(evalOf([]float64{1, 2, 3}, []float64{2, 2, 2}))
	hist, err := h.Histogram()
	if st := h.stats(hist); err != nil || !math.IsNaN(st.Pearson) || math.IsNaN(st.MAPE) {
		t.Errorf("constant predictions: %+v, %v", st, err)
	}
	svg, err := h.SVG()
	if err != nil || !strings.Contains(parseXML(t, svg), "undefined") {
		t.Errorf("constant predictions: SVG %v, no \"undefined\"", err)
	}
}

func TestHeatmapGrid(t *testing.T) {
	var panels []*Heatmap
	for i := range 5 {
		meas, pred := synthetic(1000 * (i + 1))
		panels = append(panels, NewHeatmap(evalOf(meas, pred)).Titled("panel "+string(rune('A'+i))))
	}
	g := NewHeatmapGrid(3, panels...).Titled("five predictors")
	g.DPI = 100
	b, err := g.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, b)
	w, h := g.size()
	if img.Bounds().Dx() != int(w/vg.Inch*100+0.5) || img.Bounds().Dy() != int(h/vg.Inch*100+0.5) {
		t.Errorf("grid is %v, want %v × %v points", img.Bounds(), w, h)
	}
	if rows, cols := g.shape(); rows != 2 || cols != 3 {
		t.Errorf("shape %d × %d, want 2 × 3", rows, cols)
	}
	// One diagonal per panel: plenty of orange.
	if n := countColor(img, DiagonalColor, 20); n < 5*150 {
		t.Errorf("%d orange pixels for 5 diagonals", n)
	}
	svg, err := g.SVG()
	if err != nil {
		t.Fatal(err)
	}
	text := parseXML(t, svg)
	for _, want := range []string{"five predictors", "panel A", "panel E", "experiments per bin"} {
		if !strings.Contains(text, want) {
			t.Errorf("grid SVG lacks %q", want)
		}
	}
	if strings.Count(text, "MAPE") != 5 {
		t.Errorf("grid SVG has %d metrics boxes, want 5", strings.Count(text, "MAPE"))
	}
	if NewHeatmapGrid(2).Err() == nil || NewHeatmapGrid(2, panels[0], NewHeatmap(evalOf(nil, nil))).Err() == nil {
		t.Error("grid without panels or with a bad panel has no error")
	}
}

func TestSave(t *testing.T) {
	meas, pred := synthetic(500)
	h := NewHeatmap(evalOf(meas, pred)).Titled("save")
	dir := t.TempDir()
	for _, name := range []string{"h.png", "h.svg", "h.html", "h.pdf", "H.PNG"} {
		p := filepath.Join(dir, name)
		if err := h.Save(p); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		switch strings.ToLower(filepath.Ext(name)) {
		case ".png":
			decodePNG(t, b)
		case ".svg":
			parseXML(t, b)
		case ".html":
			if !strings.HasPrefix(string(b), "<!DOCTYPE html>") || !strings.Contains(string(b), `class="portlab-chart"`) {
				t.Errorf("%s is not a page with a chart", name)
			}
		case ".pdf":
			if !strings.HasPrefix(string(b), "%PDF") {
				t.Errorf("%s is not a PDF", name)
			}
		}
	}
	if err := h.Save(filepath.Join(dir, "h.txt")); err == nil {
		t.Error("saving as .txt: no error")
	}
	// A static figure saved as HTML embeds its SVG.
	g := NewMappingGraph(fig31())
	p := filepath.Join(dir, "g.html")
	if err := g.Save(p); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); !strings.Contains(string(b), "<svg") {
		t.Error("mapping graph saved as HTML has no SVG")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}
