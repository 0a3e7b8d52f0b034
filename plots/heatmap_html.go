package plots

import (
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/plots/internal/echarts"
)

// examplesPerBin is how many labels the interactive heat map shows for a
// bin.
const examplesPerBin = 3

// HTML returns the interactive heat map: the same bins, colour scale,
// diagonal and metrics as the static figure, drawn by ECharts; hovering a
// bin shows its measured and predicted range, its count and, if the heat
// map has labels, up to three of its experiments. The colour bar is a
// slider that hides bins outside a count range. See Interactive.
func (h *Heatmap) HTML() string {
	hist, err := h.Histogram()
	if err != nil {
		return errorHTML(err)
	}
	w, ht := h.size()
	width, height := htmlPixels(w), htmlPixels(ht)
	top := h.ColorTop
	if top <= 0 {
		top = hist.Max()
	}
	o := h.echartsOption(hist, max(top, 1), h.stats(hist), width, height)
	return fragment(o, width, height, h.Title)
}

func (h *Heatmap) echartsOption(hist *metrics.Histogram2D, top int, st *boxStats, width, height int) map[string]any {
	var examples [][]string
	if len(h.labels) == len(h.measured) {
		examples = make([][]string, hist.NX*hist.NY)
		for i, l := range h.labels {
			ix, iy, ok := hist.BinOf(h.measured[i], h.predicted[i])
			if k := iy*hist.NX + ix; ok && len(examples[k]) < examplesPerBin {
				examples[k] = append(examples[k], html.EscapeString(l))
			}
		}
	}
	xe, ye := hist.XEdges(), hist.YEdges()
	var data []opts.HeatMapData
	for iy, row := range hist.Counts {
		for ix, n := range row {
			if n == 0 {
				continue
			}
			d := opts.HeatMapData{Value: []any{ix, iy, math.Log10(float64(n)), n, xe[ix], xe[ix+1], ye[iy], ye[iy+1]}}
			if examples != nil {
				d.Name = strings.Join(examples[iy*hist.NX+ix], "<br>")
			}
			data = append(data, d)
		}
	}
	cats := func(n int) []string {
		c := make([]string, n)
		for i := range c {
			c[i] = strconv.Itoa(i)
		}
		return c
	}

	// Layout: a square grid, the colour bar to its right.
	gridTop := 24
	if h.Title != "" {
		gridTop = 48
	}
	const left, bottom, right = 74, 58, 120
	side := max(min(width-left-right, height-gridTop-bottom), 100)

	xl, yl := h.XLabel, h.YLabel
	if xl == "" {
		xl = MeasuredLabel
	}
	if yl == "" {
		yl = PredictedLabel
	}
	// The bins live on two hidden category axes (ECharts' heatmap needs
	// them); the diagonal and the visible ticks on two value axes over the
	// same square.
	hm := charts.NewHeatMap()
	hm.SetGlobalOptions(charts.WithAnimation(false))
	hm.AddSeries("bins", data,
		charts.WithHeatMapChartOpts(opts.HeatMapChart{XAxisIndex: 0, YAxisIndex: 0}),
		charts.WithEmphasisOpts(opts.Emphasis{ItemStyle: &opts.ItemStyle{BorderColor: "#000", BorderWidth: 1}}))
	lo, hi := max(hist.XMin, hist.YMin), min(hist.XMax, hist.YMax)
	diag := charts.NewLine()
	diag.AddSeries("y = x", []opts.LineData{{Value: []float64{lo, lo}}, {Value: []float64{hi, hi}}},
		charts.WithLineChartOpts(opts.LineChart{XAxisIndex: 1, YAxisIndex: 1, Symbol: "none", ShowSymbol: opts.Bool(false)}),
		charts.WithLineStyleOpts(opts.LineStyle{Color: hex(DiagonalColor), Width: 1.5}))
	hm.Overlap(diag)
	hidden := func(n int) map[string]any {
		return map[string]any{"type": "category", "data": cats(n), "show": false}
	}
	stops := make([]string, len(countStops))
	for i, c := range countStops {
		stops[i] = hex(c)
	}
	logTop := math.Log10(float64(top))
	patch := map[string]any{
		"textStyle": jsTextStyle,
		"toolbox":   jsToolbox,
		"legend":    nil,
		"title":     jsTitle(h.Title),
		"grid":      map[string]any{"left": left, "top": gridTop, "width": side, "height": side},
		"xAxis":     []any{hidden(hist.NX), jsValueAxis("bottom", xl, hist.XMin, hist.XMax, 30)},
		"yAxis":     []any{hidden(hist.NY), jsValueAxis("left", yl, hist.YMin, hist.YMax, 40)},
		"tooltip": map[string]any{"trigger": "item", "confine": true, "extraCssText": jsTooltipCSS, "formatter": echarts.Func(`function (p) {
			if (p.seriesType !== "heatmap") return "";
			var v = p.value, f = function (x) { return +x.toPrecision(4); };
			var s = "measured " + f(v[4]) + " – " + f(v[5]) + "<br>predicted " + f(v[6]) + " – " + f(v[7]) +
				"<br><b>" + v[3] + "</b> experiment" + (v[3] === 1 ? "" : "s");
			var nm = p.data && p.data.name;
			if (nm) s += "<br><span style=\"color:#555\">" + (v[3] > ` + strconv.Itoa(examplesPerBin) + ` ? "e.g. " : "") + nm + "</span>";
			return s;
		}`)},
		"visualMap": map[string]any{
			"type": "continuous", "seriesIndex": 0, "dimension": 2, "min": 0, "max": max(logTop, 1e-9),
			"calculable": true, "orient": "vertical", "left": left + side + 22, "top": gridTop,
			"itemHeight": max(side-40, 60), "itemWidth": 14,
			"inRange":   map[string]any{"color": stops},
			"formatter": echarts.Func(`function (v) { return String(Math.round(Math.pow(10, v))); }`),
		},
	}
	if st != nil {
		patch["graphic"] = metricsGraphic(*st, hist, left, gridTop)
	}
	return option(hm, patch, nil, map[string]any{"silent": true, "z": 5, "tooltip": map[string]any{"show": false}})
}

// metricsGraphic is the ECharts graphic of the metrics box at the top left
// of a grid whose corner is (left, top).
func metricsGraphic(st boxStats, hist *metrics.Histogram2D, left, top int) []any {
	var b strings.Builder
	for i, l := range st.lines(hist) {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l[0] + "  " + l[1])
	}
	return []any{map[string]any{
		"type": "text", "left": left + 8, "top": top + 8, "z": 100, "silent": true,
		"style": map[string]any{
			"text": b.String(), "font": "12px " + jsFont, "fill": "#111", "lineHeight": 17,
			"backgroundColor": "rgba(255,255,255,0.92)", "borderColor": "#999", "borderWidth": 0.5,
			"padding": []int{5, 7},
		},
	}}
}
