package plots

import (
	"html"
	"image/color"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/plots/internal/echarts"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Scatter is the point-by-point view of the same data as a Heatmap:
// measured (x) against predicted (y), one translucent dot per experiment,
// the diagonal y = x and the metrics box. Its interactive version names the
// experiment under the pointer and zooms with the mouse wheel, which makes
// it the tool for finding the outliers of a heat map. For more than a few
// thousand points prefer the heat map for print: dots overlap.
type Scatter struct {
	// Title, XLabel, YLabel, Min, Max, NoMetrics, Width, Height and DPI
	// mean what they mean for a Heatmap.
	Title          string
	XLabel, YLabel string
	Min, Max       float64
	NoMetrics      bool
	Width, Height  float64
	DPI            float64

	h *Heatmap // the data, the range and the metrics
}

// NewScatter returns the scatter plot of an evaluation (see NewHeatmap),
// its points labelled with the experiments. Errors are kept and reported
// by Err.
func NewScatter(ev *metrics.Evaluation) *Scatter {
	h := NewHeatmap(ev)
	return &Scatter{h: h, Title: h.Title}
}

// ScatterOfHeatmap returns the scatter plot of the data of h, with its
// labels, title, axis labels and range.
func ScatterOfHeatmap(h *Heatmap) *Scatter {
	return &Scatter{h: h, Title: h.Title, XLabel: h.XLabel, YLabel: h.YLabel, Min: h.Min, Max: h.Max}
}

// Titled sets the title and returns s.
func (s *Scatter) Titled(title string) *Scatter { s.Title = title; return s }

// Err returns the error that makes s impossible to draw, if any.
func (s *Scatter) Err() error { return s.h.err }

// heatmap returns the underlying heat map with s's settings.
func (s *Scatter) heatmap() *Heatmap {
	h := *s.h
	h.Title, h.XLabel, h.YLabel, h.Min, h.Max, h.NoMetrics = s.Title, s.XLabel, s.YLabel, s.Min, s.Max, s.NoMetrics
	h.Bins = 1
	return &h
}

func (s *Scatter) size() (w, h vg.Length) { return inches(s.Width, 5.2), inches(s.Height, 4.8) }

func (s *Scatter) drawTo(c draw.Canvas) error {
	h := s.heatmap()
	hist, err := h.Histogram()
	if err != nil {
		return err
	}
	st := h.stats(hist)
	xl, yl := h.XLabel, h.YLabel
	if xl == "" {
		xl = MeasuredLabel
	}
	if yl == "" {
		yl = PredictedLabel
	}
	pl := newPlot(h.Title, xl, yl)
	pl.X.Min, pl.X.Max = hist.XMin, hist.XMax
	pl.Y.Min, pl.Y.Max = hist.YMin, hist.YMax
	pl.X.Padding, pl.Y.Padding = 0, 0
	pl.Add(&dotsPlotter{x: h.measured, y: h.predicted})
	pl.Add(diagonal{lo: max(hist.XMin, hist.YMin), hi: min(hist.XMax, hist.YMax)}, frame{})
	if st != nil {
		pl.Add(metricsBox{lines: st.lines(hist), size: 9})
	}
	squarePlot(&c, pl, vg.Points(12))
	pl.Draw(c)
	return nil
}

// dotsPlotter draws translucent dots, skipping points outside the data
// area.
type dotsPlotter struct{ x, y []float64 }

var dotColor = color.NRGBA{R: 0x21, G: 0x71, B: 0xb5, A: 0x60}

func (d *dotsPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	r := vg.Points(1.6)
	c.SetColor(dotColor)
	for i := range d.x {
		pt := vg.Point{X: trX(d.x[i]), Y: trY(d.y[i])}
		if !c.Contains(pt) {
			continue
		}
		var path vg.Path
		path.Move(vg.Point{X: pt.X + r, Y: pt.Y})
		path.Arc(pt, r, 0, 2*3.141592653589793)
		path.Close()
		c.Fill(path)
	}
}

// PNG renders s as a PNG image.
func (s *Scatter) PNG() ([]byte, error) {
	if err := s.Err(); err != nil {
		return nil, err
	}
	return renderPNG(s, s.DPI)
}

// SVG renders s as an SVG document.
func (s *Scatter) SVG() ([]byte, error) {
	if err := s.Err(); err != nil {
		return nil, err
	}
	return renderSVG(s)
}

// Save writes s to path; see SaveFigure.
func (s *Scatter) Save(path string) error { return SaveFigure(s, path) }

// largeScatter is the number of points from which ECharts draws a scatter
// series in its "large" mode (one path, no per-point hover effects).
const largeScatter = 5000

// HTML returns the interactive scatter plot: hovering a dot shows its
// measured and predicted values and, if s has labels, its experiment; the
// mouse wheel zooms and dragging pans. See Interactive.
func (s *Scatter) HTML() string {
	h := s.heatmap()
	hist, err := h.Histogram()
	if err != nil {
		return errorHTML(err)
	}
	w, ht := s.size()
	width, height := htmlPixels(w), htmlPixels(ht)
	labeled := len(h.labels) == len(h.measured)
	data := make([]opts.ScatterData, len(h.measured))
	for i := range h.measured {
		data[i] = opts.ScatterData{Value: []float64{h.measured[i], h.predicted[i]}}
		if labeled {
			data[i].Name = html.EscapeString(h.labels[i])
		}
	}
	sc := charts.NewScatter()
	sc.SetGlobalOptions(charts.WithAnimation(false))
	sc.AddSeries("experiments", data, charts.WithScatterChartOpts(opts.ScatterChart{XAxisIndex: 0, YAxisIndex: 0}))
	lo, hi := max(hist.XMin, hist.YMin), min(hist.XMax, hist.YMax)
	diag := charts.NewLine()
	diag.AddSeries("y = x", []opts.LineData{{Value: []float64{lo, lo}}, {Value: []float64{hi, hi}}},
		charts.WithLineChartOpts(opts.LineChart{Symbol: "none", ShowSymbol: opts.Bool(false)}),
		charts.WithLineStyleOpts(opts.LineStyle{Color: hex(DiagonalColor), Width: 1.5}))
	sc.Overlap(diag)
	xl, yl := h.XLabel, h.YLabel
	if xl == "" {
		xl = MeasuredLabel
	}
	if yl == "" {
		yl = PredictedLabel
	}
	gridTop := 24
	if h.Title != "" {
		gridTop = 48
	}
	const left, bottom, right = 74, 58, 30
	side := max(min(width-left-right, height-gridTop-bottom), 100)
	patch := map[string]any{
		"textStyle": jsTextStyle,
		"toolbox":   jsToolbox,
		"legend":    nil,
		"title":     jsTitle(h.Title),
		"grid":      map[string]any{"left": left, "top": gridTop, "width": side, "height": side},
		"xAxis":     []any{jsValueAxis("bottom", xl, hist.XMin, hist.XMax, 30)},
		"yAxis":     []any{jsValueAxis("left", yl, hist.YMin, hist.YMax, 40)},
		"dataZoom": []any{
			map[string]any{"type": "inside", "xAxisIndex": 0, "filterMode": "none"},
			map[string]any{"type": "inside", "yAxisIndex": 0, "filterMode": "none"},
		},
		"tooltip": map[string]any{"trigger": "item", "confine": true, "extraCssText": jsTooltipCSS,
			"formatter": echarts.Func(`function (p) {
			if (p.seriesType !== "scatter") return "";
			var v = p.value, f = function (x) { return +x.toPrecision(4); };
			var s = "measured " + f(v[0]) + "<br>predicted " + f(v[1]);
			var nm = p.data && p.data.name;
			if (nm) s = nm + "<br>" + s;
			return s;
		}`)},
	}
	if st := h.stats(hist); st != nil {
		patch["graphic"] = metricsGraphic(*st, hist, left, gridTop)
	}
	dots := map[string]any{"symbolSize": 4, "itemStyle": map[string]any{"color": "rgba(33,113,181,0.45)"}}
	if len(data) >= largeScatter {
		dots["large"], dots["largeThreshold"] = true, largeScatter
	}
	o := option(sc, patch, dots, map[string]any{"silent": true, "z": 5, "tooltip": map[string]any{"show": false}})
	return fragment(o, width, height, h.Title)
}
