package plots

import (
	"encoding/json"
	"fmt"
	"html"
	"image/color"
	"math"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/plots/internal/echarts"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// MappingMatrix draws a port mapping as a matrix, one row per instruction
// and one column per port, for mappings too large for a MappingGraph
// (uops.info's Skylake mapping has hundreds of instructions). Cell (i, k)
// holds the load that one execution of instruction i puts on port k when
// each of its µops spreads evenly over the ports that can run it: the sum
// over its µops u with k ∈ ports(u) of count(u)/|ports(u)|. A row thus
// sums to the instruction's number of µops, and a dark cell is a port the
// instruction depends on alone. Cells are coloured on a linear scale with
// a colour bar, zero cells white; with room, the values are printed.
type MappingMatrix struct {
	// Title is printed above the matrix; empty for none.
	Title string
	// ColorTop is the value at the dark end of the colour scale; larger
	// values get the darkest colour. 0 means the largest cell value; a
	// smaller top shows more detail when a few instructions (divisions)
	// have many µops.
	ColorTop float64
	// MaxLabel shortens instruction names longer than this many characters
	// with "…"; 0 means 48.
	MaxLabel int
	// DPI is the PNG resolution (default DefaultDPI). The size follows from
	// the number of rows and columns, up to 11 inches high.
	DPI float64

	m     *portmap.Mapping
	insns []string
	err   error
}

// NewMappingMatrix returns the matrix of the instructions insns of m, or
// of all mapped instructions of m in index order if insns is empty. An
// instruction m does not map is an error, kept and reported by Err.
func NewMappingMatrix(m *portmap.Mapping, insns ...string) *MappingMatrix {
	mm := &MappingMatrix{m: m, insns: insns}
	if len(insns) == 0 {
		mm.insns = m.Instructions()
	}
	if len(mm.insns) == 0 {
		mm.err = fmt.Errorf("plots: mapping matrix: %s maps no instructions", m.Name())
	}
	for _, in := range mm.insns {
		if !m.Has(in) {
			mm.err = fmt.Errorf("plots: mapping matrix: %s does not map %q", m.Name(), in)
			break
		}
	}
	return mm
}

// Titled sets the title and returns mm.
func (mm *MappingMatrix) Titled(title string) *MappingMatrix { mm.Title = title; return mm }

// Err returns the error that makes mm impossible to draw, if any.
func (mm *MappingMatrix) Err() error { return mm.err }

// Instructions returns the row labels in order.
func (mm *MappingMatrix) Instructions() []string { return mm.insns }

// Matrix returns the cell values: Matrix()[i][k] is the even-spread load of
// instruction i on port k.
func (mm *MappingMatrix) Matrix() [][]float64 {
	np := mm.m.NumPorts()
	out := make([][]float64, len(mm.insns))
	for i, in := range mm.insns {
		out[i] = make([]float64, np)
		u, _ := mm.m.Uops(in)
		for _, x := range u {
			share := float64(x.Count) / float64(x.Ports.Len())
			for _, k := range x.Ports.Indices() {
				out[i][k] += share
			}
		}
	}
	return out
}

func (mm *MappingMatrix) maxLabel() int {
	if mm.MaxLabel > 0 {
		return mm.MaxLabel
	}
	return 48
}

// matrixGeometry is the layout of a mapping matrix, in points.
type matrixGeometry struct {
	cellW, cellH vg.Length
	labelW       vg.Length // instruction labels, 0 if hidden
	font         vg.Length
	values       bool // print values in cells
	top          vg.Length
}

func (mm *MappingMatrix) geometry() matrixGeometry {
	rows := len(mm.insns)
	g := matrixGeometry{cellW: 30, top: 40}
	if mm.Title != "" {
		g.top += 20
	}
	g.cellH = vg.Length(math.Max(1.5, math.Min(13, 11*72/float64(max(rows, 1)))))
	g.font = min(8, g.cellH*0.75)
	g.values = g.cellH >= 10
	if g.font >= 5 { // else the labels are hidden and a 14 pt note replaces them
		sty := textStyle(g.font, black)
		for _, in := range mm.insns {
			g.labelW = max(g.labelW, sty.Width(shorten(in, mm.maxLabel())))
		}
		g.labelW += 6
	}
	return g
}

func (mm *MappingMatrix) size() (w, h vg.Length) {
	if mm.err != nil {
		return vg.Inch, vg.Inch
	}
	g := mm.geometry()
	w = 14 + max(g.labelW, 14) + vg.Length(mm.m.NumPorts())*g.cellW + 80
	h = g.top + vg.Length(len(mm.insns))*g.cellH + 14
	return max(w, 300), max(h, 150)
}

func (mm *MappingMatrix) drawTo(c draw.Canvas) error {
	if mm.err != nil {
		return mm.err
	}
	g := mm.geometry()
	vals := mm.Matrix()
	top := 0.0
	for _, row := range vals {
		for _, v := range row {
			top = max(top, v)
		}
	}
	if mm.ColorTop > 0 {
		top = mm.ColorTop
	}
	top = max(top, 1e-9)
	x0 := c.Min.X + 14 + max(g.labelW, 14)
	y0 := c.Max.Y - g.top // top edge of the first row
	if mm.Title != "" {
		sty := textStyle(12, black)
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
		c.FillText(sty, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: c.Max.Y - 8}, mm.Title)
	}
	ports := mm.m.Ports()
	hs := textStyle(8.5, black)
	hs.XAlign, hs.YAlign = draw.XCenter, draw.YBottom
	for k, p := range ports {
		c.FillText(hs, vg.Point{X: x0 + (vg.Length(k)+0.5)*g.cellW, Y: y0 + 4}, p)
	}
	ls := textStyle(g.font, black)
	ls.XAlign, ls.YAlign = draw.XRight, draw.YCenter
	vs := textStyle(min(7.5, g.font), black)
	vs.XAlign, vs.YAlign = draw.XCenter, draw.YCenter
	for i, row := range vals {
		ya, yb := y0-vg.Length(i+1)*g.cellH, y0-vg.Length(i)*g.cellH
		if g.labelW > 0 {
			c.FillText(ls, vg.Point{X: x0 - 4, Y: (ya + yb) / 2}, shorten(mm.insns[i], mm.maxLabel()))
		}
		for k, v := range row {
			if v <= 0 {
				continue
			}
			t := min(v/top, 1)
			xa := x0 + vg.Length(k)*g.cellW
			c.SetColor(ramp(countStops, t))
			c.Fill(rectPath(vg.Rectangle{Min: vg.Point{X: xa, Y: ya}, Max: vg.Point{X: xa + g.cellW + 0.3, Y: yb + 0.3}}))
			if g.values {
				vs.Color = color.Color(black)
				if t > 0.55 {
					vs.Color = color.White
				}
				c.FillText(vs, vg.Point{X: xa + g.cellW/2, Y: (ya + yb) / 2}, shortFloat(v))
			}
		}
	}
	yEnd := y0 - vg.Length(len(vals))*g.cellH
	if g.labelW == 0 { // too many rows to name them
		ts := textStyle(8.5, darkGrey)
		ts.XAlign, ts.YAlign = draw.XCenter, draw.YBottom
		ts.Rotation = math.Pi / 2
		c.FillText(ts, vg.Point{X: x0 - 4, Y: (y0 + yEnd) / 2}, fmt.Sprintf("%d instructions (index order)", len(vals)))
	}
	// Grid lines between ports, and a frame.
	grid := draw.LineStyle{Color: gridGrey, Width: vg.Points(0.5)}
	for k := 1; k < len(ports); k++ {
		x := x0 + vg.Length(k)*g.cellW
		c.StrokeLine2(grid, x, y0, x, yEnd)
	}
	c.SetLineStyle(draw.LineStyle{Color: darkGrey, Width: vg.Points(0.75)})
	frameR := vg.Rectangle{Min: vg.Point{X: x0, Y: yEnd}, Max: vg.Point{X: x0 + vg.Length(len(ports))*g.cellW, Y: y0}}
	c.Stroke(rectPath(frameR))
	// Linear colour bar beside the matrix, at most 3 inches high.
	barTop := y0
	barBottom := max(yEnd, y0-3*vg.Inch)
	drawLinearBar(c, frameR.Max.X+10, barBottom, barTop, top, "µops per execution")
	return nil
}

