package plots

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"github.com/portlab/portlab/lib/metrics"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// DefaultBins is the number of bins per axis of a heat map, as in PMEvo's
// Fig. 7 (thesis Figs. 5.2, 5.3).
const DefaultBins = 35

// Default labels of heat map axes.
const (
	MeasuredLabel  = "measured inverse throughput [cycles]"
	PredictedLabel = "predicted inverse throughput [cycles]"
)

// Heatmap is the prediction heat map of PMEvo Fig. 7 and thesis Figs.
// 3.6, 3.7, 5.2 and 5.3: a 2-D histogram of measured (x) against predicted
// (y) inverse throughputs over Bins × Bins equal bins of a common square
// range, each non-empty bin coloured by its count on a logarithmic colour
// scale (with a colour bar), empty bins left white, the diagonal y = x in
// orange, and MAPE, Pearson's r, Kendall's τ-b and n printed in the
// top-left corner. Points below the diagonal are underestimated, points
// above it overestimated.
//
// Points outside the range are not drawn; they are counted and the count
// is printed with the metrics, which are always computed over all points.
// Binning and metrics take a few milliseconds for 40,000 points, so a
// Heatmap computes them afresh at every rendering: change its fields
// freely between renderings.
type Heatmap struct {
	// Title is printed above the plot; empty for none.
	Title string
	// XLabel and YLabel label the axes; empty means MeasuredLabel and
	// PredictedLabel.
	XLabel, YLabel string
	// Bins is the number of bins per axis; 0 means DefaultBins.
	Bins int
	// Min and Max set the common range of both axes. If Max ≤ Min (the
	// default), the range is [0, top] with top the smallest 1, 2, 2.5 or
	// 5 × 10^k at least the largest value (metrics.NewHeatmapHistogram).
	Min, Max float64
	// ColorTop is the count at the dark end of the colour scale; 0 means
	// the largest bin count. Set it to compare several heat maps.
	ColorTop int
	// NoMetrics omits the box of metrics in the top-left corner.
	NoMetrics bool
	// Width and Height are the figure size in inches (default 5.6 × 4.8);
	// DPI is the PNG resolution (default DefaultDPI). The HTML version is
	// 112 CSS pixels per inch of this size.
	Width, Height, DPI float64

	measured, predicted []float64
	labels              []string
	summary             metrics.Summary
	leftOut             int // experiments the predictor could not predict
	err                 error
}

// NewHeatmap returns the heat map of an evaluation: its predicted against
// its measured inverse throughputs, titled with the predictor's name, the
// experiments as labels of the interactive version and the evaluation's
// metrics in the corner. This is the one road to a heat map: compare first
// (metrics.Evaluate for a predictor and a measured set, metrics.EvaluationOf
// for bare numbers), then draw. An evaluation that failed, or data that
// cannot be drawn (NaN or infinite values), is kept and reported by Err and
// by every rendering method.
func NewHeatmap(ev *metrics.Evaluation) *Heatmap {
	if ev == nil {
		return &Heatmap{err: fmt.Errorf("plots: heat map of a nil evaluation")}
	}
	h := &Heatmap{Title: ev.Predictor, measured: ev.Measured, predicted: ev.Predicted, labels: ev.Labels(), summary: ev.Summary, leftOut: len(ev.Failures)}
	if h.err = ev.Err(); h.err == nil {
		h.err = checkPairs("heat map", ev.Measured, ev.Predicted)
	}
	return h
}

// Titled sets the title and returns h, for one-line use in a notebook.
func (h *Heatmap) Titled(title string) *Heatmap { h.Title = title; return h }

// Err returns the error that makes h impossible to draw, if any.
func (h *Heatmap) Err() error { return h.err }

// Len returns the number of points.
func (h *Heatmap) Len() int { return len(h.measured) }

// Histogram returns the 2-D histogram h draws, with the bins and range in
// effect: measured on x, predicted on y, Counts[iy][ix].
func (h *Heatmap) Histogram() (*metrics.Histogram2D, error) {
	if h.err != nil {
		return nil, h.err
	}
	bins := h.Bins
	if bins <= 0 {
		bins = DefaultBins
	}
	if h.Max > h.Min {
		return metrics.NewHistogram2D(h.measured, h.predicted, bins, bins, h.Min, h.Max, h.Min, h.Max)
	}
	return metrics.NewHeatmapHistogram(h.measured, h.predicted, bins)
}

// Outside returns the number of points outside the plotted range (they
// are not drawn, but count in the metrics).
func (h *Heatmap) Outside() (int, error) {
	hist, err := h.Histogram()
	if err != nil {
		return 0, err
	}
	return hist.Outside, nil
}

