package plots

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Curves is a line chart of one or more series over a common x axis, each
// drawn as a line through markers, optionally with error bars and with
// logarithmic axes: scaling plots (time against number of ports, thesis
// Fig. 5.4), fitness over generations, error against experiment length.
// Series get the Tableau 10 colours and distinct marker shapes in the
// order they are added; the legend names them.
type Curves struct {
	// Title, XLabel and YLabel label the chart.
	Title, XLabel, YLabel string
	// LogX and LogY make an axis logarithmic (all its values must then be
	// positive).
	LogX, LogY bool
	// YSeconds labels the y axis as durations in seconds with SI
	// prefixes ("100 ns", "1 µs") instead of plain numbers.
	YSeconds bool
	// XIntegers puts the ticks of a linear x axis on whole numbers only,
	// for counts such as ports or instructions.
	XIntegers bool
	// LegendLeft puts the legend at the top left instead of the top right.
	LegendLeft bool
	// Width and Height are the figure size in inches (default 5.6 × 3.8);
	// DPI is the PNG resolution (default DefaultDPI).
	Width, Height, DPI float64

	series []curve
	err    error
}

type curve struct {
	name         string
	x, y, lo, hi []float64 // lo, hi nil without error bars
}

// NewCurves returns an empty line chart with the given title and axis
// labels; add series with Add and AddErrorBars.
func NewCurves(title, xlabel, ylabel string) *Curves {
	return &Curves{Title: title, XLabel: xlabel, YLabel: ylabel}
}

// Add adds a series of points (x[i], y[i]), drawn in the order given, and
// returns c. Errors (lengths that differ, NaN) are kept and reported by Err.
func (c *Curves) Add(name string, x, y []float64) *Curves {
	return c.add(curve{name: name, x: x, y: y})
}

// AddErrorBars adds a series with an error bar from lo[i] to hi[i] at each
// point (absolute values, such as the minimum and maximum of repeated
// runs, not offsets), and returns c.
func (c *Curves) AddErrorBars(name string, x, y, lo, hi []float64) *Curves {
	if lo == nil || hi == nil {
		c.setErr(fmt.Errorf("plots: curves: series %q: error bars need lo and hi", name))
	}
	return c.add(curve{name: name, x: x, y: y, lo: lo, hi: hi})
}

// Log sets logarithmic axes and returns c.
func (c *Curves) Log(x, y bool) *Curves { c.LogX, c.LogY = x, y; return c }

// Titled sets the title and returns c.
func (c *Curves) Titled(title string) *Curves { c.Title = title; return c }

// Err returns the error that makes c impossible to draw, if any.
func (c *Curves) Err() error {
	if c.err != nil {
		return c.err
	}
	if len(c.series) == 0 {
		return fmt.Errorf("plots: curves %q: no series", c.Title)
	}
	for _, s := range c.series {
		for i := range s.x {
			vals := []float64{s.x[i], s.y[i]}
			if s.lo != nil {
				vals = append(vals, s.lo[i], s.hi[i])
			}
			for j, v := range vals {
				if c.LogX && j == 0 && !(v > 0) || c.LogY && j > 0 && !(v > 0) {
					return fmt.Errorf("plots: curves: series %q: value %v at point %d on a logarithmic axis", s.name, v, i)
				}
			}
		}
	}
	return nil
}

// Series returns the names of the series in order.
func (c *Curves) Series() []string {
	out := make([]string, len(c.series))
	for i, s := range c.series {
		out[i] = s.name
	}
	return out
}

func (c *Curves) setErr(err error) {
	if c.err == nil {
		c.err = err
	}
}

func (c *Curves) add(s curve) *Curves {
	n := len(s.x)
	if len(s.y) != n || s.lo != nil && (len(s.lo) != n || len(s.hi) != n) {
		c.setErr(fmt.Errorf("plots: curves: series %q: lengths differ", s.name))
		return c
	}
	for _, vs := range [][]float64{s.x, s.y, s.lo, s.hi} {
		for i, v := range vs {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				c.setErr(fmt.Errorf("plots: curves: series %q: value %v at point %d", s.name, v, i))
				return c
			}
		}
	}
	c.series = append(c.series, s)
	return c
}

func (c *Curves) size() (w, h vg.Length) { return inches(c.Width, 5.6), inches(c.Height, 3.8) }