// drawLinearBar draws a colour bar from 0 (white) to top with the ramp of
// countStops, ticks at nice steps, and a label.
func drawLinearBar(c draw.Canvas, x, y0, y1 vg.Length, top float64, title string) {
	x1 := x + 10
	const steps = 64
	for i := range steps {
		ya := y0 + (y1-y0)*vg.Length(i)/steps
		yb := y0 + (y1-y0)*vg.Length(i+1)/steps
		c.SetColor(ramp(countStops, (float64(i)+0.5)/steps))
		c.Fill(rectPath(vg.Rectangle{Min: vg.Point{X: x, Y: ya}, Max: vg.Point{X: x1, Y: min(yb+0.3, y1)}}))
	}
	c.SetLineStyle(draw.LineStyle{Color: darkGrey, Width: vg.Points(0.5)})
	c.Stroke(rectPath(vg.Rectangle{Min: vg.Point{X: x, Y: y0}, Max: vg.Point{X: x1, Y: y1}}))
	sty := textStyle(8, black)
	sty.YAlign = draw.YCenter
	step := niceStep(top / 4)
	for v := 0.0; v <= top*(1+1e-9); v += step {
		y := y0 + (y1-y0)*vg.Length(v/top)
		c.StrokeLine2(draw.LineStyle{Color: darkGrey, Width: vg.Points(0.75)}, x1, y, x1+3, y)
		c.FillText(sty, vg.Point{X: x1 + 5, Y: y}, trimFloat(v))
	}
	ts := textStyle(8, darkGrey)
	ts.XAlign, ts.YAlign = draw.XCenter, draw.YBottom
	ts.Rotation = -math.Pi / 2
	c.FillText(ts, vg.Point{X: x1 + 28, Y: (y0 + y1) / 2}, title)
}

