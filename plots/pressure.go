package plots

import (
	"encoding/json"
	"fmt"
	"html"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
	"github.com/portlab/portlab/plots/internal/echarts"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PortPressure is the port pressure bar chart of an experiment: one bar per
// port with its load in cycles per execution of the experiment under an
// optimal schedule of the throughput LP, bars of bottleneck ports in
// HighlightColor and the others in BarColor, and a dashed line at the
// inverse throughput t*. With ByUop, each bar is split into the µops that
// the schedule puts on the port (thesis Fig. 3.2, the "bucket" chart) and
// bottleneck bars are framed in HighlightColor instead.
//
// Optimal schedules are not unique, so the load of a non-bottleneck port
// is that of the schedule found; bottleneck ports carry t* in every
// optimal schedule (thesis Thm 3.14).
type PortPressure struct {
	// Title is printed above the chart; PortPressureOf sets it to the
	// experiment.
	Title string
	// ByUop splits the bars into µops.
	ByUop bool
	// Width and Height are the figure size in inches (default 5.2 × 3.6);
	// DPI is the PNG resolution (default DefaultDPI). The HTML version is
	// 112 CSS pixels per inch of this size.
	Width, Height, DPI float64

	ports      []string
	pressure   []float64
	bottleneck []bool
	cycles     float64
	uops       []uopShare
	err        error
}

// uopShare is a µop kind and its load per port.
type uopShare struct {
	label  string
	onPort []float64
}

// NewPortPressure returns the bar chart of the given port loads (cycles
// per execution), with the named ports highlighted as the bottleneck and a
// line at cycles (none if cycles ≤ 0). Errors (lengths that differ, an
// unknown bottleneck port, a negative or non-finite load) are kept and
// reported by Err and the rendering methods.
func NewPortPressure(ports []string, pressure []float64, bottleneck []string, cycles float64) *PortPressure {
	pp := &PortPressure{ports: ports, pressure: pressure, bottleneck: make([]bool, len(ports)), cycles: cycles}
	switch {
	case len(ports) == 0:
		pp.err = fmt.Errorf("plots: port pressure: no ports")
	case len(pressure) != len(ports):
		pp.err = fmt.Errorf("plots: port pressure: %d ports but %d loads", len(ports), len(pressure))
	}
	for _, v := range pressure {
		if pp.err == nil && (math.IsNaN(v) || math.IsInf(v, 0) || v < 0) {
			pp.err = fmt.Errorf("plots: port pressure: load %v", v)
		}
	}
	for _, b := range bottleneck {
		k := indexOf(ports, b)
		if k < 0 {
			if pp.err == nil {
				pp.err = fmt.Errorf("plots: port pressure: bottleneck port %q is not among %v", b, ports)
			}
			continue
		}
		pp.bottleneck[k] = true
	}
	return pp
}

// PortPressureOf solves the throughput LP for e under m
// (throughput.LP) and computes the exact bottleneck ports
// (throughput.Bottleneck), and returns their bar chart, titled with e and
// split by µop for the tooltips of the interactive version. Errors (an
// instruction m does not map) are kept and reported by Err.
func PortPressureOf(m *portmap.Mapping, e portmap.Experiment) *PortPressure {
	s, err := throughput.LP(m, e)
	if err != nil {
		return &PortPressure{err: fmt.Errorf("plots: port pressure: %w", err)}
	}
	r, err := throughput.Bottleneck(m, e)
	if err != nil {
		return &PortPressure{err: fmt.Errorf("plots: port pressure: %w", err)}
	}
	pp := SchedulePressure(m.Arch(), s, r.Bottleneck)
	pp.Title = experimentTitle(e)
	return pp
}

// SchedulePressure returns the bar chart of an LP schedule of architecture
// a, with the bottleneck ports highlighted (use Result.Bottleneck of
// throughput.Bottleneck; Schedule.Tight may contain more ports).
func SchedulePressure(a *portmap.Architecture, s *throughput.Schedule, bottleneck portmap.PortSet) *PortPressure {
	pp := NewPortPressure(s.Ports, s.Pressure, a.PortNames(bottleneck), s.Cycles)
	for _, u := range s.Uops {
		pp.uops = append(pp.uops, uopShare{label: uopLabel(a, u.Ports), onPort: u.OnPort})
	}
	return pp
}

// uopLabel names a µop by its ports in uops.info notation, e.g. "p015".
func uopLabel(a *portmap.Architecture, s portmap.PortSet) string {
	return strings.TrimPrefix(portmap.FormatUsage([]portmap.Uop{{Ports: s, Count: 1}}, a), "1*")
}

// Titled sets the title and returns pp.
func (pp *PortPressure) Titled(title string) *PortPressure { pp.Title = title; return pp }

// Err returns the error that makes pp impossible to draw, if any.
func (pp *PortPressure) Err() error { return pp.err }

// Bottleneck returns the names of the highlighted ports.
func (pp *PortPressure) Bottleneck() []string {
	var out []string
	for k, b := range pp.bottleneck {
		if b {
			out = append(out, pp.ports[k])
		}
	}
	return out
}

func (pp *PortPressure) size() (w, h vg.Length) { return inches(pp.Width, 5.2), inches(pp.Height, 3.6) }

// PNG renders pp as a PNG image.
func (pp *PortPressure) PNG() ([]byte, error) {
	if pp.err != nil {
		return nil, pp.err
	}
	return renderPNG(pp, pp.DPI)
}

// SVG renders pp as an SVG document.
func (pp *PortPressure) SVG() ([]byte, error) {
	if pp.err != nil {
		return nil, pp.err
	}
	return renderSVG(pp)
}

// Save writes pp to path; see SaveFigure.
func (pp *PortPressure) Save(path string) error { return SaveFigure(pp, path) }

func (pp *PortPressure) top() float64 {
	top := pp.cycles
	for _, v := range pp.pressure {
		top = max(top, v)
	}
	if top <= 0 {
		top = 1
	}
	return top * 1.15
}

func (pp *PortPressure) drawTo(c draw.Canvas) error {
	if pp.err != nil {
		return pp.err
	}
	p := newPlot("", "port", "load [cycles per experiment]")
	p.NominalX(pp.ports...)
	p.X.Min, p.X.Max = -0.6, float64(len(pp.ports))-0.4
	p.Y.Min, p.Y.Max = 0, pp.top()
	p.Y.Padding = 0
	p.Add(hGrid{})
	p.Add(&bars{pp: pp})
	if pp.cycles > 0 {
		p.Add(cyclesLine{t: pp.cycles})
	}
	// The legend and the label of t* go in a strip right of the plot.
	items := pp.legend()
	strip := legendWidth(items) + vg.Points(14)
	if pp.cycles > 0 {
		strip = max(strip, textStyle(8, black).Width("t* = "+trimFloat(pp.cycles))+vg.Points(10))
	}
	pc := draw.Crop(c, 0, -strip, 0, 0)
	p.Title.Text = fitText(p.Title.TextStyle, pp.Title, pc.Max.X-pc.Min.X-vg.Points(12))
	p.Draw(pc)
	da := p.DataCanvas(pc)
	x := da.Max.X + vg.Points(8)
	yTop := da.Max.Y - vg.Points(4)
	if pp.cycles > 0 {
		_, trY := p.Transforms(&da)
		y := trY(pp.cycles)
		sty := textStyle(8, black)
		sty.YAlign = draw.YCenter
		c.FillText(sty, vg.Point{X: da.Max.X + vg.Points(4), Y: y}, "t* = "+trimFloat(pp.cycles))
		yTop = min(yTop, y-vg.Points(16))
	}
	drawLegend(c, x, yTop, items)
	return nil
}

func (pp *PortPressure) legend() []legendItem {
	var items []legendItem
	if pp.ByUop && len(pp.uops) > 0 {
		for j, u := range pp.uops {
			items = append(items, legendItem{"µop " + u.label, seriesColor(j), false})
		}
		return append(items, legendItem{"bottleneck", HighlightColor, true})
	}
	return append(items, legendItem{"bottleneck", HighlightColor, false}, legendItem{"other port", BarColor, false})
}

// hGrid draws light horizontal lines at the major y ticks.
type hGrid struct{}

func (hGrid) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	for _, t := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
		if t.IsMinor() {
			continue
		}
		y := trY(t.Value)
		c.StrokeLine2(draw.LineStyle{Color: gridGrey, Width: vg.Points(0.5)}, c.Min.X, y, c.Max.X, y)
	}
}