// boxStats are the numbers printed in a heat map's corner: the metrics of
// its evaluation and the points outside the range.
type boxStats struct {
	metrics.Summary
	Outside, LeftOut int
}

// stats returns the numbers of h's metrics box.
func (h *Heatmap) stats(hist *metrics.Histogram2D) *boxStats {
	if h.NoMetrics {
		return nil
	}
	return &boxStats{Summary: h.summary, Outside: hist.Outside, LeftOut: h.leftOut}
}

func (h *Heatmap) size() (w, ht vg.Length) { return inches(h.Width, 5.6), inches(h.Height, 4.8) }

func (h *Heatmap) drawTo(c draw.Canvas) error {
	hm, err := h.compose(&c)
	if err != nil {
		return err
	}
	hm.plot.Draw(c)
	drawColorBar(c, hm.data, hm.scale, "experiments per bin")
	return nil
}

// composed is a heat map laid out on a canvas: its plot, the data area
// (the square of the bins) and the colour scale.
type composed struct {
	plot  *plot.Plot
	data  draw.Canvas
	scale logScale
	hist  *metrics.Histogram2D
}

// compose lays h out on c, cropping c to the part the plot takes.
func (h *Heatmap) compose(c *draw.Canvas) (composed, error) {
	hist, err := h.Histogram()
	if err != nil {
		return composed{}, err
	}
	top := h.ColorTop
	if top <= 0 {
		top = hist.Max()
	}
	scale := logScale{top: float64(max(top, 1))}
	pl := h.plot(hist, scale, h.stats(hist), false)
	da := squarePlot(c, pl, colorBarWidth)
	return composed{plot: pl, data: da, scale: scale, hist: hist}, nil
}

// PNG renders h as a PNG image.
func (h *Heatmap) PNG() ([]byte, error) {
	if h.err != nil {
		return nil, h.err
	}
	return renderPNG(h, h.DPI)
}

// SVG renders h as an SVG document.
func (h *Heatmap) SVG() ([]byte, error) {
	if h.err != nil {
		return nil, h.err
	}
	return renderSVG(h)
}

// Save writes h to path; see SaveFigure.
func (h *Heatmap) Save(path string) error { return SaveFigure(h, path) }

// plot returns the gonum plot of the heat map without colour bar; small
// selects the smaller fonts of a panel in a grid.
func (h *Heatmap) plot(hist *metrics.Histogram2D, scale logScale, st *boxStats, small bool) *plot.Plot {
	xl, yl := h.XLabel, h.YLabel
	if xl == "" {
		xl = MeasuredLabel
	}
	if yl == "" {
		yl = PredictedLabel
	}
	p := newPlot(h.Title, xl, yl)
	boxSize := vg.Length(9)
	if small {
		boxSize = 7.5
		p.Title.TextStyle.Font.Size = 10
		p.X.Label.TextStyle.Font.Size, p.Y.Label.TextStyle.Font.Size = 8.5, 8.5
		p.X.Tick.Label.Font.Size, p.Y.Tick.Label.Font.Size = 8, 8
	}
	p.X.Min, p.X.Max = hist.XMin, hist.XMax
	p.Y.Min, p.Y.Max = hist.YMin, hist.YMax
	p.X.Padding, p.Y.Padding = 0, 0
	p.Add(&binsPlotter{hist: hist, scale: scale})
	p.Add(diagonal{lo: max(hist.XMin, hist.YMin), hi: min(hist.XMax, hist.YMax)})
	p.Add(frame{})
	if st != nil {
		p.Add(metricsBox{lines: st.lines(hist), size: boxSize})
	}
	return p
}

// lines returns the rows of the metrics box: label and value.
func (s boxStats) lines(hist *metrics.Histogram2D) [][2]string {
	num := func(v float64, digits int, unit string) string {
		if math.IsNaN(v) {
			return "undefined"
		}
		return strconv.FormatFloat(v, 'f', digits, 64) + unit
	}
	rows := [][2]string{
		{"MAPE", num(s.MAPE, 2, " %")},
		{"Pearson r", num(s.Pearson, 3, "")},
		{"Kendall τ-b", num(s.KendallTauB, 3, "")},
		{"n", strconv.Itoa(s.N)},
	}
	if s.Outside > 0 {
		rows = append(rows, [2]string{"outside", outsideText(hist)})
	}
	if s.LeftOut > 0 {
		rows = append(rows, [2]string{"not predicted", strconv.Itoa(s.LeftOut)})
	}
	return rows
}