func (c *Curves) drawTo(dc draw.Canvas) error {
	if err := c.Err(); err != nil {
		return err
	}
	p := newPlot(c.Title, c.XLabel, c.YLabel)
	if c.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = decadeTicks{}
	} else if c.XIntegers {
		p.X.Tick.Marker = niceTicks{integers: true}
	}
	if c.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = decadeTicks{}
		if c.YSeconds {
			p.Y.Tick.Marker = decadeTicks{format: siSeconds}
		}
	} else if c.YSeconds {
		p.Y.Tick.Marker = secondsTicks{}
	}
	p.Add(hGrid{})
	p.Legend.Top = true
	p.Legend.Left = c.LegendLeft
	p.Legend.XOffs = -vg.Points(6)
	if c.LegendLeft {
		p.Legend.XOffs = vg.Points(6)
	}
	p.Legend.YOffs = -vg.Points(4)
	p.Legend.ThumbnailWidth = vg.Points(20)
	for i, s := range c.series {
		col := seriesColor(i)
		xys := make(plotter.XYs, len(s.x))
		for j := range s.x {
			xys[j] = plotter.XY{X: s.x[j], Y: s.y[j]}
		}
		line, err := plotter.NewLine(xys)
		if err != nil {
			return fmt.Errorf("plots: curves: series %q: %w", s.name, err)
		}
		line.Color, line.Width = col, vg.Points(1.3)
		pts, err := plotter.NewScatter(xys)
		if err != nil {
			return fmt.Errorf("plots: curves: series %q: %w", s.name, err)
		}
		pts.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2.6), Shape: markers[i%len(markers)]}
		if s.lo != nil {
			p.Add(&errBars{x: s.x, lo: s.lo, hi: s.hi, col: col})
		}
		p.Add(line, pts)
		if s.name != "" {
			p.Legend.Add(s.name, line, pts)
		}
	}
	p.Draw(dc)
	return nil
}

var markers = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{},
	draw.CrossGlyph{}, draw.PlusGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{},
}

// errBars draws vertical error bars with caps.
type errBars struct {
	x, lo, hi []float64
	col       interface{ RGBA() (r, g, b, a uint32) }
}

func (e *errBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	cap := vg.Points(3)
	sty := draw.LineStyle{Color: e.col, Width: vg.Points(0.9)}
	for i := range e.x {
		x, y0, y1 := trX(e.x[i]), trY(e.lo[i]), trY(e.hi[i])
		c.StrokeLines(sty, []vg.Point{{X: x, Y: y0}, {X: x, Y: y1}})
		c.StrokeLines(sty, []vg.Point{{X: x - cap, Y: y0}, {X: x + cap, Y: y0}})
		c.StrokeLines(sty, []vg.Point{{X: x - cap, Y: y1}, {X: x + cap, Y: y1}})
	}
}

// DataRange makes the axes cover the error bars.
func (e *errBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for i := range e.x {
		xmin, xmax = min(xmin, e.x[i]), max(xmax, e.x[i])
		ymin, ymax = min(ymin, e.lo[i], e.hi[i]), max(ymax, e.lo[i], e.hi[i])
	}
	return
}

// PNG renders c as a PNG image.
func (c *Curves) PNG() ([]byte, error) {
	if err := c.Err(); err != nil {
		return nil, err
	}
	return renderPNG(c, c.DPI)
}

// SVG renders c as an SVG document.
func (c *Curves) SVG() ([]byte, error) {
	if err := c.Err(); err != nil {
		return nil, err
	}
	return renderSVG(c)
}

// Save writes c to path; see SaveFigure.
func (c *Curves) Save(path string) error { return SaveFigure(c, path) }

// FitnessCurves returns the fitness of an evolutionary search over
// generations 0, 1, …: the best and the mean fitness of each generation
// (either may be nil), lower being better, on a logarithmic y axis.
func FitnessCurves(best, mean []float64) *Curves {
	c := NewCurves("fitness over generations", "generation", "fitness (lower is better)")
	c.LogY, c.XIntegers = true, true
	gen := func(n int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(i)
		}
		return x
	}
	if best != nil {
		c.Add("best", gen(len(best)), best)
	}
	if mean != nil {
		c.Add("mean", gen(len(mean)), mean)
	}
	return c
}

// ErrorVsLength returns the prediction error against experiment length
// (thesis Fig. 3.7 in one curve): MAPE in percent per length, with error
// bars from lo to hi (for example the minimum and maximum over repeated
// samples; both nil for none).
func ErrorVsLength(lengths, mape, lo, hi []float64) *Curves {
	c := NewCurves("error against experiment length", "experiment length [instructions]", "MAPE [%]")
	c.XIntegers = true
	if lo == nil && hi == nil {
		return c.Add("MAPE", lengths, mape)
	}
	return c.AddErrorBars("MAPE", lengths, mape, lo, hi)
}