// bars draws the bars of a port pressure chart and their values.
type bars struct{ pp *PortPressure }

func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	pp := b.pp
	trX, trY := p.Transforms(&c)
	half := (trX(1) - trX(0)) * 0.34
	val := textStyle(8, darkGrey)
	val.XAlign = draw.XCenter
	for k, v := range pp.pressure {
		x := trX(float64(k))
		r := vg.Rectangle{Min: vg.Point{X: x - half, Y: trY(0)}, Max: vg.Point{X: x + half, Y: trY(v)}}
		if pp.ByUop && len(pp.uops) > 0 {
			y := 0.0
			for j, u := range pp.uops {
				if u.onPort[k] <= 1e-12 {
					continue
				}
				seg := vg.Rectangle{Min: vg.Point{X: r.Min.X, Y: trY(y)}, Max: vg.Point{X: r.Max.X, Y: trY(y + u.onPort[k])}}
				c.SetColor(seriesColor(j))
				c.Fill(rectPath(seg))
				c.SetLineStyle(draw.LineStyle{Color: color.White, Width: vg.Points(0.5)})
				c.Stroke(rectPath(seg))
				y += u.onPort[k]
			}
			if pp.bottleneck[k] {
				c.SetLineStyle(draw.LineStyle{Color: HighlightColor, Width: vg.Points(2)})
				c.Stroke(rectPath(r))
			}
		} else if v > 0 {
			col := BarColor
			if pp.bottleneck[k] {
				col = HighlightColor
			}
			c.SetColor(col)
			c.Fill(rectPath(r))
		}
		c.FillText(val, vg.Point{X: x, Y: r.Max.Y + vg.Points(2)}, trimFloat(v))
	}
}