// outsideText describes the points outside the range, e.g.
// "12 (10 right, 2 above)"; a point beyond a corner counts on both sides.
func outsideText(h *metrics.Histogram2D) string {
	s := strconv.Itoa(h.Outside) + " ("
	sep := ""
	for _, side := range []struct {
		n     int
		arrow string
	}{{h.Right, "right"}, {h.Above, "above"}, {h.Left, "left"}, {h.Below, "below"}} {
		if side.n > 0 {
			s += sep + strconv.Itoa(side.n) + " " + side.arrow
			sep = ", "
		}
	}
	return s + ")"
}

// binsPlotter draws the non-empty bins of a histogram.
type binsPlotter struct {
	hist  *metrics.Histogram2D
	scale logScale
}

func (b *binsPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	xe, ye := b.hist.XEdges(), b.hist.YEdges()
	// Grow every square by a hair to the right and up so that neighbours
	// overlap and anti-aliasing leaves no seams between them.
	const seam = vg.Length(0.35)
	for iy, row := range b.hist.Counts {
		y0, y1 := trY(ye[iy]), trY(ye[iy+1])
		for ix, n := range row {
			if n == 0 {
				continue
			}
			x0, x1 := trX(xe[ix]), trX(xe[ix+1])
			r := vg.Rectangle{Min: vg.Point{X: x0, Y: y0}, Max: vg.Point{X: min(x1+seam, c.Max.X), Y: min(y1+seam, c.Max.Y)}}
			c.SetColor(b.scale.color(float64(n)))
			c.Fill(rectPath(r))
		}
	}
}

// diagonal draws the line y = x from (lo, lo) to (hi, hi).
type diagonal struct{ lo, hi float64 }

func (d diagonal) Plot(c draw.Canvas, p *plot.Plot) {
	if !(d.hi > d.lo) {
		return
	}
	trX, trY := p.Transforms(&c)
	c.StrokeLines(draw.LineStyle{Color: DiagonalColor, Width: vg.Points(1.25)},
		[]vg.Point{{X: trX(d.lo), Y: trY(d.lo)}, {X: trX(d.hi), Y: trY(d.hi)}})
}

// frame draws a thin box around the data area.
type frame struct{}

func (frame) Plot(c draw.Canvas, _ *plot.Plot) {
	var p vg.Path
	p.Move(c.Min)
	p.Line(vg.Point{X: c.Max.X, Y: c.Min.Y})
	p.Line(c.Max)
	p.Line(vg.Point{X: c.Min.X, Y: c.Max.Y})
	p.Close()
	c.SetLineStyle(draw.LineStyle{Color: darkGrey, Width: vg.Points(0.75)})
	c.Stroke(p)
}

// metricsBox prints label/value rows in a white box in the top-left corner
// of the data area.
type metricsBox struct {
	lines [][2]string
	size  vg.Length
}

func (m metricsBox) Plot(c draw.Canvas, _ *plot.Plot) {
	drawTextBox(c, m.lines, m.size)
}

func drawTextBox(c draw.Canvas, lines [][2]string, size vg.Length) {
	sty := textStyle(size, black)
	ext := sty.FontExtents()
	lineH := ext.Height * 1.15
	var wl, wv vg.Length
	for _, l := range lines {
		wl = max(wl, sty.Width(l[0]))
		wv = max(wv, sty.Width(l[1]))
	}
	pad, gap := vg.Points(5), vg.Points(8)
	inset := vg.Points(6)
	w := pad + wl + gap + wv + pad
	h := pad + lineH*vg.Length(len(lines)) + pad - (lineH - ext.Height)
	r := vg.Rectangle{
		Min: vg.Point{X: c.Min.X + inset, Y: c.Max.Y - inset - h},
		Max: vg.Point{X: c.Min.X + inset + w, Y: c.Max.Y - inset},
	}
	c.SetColor(color.NRGBA{R: 255, G: 255, B: 255, A: 235})
	c.Fill(rectPath(r))
	c.SetLineStyle(draw.LineStyle{Color: midGrey, Width: vg.Points(0.5)})
	c.Stroke(rectPath(r))
	y := r.Max.Y - pad - ext.Ascent
	for _, l := range lines {
		sty.XAlign = draw.XLeft
		c.FillText(sty, vg.Point{X: r.Min.X + pad, Y: y}, l[0])
		sty.XAlign = draw.XRight
		c.FillText(sty, vg.Point{X: r.Max.X - pad, Y: y}, l[1])
		y -= lineH
	}
}

// colorBarWidth is the strip right of a heat map for its colour bar.
const colorBarWidth = vg.Length(0.95 * vg.Inch)

