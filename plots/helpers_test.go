package plots

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/portmap"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// evalOf returns the evaluation of bare numbers, for drawing.
func evalOf(meas, pred []float64) *metrics.Evaluation {
	return metrics.EvaluationOf("test", meas, pred)
}

// labelled returns the evaluation of bare numbers whose experiments are
// {name(i) ↦ 1}.
func labelled(meas, pred []float64, name func(i int) string) *metrics.Evaluation {
	ev := evalOf(meas, pred)
	ev.Experiments = make([]portmap.Experiment, len(ev.Measured))
	for i := range ev.Experiments {
		ev.Experiments[i] = portmap.NewExperiment(name(i))
	}
	return ev
}

// labelledAs is labelled with the experiments {labels[i] ↦ 1}.
func labelledAs(meas, pred []float64, labels []string) *metrics.Evaluation {
	return labelled(meas, pred, func(i int) string { return labels[i] })
}

// decodePNG decodes a PNG and fails t on error.
func decodePNG(t testing.TB, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("decoding PNG: %v", err)
	}
	return img
}

// parseXML checks that b is well-formed XML and returns its character
// data (the text of the SVG) joined by newlines.
func parseXML(t testing.TB, b []byte) string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	var text []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		if cd, ok := tok.(xml.CharData); ok {
			if s := strings.TrimSpace(string(cd)); s != "" {
				text = append(text, s)
			}
		}
	}
	return strings.Join(text, "\n")
}

// dist is the largest channel difference of two colours, 0…255.
func dist(a, b color.Color) int {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	d := func(x, y uint32) int { return int(math.Abs(float64(x>>8) - float64(y>>8))) }
	return max(d(r1, r2), d(g1, g2), d(b1, b2))
}

var white = color.RGBA{255, 255, 255, 255}

// pixelMapper converts canvas coordinates (points, origin bottom left) of
// a figure rendered at dpi into image pixels.
type pixelMapper struct {
	dpi    float64
	height int
}

func (m pixelMapper) at(p vg.Point) image.Point {
	s := m.dpi / 72
	return image.Point{X: int(float64(p.X) * s), Y: m.height - 1 - int(float64(p.Y)*s)}
}

// composeHeatmap lays h out on a canvas of its size at dpi, exactly as
// PNG does, and returns the layout.
func composeHeatmap(t testing.TB, h *Heatmap, dpi float64) composed {
	t.Helper()
	w, ht := h.size()
	c := draw.New(vgimg.NewWith(vgimg.UseWH(w, ht), vgimg.UseDPI(int(dpi))))
	hm, err := h.compose(&c)
	if err != nil {
		t.Fatal(err)
	}
	return hm
}

// synthetic returns n (measured, predicted) pairs like a port-mapping
// evaluation: measured values from 0.25 to about 30 cycles, predictions
// mostly close, a tenth of them underestimated, from a fixed seed.
func synthetic(n int) (measured, predicted []float64) {
	r := rand.New(rand.NewPCG(1, 2))
	measured, predicted = make([]float64, n), make([]float64, n)
	for i := range measured {
		m := math.Round(math.Exp(r.NormFloat64()*0.8+1)*100) / 100
		m = max(0.25, min(m, 30))
		p := m * (1 + 0.05*r.NormFloat64())
		if r.IntN(10) == 0 {
			p = m * (0.3 + 0.5*r.Float64())
		}
		measured[i], predicted[i] = m, max(p, 0.25)
	}
	return measured, predicted
}

// countColor returns how many pixels of img are within tol of c.
func countColor(img image.Image, c color.Color, tol int) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if dist(img.At(x, y), c) <= tol {
				n++
			}
		}
	}
	return n
}

// fig31 is the mapping of thesis Fig. 3.1: mul on p1, add on p1 or p2,
// store on p3.
func fig31() *portmap.Mapping {
	m := portmap.MustMapping("fig3.1", "p1", "p2", "p3")
	return m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]")
}