// legendItem is a row of a legend: a swatch (filled, or a frame) and a
// label.
type legendItem struct {
	label string
	col   color.Color
	frame bool
}

// legendWidth returns the width of the legend of items.
func legendWidth(items []legendItem) vg.Length {
	sty := textStyle(8, black)
	var w vg.Length
	for _, it := range items {
		w = max(w, sty.Width(it.label))
	}
	return w + vg.Points(12)
}

// drawLegend draws items in a column whose top left corner is (x, y).
func drawLegend(c draw.Canvas, x, y vg.Length, items []legendItem) {
	sty := textStyle(8, black)
	sty.YAlign = draw.YCenter
	sw := vg.Points(8)
	y -= sw / 2
	for _, it := range items {
		r := vg.Rectangle{Min: vg.Point{X: x, Y: y - sw/2}, Max: vg.Point{X: x + sw, Y: y + sw/2}}
		if it.frame {
			c.SetLineStyle(draw.LineStyle{Color: it.col, Width: vg.Points(1.5)})
			c.Stroke(rectPath(r))
		} else {
			c.SetColor(it.col)
			c.Fill(rectPath(r))
		}
		c.FillText(sty, vg.Point{X: x + sw + vg.Points(4), Y: y}, it.label)
		y -= vg.Points(11)
	}
}

// cyclesLine is the dashed line at the inverse throughput t*.
type cyclesLine struct{ t float64 }

func (l cyclesLine) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	y := trY(l.t)
	c.StrokeLines(draw.LineStyle{Color: black, Width: vg.Points(0.9), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}},
		[]vg.Point{{X: c.Min.X, Y: y}, {X: c.Max.X, Y: y}})
}

