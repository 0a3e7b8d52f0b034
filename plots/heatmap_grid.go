package plots

import (
	"fmt"
	"math"

	"github.com/portlab/portlab/lib/metrics"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// HeatmapGrid is several heat maps as one figure, such as one per predictor
// and architecture (thesis Figs. 5.2 and 5.3) or one per experiment length
// (thesis Fig. 3.7): the panels fill Cols columns row by row, each with its
// own title, range and metrics box, and all share one logarithmic colour
// scale with one colour bar, so that colours compare across panels.
type HeatmapGrid struct {
	// Title is printed above the grid; empty for none.
	Title string
	// Cols is the number of columns; 0 means min(3, number of panels).
	Cols int
	// ColorTop is the count at the dark end of the shared colour scale; 0
	// means the largest bin count of any panel.
	ColorTop int
	// PanelWidth and PanelHeight are the size of one panel in inches
	// (default 3.3 × 3.1); DPI is the PNG resolution (default DefaultDPI).
	PanelWidth, PanelHeight, DPI float64

	panels []*Heatmap
}

// NewHeatmapGrid returns the grid of the given heat maps in cols columns
// (0 for the default). The panels' own ColorTop, Width, Height and DPI are
// ignored.
func NewHeatmapGrid(cols int, panels ...*Heatmap) *HeatmapGrid {
	return &HeatmapGrid{Cols: cols, panels: panels}
}

// Titled sets the title and returns g.
func (g *HeatmapGrid) Titled(title string) *HeatmapGrid { g.Title = title; return g }

// Panels returns the heat maps of g.
func (g *HeatmapGrid) Panels() []*Heatmap { return g.panels }

// Err returns the first error of a panel, or an error if there are none.
func (g *HeatmapGrid) Err() error {
	if len(g.panels) == 0 {
		return fmt.Errorf("plots: heat map grid without panels")
	}
	for i, p := range g.panels {
		if p == nil {
			return fmt.Errorf("plots: heat map grid: panel %d is nil", i)
		}
		if p.err != nil {
			return fmt.Errorf("plots: heat map grid: panel %d (%s): %w", i, p.Title, p.err)
		}
	}
	return nil
}

func (g *HeatmapGrid) shape() (rows, cols int) {
	cols = g.Cols
	if cols <= 0 {
		cols = min(3, len(g.panels))
	}
	cols = max(1, min(cols, len(g.panels)))
	return (len(g.panels) + cols - 1) / cols, cols
}

const gridTitleHeight = vg.Length(0.35 * vg.Inch)

func (g *HeatmapGrid) size() (w, h vg.Length) {
	rows, cols := g.shape()
	w = vg.Length(cols)*inches(g.PanelWidth, 3.3) + colorBarWidth
	h = vg.Length(rows) * inches(g.PanelHeight, 3.1)
	if g.Title != "" {
		h += gridTitleHeight
	}
	return w, h
}

func (g *HeatmapGrid) drawTo(c draw.Canvas) error {
	if err := g.Err(); err != nil {
		return err
	}
	hists := make([]*metrics.Histogram2D, len(g.panels))
	top := g.ColorTop
	for i, p := range g.panels {
		h, err := p.Histogram()
		if err != nil {
			return fmt.Errorf("plots: heat map grid: panel %d (%s): %w", i, p.Title, err)
		}
		hists[i] = h
		if g.ColorTop <= 0 {
			top = max(top, h.Max())
		}
	}
	scale := logScale{top: float64(max(top, 1))}
	if g.Title != "" {
		sty := textStyle(13, black)
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
		c.FillText(sty, vg.Point{X: (c.Min.X + c.Max.X - colorBarWidth) / 2, Y: c.Max.Y - gridTitleHeight/2}, g.Title)
		c = draw.Crop(c, 0, 0, 0, -gridTitleHeight)
	}
	rows, cols := g.shape()
	body := draw.Crop(c, 0, -colorBarWidth, 0, 0)
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(4), PadY: vg.Points(4),
		PadTop: vg.Points(2), PadBottom: vg.Points(2), PadLeft: vg.Points(2), PadRight: vg.Points(2)}
	lo, hi := vg.Length(math.Inf(1)), vg.Length(math.Inf(-1))
	var right vg.Length
	for i, p := range g.panels {
		tc := tiles.At(body, i%cols, i/cols)
		pl := p.plot(hists[i], scale, p.stats(hists[i]), true)
		da := squarePlot(&tc, pl, 0)
		pl.Draw(tc)
		lo, hi = min(lo, da.Min.Y), max(hi, da.Max.Y)
		right = max(right, da.Max.X)
	}
	// One colour bar for all panels, beside the last column.
	span := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: right, Y: lo}, Max: vg.Point{X: right, Y: hi}}}
	if rows > 1 { // a bar of the height of one panel, centred
		mid, half := (lo+hi)/2, (hi-lo)/vg.Length(2*rows)
		span.Min.Y, span.Max.Y = mid-half, mid+half
	}
	drawColorBar(c, span, scale, "experiments per bin")
	return nil
}

// PNG renders g as a PNG image.
func (g *HeatmapGrid) PNG() ([]byte, error) {
	if err := g.Err(); err != nil {
		return nil, err
	}
	return renderPNG(g, g.DPI)
}

// SVG renders g as an SVG document.
func (g *HeatmapGrid) SVG() ([]byte, error) {
	if err := g.Err(); err != nil {
		return nil, err
	}
	return renderSVG(g)
}

// Save writes g to path; see SaveFigure.
func (g *HeatmapGrid) Save(path string) error { return SaveFigure(g, path) }