// squarePlot crops c (in place) so that p's data area is square and there
// is a strip of width strip on the right, centring the result; it returns
// the data area.
func squarePlot(c *draw.Canvas, p *plot.Plot, strip vg.Length) draw.Canvas {
	*c = draw.Crop(*c, 0, -strip, 0, 0)
	da := p.DataCanvas(*c)
	w, h := da.Max.X-da.Min.X, da.Max.Y-da.Min.Y
	switch {
	case w > h:
		d := (w - h) / 2
		*c = draw.Crop(*c, d, -d, 0, 0)
	case h > w:
		d := (h - w) / 2
		*c = draw.Crop(*c, 0, 0, d, -d)
	}
	return p.DataCanvas(*c)
}

// drawColorBar draws the logarithmic colour bar of scale right of the data
// area da, with decade ticks and the label title.
func drawColorBar(c draw.Canvas, da draw.Canvas, scale logScale, title string) {
	x0 := da.Max.X + vg.Points(12)
	x1 := x0 + vg.Points(11)
	y0, y1 := da.Min.Y, da.Max.Y
	const steps = 128
	for i := range steps {
		ya := y0 + (y1-y0)*vg.Length(i)/steps
		yb := y0 + (y1-y0)*vg.Length(i+1)/steps
		t := (float64(i) + 0.5) / steps
		c.SetColor(ramp(countStops, t))
		c.Fill(rectPath(vg.Rectangle{Min: vg.Point{X: x0, Y: ya}, Max: vg.Point{X: x1, Y: min(yb+0.3, y1)}}))
	}
	c.SetLineStyle(draw.LineStyle{Color: darkGrey, Width: vg.Points(0.5)})
	c.Stroke(rectPath(vg.Rectangle{Min: vg.Point{X: x0, Y: y0}, Max: vg.Point{X: x1, Y: y1}}))
	sty := textStyle(9, black)
	sty.YAlign = draw.YCenter
	tick := draw.LineStyle{Color: darkGrey, Width: vg.Points(0.75)}
	for _, tk := range colorTicks(scale.top) {
		y := y0 + (y1-y0)*vg.Length(scale.t(tk.v))
		if scale.top <= 1 {
			y = y0
		}
		c.StrokeLine2(tick, x1, y, x1+vg.Points(3), y)
		pt := vg.Point{X: x1 + vg.Points(5), Y: y}
		if tk.exp < 0 {
			c.FillText(sty, pt, tk.label)
			continue
		}
		// 10 with a raised, smaller exponent: Liberation lacks most
		// superscript digits.
		c.FillText(sty, pt, "10")
		es := textStyle(6.5, black)
		es.YAlign = draw.YCenter
		c.FillText(es, vg.Point{X: pt.X + sty.Width("10") + vg.Points(0.5), Y: y + vg.Points(3.5)}, strconv.Itoa(tk.exp))
	}
	if title != "" {
		ts := textStyle(9, darkGrey)
		ts.XAlign, ts.YAlign = draw.XCenter, draw.YBottom
		ts.Rotation = -math.Pi / 2
		c.FillText(ts, vg.Point{X: x1 + vg.Points(36), Y: (y0 + y1) / 2}, title)
	}
}

type colorTick struct {
	v     float64
	label string // the label if exp < 0
	exp   int    // if ≥ 0, the tick is 10^exp, drawn with a raised exponent
}

// colorTicks returns the ticks of a count scale from 1 to top: the powers
// of ten (10⁰, 10¹, …), or 1, 2, 5 steps below 10.
func colorTicks(top float64) []colorTick {
	if top < 10 {
		var ts []colorTick
		for _, v := range []float64{1, 2, 5} {
			if v <= top {
				ts = append(ts, colorTick{v, strconv.Itoa(int(v)), -1})
			}
		}
		return ts
	}
	var ts []colorTick
	for k := 0; math.Pow10(k) <= top*(1+1e-12); k++ {
		ts = append(ts, colorTick{math.Pow10(k), "", k})
	}
	return ts
}

func checkPairs(what string, measured, predicted []float64) error {
	if len(measured) != len(predicted) {
		return fmt.Errorf("plots: %s: %d measured values but %d predicted", what, len(measured), len(predicted))
	}
	if len(measured) == 0 {
		return fmt.Errorf("plots: %s: no points", what)
	}
	for i := range measured {
		if math.IsNaN(measured[i]) || math.IsInf(measured[i], 0) {
			return fmt.Errorf("plots: %s: measured[%d] = %v", what, i, measured[i])
		}
		if math.IsNaN(predicted[i]) || math.IsInf(predicted[i], 0) {
			return fmt.Errorf("plots: %s: predicted[%d] = %v", what, i, predicted[i])
		}
	}
	return nil
}