// trimFloat formats v with up to 3 decimals, without trailing zeros.
func trimFloat(v float64) string {
	s := strconv.FormatFloat(v, 'f', 3, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		s = "0"
	}
	return s
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// HTML returns the interactive bar chart; hovering a bar shows the port's
// load, whether it is a bottleneck port and the µops the schedule puts on
// it. See Interactive.
func (pp *PortPressure) HTML() string {
	if pp.err != nil {
		return errorHTML(pp.err)
	}
	w, h := pp.size()
	width, height := htmlPixels(w), htmlPixels(h)
	// Per-port tooltip text, computed here and embedded in the formatter.
	tips := make([]string, len(pp.ports))
	for k, port := range pp.ports {
		var b strings.Builder
		fmt.Fprintf(&b, "<b>port %s</b><br>load %s cycles", html.EscapeString(port), trimFloat(pp.pressure[k]))
		if pp.bottleneck[k] {
			b.WriteString(` <span style="color:` + hex(HighlightColor) + `">(bottleneck)</span>`)
		}
		for _, u := range pp.uops {
			if u.onPort[k] > 1e-12 {
				fmt.Fprintf(&b, "<br>µop %s: %s", html.EscapeString(u.label), trimFloat(u.onPort[k]))
			}
		}
		tips[k] = b.String()
	}
	tipJSON, _ := json.Marshal(tips)
	data := make([]opts.BarData, len(pp.ports))
	for k, v := range pp.pressure {
		col := hex(BarColor)
		if pp.bottleneck[k] {
			col = hex(HighlightColor)
		}
		data[k] = opts.BarData{Value: v, ItemStyle: &opts.ItemStyle{Color: col}}
	}
	bar := charts.NewBar()
	bar.SetGlobalOptions(charts.WithAnimation(false))
	bar.SetXAxis(pp.ports)
	bar.AddSeries("load", data, charts.WithBarChartOpts(opts.BarChart{BarCategoryGap: "30%"}))
	gridTop := 30
	if pp.Title != "" {
		gridTop = 50
	}
	series := map[string]any{
		"label": map[string]any{"show": true, "position": "top", "fontSize": 11, "color": "#444",
			"formatter": echarts.Func(`function (p) { return String(+p.value.toFixed(3)); }`)},
	}
	if pp.cycles > 0 {
		series["markLine"] = map[string]any{
			"silent": true, "symbol": "none",
			"lineStyle": map[string]any{"color": "#000", "type": "dashed", "width": 1},
			"label":     map[string]any{"formatter": "t* = " + trimFloat(pp.cycles), "position": "insideStartTop"},
			"data":      []any{map[string]any{"yAxis": pp.cycles}},
		}
	}
	xAxis := map[string]any{"type": "category", "data": pp.ports, "name": "port", "nameLocation": "middle", "nameGap": 28,
		"axisTick": map[string]any{"alignWithLabel": true}}
	yAxis := jsValueAxis("left", "load [cycles per experiment]", 0, 0, 44)
	yAxis["splitLine"] = map[string]any{"show": true, "lineStyle": map[string]any{"color": "#e6e6e6"}}
	yAxis["min"], yAxis["boundaryGap"] = 0, []string{"0", "12%"} // room for the value labels
	o := option(bar, map[string]any{
		"textStyle": jsTextStyle,
		"toolbox":   jsToolbox,
		"legend":    nil,
		"title":     jsTitle(pp.Title),
		"grid":      map[string]any{"left": 64, "right": 24, "top": gridTop, "bottom": 50},
		"xAxis":     []any{xAxis},
		"yAxis":     []any{yAxis},
		"tooltip": map[string]any{"trigger": "item", "confine": true, "extraCssText": jsTooltipCSS,
			"formatter": echarts.Func(`function (p) { var tips = ` + string(tipJSON) + `; return tips[p.dataIndex]; }`)},
	}, series)
	return fragment(o, width, height, pp.Title)
}