// niceStep returns the smallest 1, 2 or 5 × 10^k ≥ v > 0.
func niceStep(v float64) float64 {
	if !(v > 0) {
		return 1
	}
	p := math.Pow10(int(math.Floor(math.Log10(v))))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// shortFloat formats a cell value in at most four characters: "1", "0.5",
// ".33", "2.25" → "2.3".
func shortFloat(v float64) string {
	s := trimFloat(math.Round(v*100) / 100)
	if len(s) > 4 {
		s = trimFloat(math.Round(v*10) / 10)
	}
	if len(s) > 2 && s[:2] == "0." {
		s = s[1:]
	}
	return s
}

// PNG renders mm as a PNG image.
func (mm *MappingMatrix) PNG() ([]byte, error) {
	if mm.err != nil {
		return nil, mm.err
	}
	return renderPNG(mm, mm.DPI)
}

// SVG renders mm as an SVG document.
func (mm *MappingMatrix) SVG() ([]byte, error) {
	if mm.err != nil {
		return nil, mm.err
	}
	return renderSVG(mm)
}

// Save writes mm to path; see SaveFigure.
func (mm *MappingMatrix) Save(path string) error { return SaveFigure(mm, path) }

// HTML returns the interactive matrix: hovering a cell shows the
// instruction, its decomposition in uops.info notation and the port's
// load; with more than 40 instructions a slider scrolls through them. See
// Interactive.
func (mm *MappingMatrix) HTML() string {
	if mm.err != nil {
		return errorHTML(mm.err)
	}
	vals := mm.Matrix()
	ports := mm.m.Ports()
	top := 0.0
	var data []opts.HeatMapData
	for i, row := range vals {
		for k, v := range row {
			if v > 0 {
				data = append(data, opts.HeatMapData{Value: []any{k, i, v}})
				top = max(top, v)
			}
		}
	}
	names := make([]string, len(mm.insns))
	usage := make([]string, len(mm.insns))
	for i, in := range mm.insns {
		names[i] = shorten(in, mm.maxLabel())
		usage[i] = html.EscapeString(in) + "<br>" + html.EscapeString(mm.m.Usage(in))
	}
	usageJSON, _ := json.Marshal(usage)
	portsJSON, _ := json.Marshal(ports)
	visible := min(len(mm.insns), 40)
	width := 260 + 44*len(ports)
	height := 90 + 16*visible
	if mm.Title != "" {
		height += 24
	}
	hm := charts.NewHeatMap()
	hm.SetGlobalOptions(charts.WithAnimation(false))
	hm.AddSeries("load", data,
		charts.WithEmphasisOpts(opts.Emphasis{ItemStyle: &opts.ItemStyle{BorderColor: "#000", BorderWidth: 1}}))
	stops := make([]string, len(countStops))
	for i, c := range countStops {
		stops[i] = hex(c)
	}
	gridTop := 40
	if mm.Title != "" {
		gridTop = 64
	}
	patch := map[string]any{
		"textStyle": jsTextStyle,
		"toolbox":   jsToolbox,
		"legend":    nil,
		"title":     jsTitle(mm.Title),
		"grid":      map[string]any{"left": 200, "right": 60, "top": gridTop, "bottom": 20},
		"xAxis": []any{map[string]any{"type": "category", "data": ports, "position": "top",
			"splitArea": map[string]any{"show": false}, "axisTick": map[string]any{"show": false}}},
		"yAxis": []any{map[string]any{"type": "category", "data": names, "inverse": true,
			"axisLabel": map[string]any{"fontSize": 10, "width": 190, "overflow": "truncate"},
			"axisTick":  map[string]any{"show": false}}},
		"visualMap": map[string]any{"type": "continuous", "min": 0, "max": max(top, 1e-9), "calculable": true,
			"orient": "vertical", "right": 6, "top": gridTop, "itemHeight": max(min(16*visible-30, 220), 60),
			"inRange": map[string]any{"color": stops}, "precision": 2},
		"tooltip": map[string]any{"trigger": "item", "confine": true, "extraCssText": jsTooltipCSS,
			"formatter": echarts.Func(`function (p) {
			var usage = ` + string(usageJSON) + `, ports = ` + string(portsJSON) + `;
			return usage[p.value[1]] + "<br>port " + ports[p.value[0]] + ": <b>" + (+p.value[2].toFixed(3)) + "</b> µops per execution";
		}`)},
	}
	if len(mm.insns) > visible {
		patch["dataZoom"] = []any{
			map[string]any{"type": "slider", "yAxisIndex": 0, "right": 36, "width": 14, "startValue": 0,
				"endValue": visible - 1, "filterMode": "empty", "showDetail": false, "zoomLock": true},
			map[string]any{"type": "inside", "yAxisIndex": 0, "zoomOnMouseWheel": false, "moveOnMouseWheel": true},
		}
		patch["grid"] = map[string]any{"left": 200, "right": 110, "top": gridTop, "bottom": 20}
		patch["visualMap"].(map[string]any)["right"] = 60
		width += 50
	}
	return fragment(option(hm, patch), width, height, mm.Title)
}