// CurvesFromCSV reads a CSV table with a header row and returns one series
// per column of ycols against the column xcol, named by the column, in
// file order. Rows with an empty cell in a column are skipped for that
// series. Errors (a missing column, a cell that is not a number) are kept
// and reported by Err.
func CurvesFromCSV(r io.Reader, xcol string, ycols ...string) *Curves {
	c := NewCurves("", xcol, "")
	recs, col, err := readCSV(r)
	if err != nil {
		return failed(err)
	}
	xi, ok := col[xcol]
	if !ok {
		return failed(fmt.Errorf("plots: CSV has no column %q", xcol))
	}
	for _, yc := range ycols {
		yi, ok := col[yc]
		if !ok {
			return failed(fmt.Errorf("plots: CSV has no column %q", yc))
		}
		var xs, ys []float64
		for n, rec := range recs {
			if rec[xi] == "" || rec[yi] == "" {
				continue
			}
			x, err1 := strconv.ParseFloat(rec[xi], 64)
			y, err2 := strconv.ParseFloat(rec[yi], 64)
			if err1 != nil || err2 != nil {
				return failed(fmt.Errorf("plots: CSV line %d: not a number in %q or %q", n+2, xcol, yc))
			}
			xs, ys = append(xs, x), append(ys, y)
		}
		c.Add(yc, xs, ys)
	}
	if len(ycols) == 1 {
		c.YLabel = ycols[0]
	}
	return c
}

func readCSV(r io.Reader) ([][]string, map[string]int, error) {
	recs, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, nil, fmt.Errorf("plots: CSV: %w", err)
	}
	if len(recs) == 0 {
		return nil, nil, fmt.Errorf("plots: CSV: empty")
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	return recs[1:], col, nil
}

// LPvsBottleneck returns the scaling plot of the CSV that
// `go run ./bench/cmd/lpvsbottleneck -csv FILE` writes (thesis Fig. 5.4,
// PMEvo Fig. 8): the time per experiment of the throughput LP and of the
// bottleneck formula, in seconds on a logarithmic axis, against the number
// of ports (axis "ports", Fig. 5.4a, experiments of length 4) or the
// experiment length (axis "length", Fig. 5.4b, 10 ports). Errors are kept
// and reported by Err.
func LPvsBottleneck(r io.Reader, axis string) *Curves {
	recs, col, err := readCSV(r)
	if err != nil {
		return failed(err)
	}
	for _, name := range []string{"axis", "mapping", "ports", "length", "lp_ns_per_exp", "bottleneck_ns_per_exp"} {
		if _, ok := col[name]; !ok {
			return failed(fmt.Errorf("plots: CSV has no column %q; is it from bench/cmd/lpvsbottleneck?", name))
		}
	}
	var xcol, xlabel, title string
	switch axis {
	case "ports":
		xcol, xlabel, title = "ports", "number of ports", "LP vs bottleneck formula, experiments of length 4"
	case "length":
		xcol, xlabel, title = "length", "experiment length [instructions]", "LP vs bottleneck formula, 10 ports"
	default:
		return failed(fmt.Errorf(`plots: axis %q: want "ports" or "length"`, axis))
	}
	type pt struct{ x, lp, bn float64 }
	byMapping := map[string][]pt{}
	var order []string
	for n, rec := range recs {
		if rec[col["axis"]] != axis {
			continue
		}
		var v [3]float64
		for i, name := range []string{xcol, "lp_ns_per_exp", "bottleneck_ns_per_exp"} {
			f, err := strconv.ParseFloat(rec[col[name]], 64)
			if err != nil {
				return failed(fmt.Errorf("plots: CSV line %d: %s: %w", n+2, name, err))
			}
			v[i] = f
		}
		m := rec[col["mapping"]]
		if _, ok := byMapping[m]; !ok {
			order = append(order, m)
		}
		byMapping[m] = append(byMapping[m], pt{v[0], v[1] / 1e9, v[2] / 1e9})
	}
	if len(order) == 0 {
		return failed(fmt.Errorf("plots: CSV has no rows of axis %q", axis))
	}
	c := NewCurves(title, xlabel, "time per experiment")
	c.LogY, c.YSeconds, c.XIntegers = true, true, true
	for _, m := range order {
		pts := byMapping[m]
		sort.Slice(pts, func(i, j int) bool { return pts[i].x < pts[j].x })
		x, lp, bn := make([]float64, len(pts)), make([]float64, len(pts)), make([]float64, len(pts))
		for i, p := range pts {
			x[i], lp[i], bn[i] = p.x, p.lp, p.bn
		}
		suffix := ""
		if len(order) > 1 {
			suffix = " (" + m + ")"
		}
		c.Add("LP (gonum simplex)"+suffix, x, lp)
		c.Add("bottleneck formula"+suffix, x, bn)
	}
	return c
}

// LPvsBottleneckFile is LPvsBottleneck reading the CSV file at path.
func LPvsBottleneckFile(path, axis string) *Curves {
	f, err := os.Open(path)
	if err != nil {
		return failed(err)
	}
	defer f.Close()
	return LPvsBottleneck(f, axis)
}

// failed returns empty curves that report err.
func failed(err error) *Curves { return &Curves{err: err} }

// secondsTicks are niceTicks labelled as durations.
type secondsTicks struct{}

func (secondsTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := niceTicks{}.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = siSeconds(ts[i].Value)
		}
	}
	return ts
}
