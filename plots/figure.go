package plots

import (
	"bytes"
	"fmt"
	"html"
	"image/color"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/portlab/portlab/lib/portmap"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figure is what every plot of this package is: a static figure that
// renders as PNG or SVG and saves to a file. A notebook kernel displays a
// Figure inline as PNG.
type Figure interface {
	// PNG renders the figure as a PNG image at its DPI.
	PNG() ([]byte, error)
	// SVG renders the figure as an SVG document (text stays text).
	SVG() ([]byte, error)
	// Save writes the figure to path in the format named by its extension;
	// see SaveFigure.
	Save(path string) error
}

// Interactive is a Figure that also has an interactive HTML version, drawn
// by the ECharts library embedded in this package (no network needed).
type Interactive interface {
	Figure
	// HTML returns a self-contained HTML fragment (a <div> and <script>
	// elements, not a whole page) for a notebook's text/html output. Any
	// number of fragments can share one page. If the figure cannot be
	// drawn, the fragment shows the error instead.
	HTML() string
}

// DefaultDPI is the resolution of PNG output when a figure's DPI is 0.
const DefaultDPI = 144

// drawer is a figure that draws itself on a canvas of its size; renderPNG,
// renderSVG and renderPDF turn it into a file format.
type drawer interface {
	// size returns the figure's size.
	size() (w, h vg.Length)
	// drawTo draws the figure onto c, which has the size size returns.
	drawTo(c draw.Canvas) error
}

func renderPNG(d drawer, dpi float64) ([]byte, error) {
	if dpi <= 0 {
		dpi = DefaultDPI
	}
	w, h := d.size()
	c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(int(dpi+0.5)), vgimg.UseBackgroundColor(color.White))
	if err := d.drawTo(draw.New(c)); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func renderSVG(d drawer) ([]byte, error) {
	w, h := d.size()
	c := vgsvg.New(w, h)
	dc := draw.New(c)
	dc.SetColor(color.White)
	dc.Fill(rectPath(vg.Rectangle{Max: vg.Point{X: w, Y: h}}))
	if err := d.drawTo(dc); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func renderPDF(d drawer) ([]byte, error) {
	w, h := d.size()
	c := vgpdf.New(w, h)
	if err := d.drawTo(draw.New(c)); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// SaveFigure writes f to path, in the format named by the extension (case
// does not matter): .png and .svg as f.PNG and f.SVG; .html as a small
// stand-alone page holding f.HTML() for an Interactive figure and the SVG
// otherwise; .pdf as a PDF with embedded fonts. It returns an error for
// other extensions.
func SaveFigure(f Figure, path string) error {
	var data []byte
	var err error
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".png":
		data, err = f.PNG()
	case ".svg":
		data, err = f.SVG()
	case ".pdf":
		d, ok := f.(drawer)
		if !ok {
			return fmt.Errorf("plots: %T cannot be saved as PDF", f)
		}
		if e, ok := f.(interface{ Err() error }); ok && e.Err() != nil {
			return e.Err()
		}
		data, err = renderPDF(d)
	case ".html", ".htm":
		var body string
		if in, ok := f.(Interactive); ok {
			if e, ok := f.(interface{ Err() error }); ok && e.Err() != nil {
				return e.Err()
			}
			body = in.HTML()
		} else {
			var svg []byte
			if svg, err = f.SVG(); err == nil {
				body = string(svg)
			}
		}
		data = []byte(page(strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), body))
	default:
		return fmt.Errorf("plots: cannot save %s: unknown extension %q (use .png, .svg, .pdf or .html)", path, ext)
	}
	if err != nil {
		return err
	}
	return writeFile(path, data)
}

// page wraps an HTML fragment into a minimal stand-alone page.
func page(title, body string) string {
	return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + html.EscapeString(title) +
		"</title>\n</head>\n<body>\n" + body + "\n</body>\n</html>\n"
}

// writeFile writes data to path through a temporary file in the same
// folder, so that a reader never sees a half-written figure.
func writeFile(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if _, err = f.Write(data); err == nil {
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// errorHTML is the fragment shown in place of a chart that cannot be drawn.
func errorHTML(err error) string {
	return `<div class="portlab-error" style="color:#b00020;font-family:sans-serif">` + html.EscapeString(err.Error()) + `</div>`
}

// Fonts and colours shared by all figures.
var (
	sansFont = font.Font{Typeface: "Liberation", Variant: "Sans"}
	black    = color.Gray{Y: 0}
	darkGrey = color.Gray{Y: 0x40}
	midGrey  = color.Gray{Y: 0x99}
	gridGrey = color.Gray{Y: 0xe0}
)

func textStyle(size vg.Length, c color.Color) text.Style {
	return text.Style{
		Color:   c,
		Font:    font.From(sansFont, size),
		XAlign:  draw.XLeft,
		YAlign:  draw.YBottom,
		Handler: plot.DefaultTextHandler,
	}
}

// newPlot returns a gonum plot with portlab's fonts and sizes: 12 pt
// title, 10 pt axis labels, 9 pt tick labels.
func newPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(sansFont, 12)
	p.Title.Padding = vg.Points(6)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sansFont, 10)
		a.Tick.Label.Font = font.From(sansFont, 9)
		a.Label.Padding = vg.Points(4)
		a.LineStyle.Width = vg.Points(0.75)
		a.Tick.LineStyle.Width = vg.Points(0.75)
	}
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.X.Tick.Marker, p.Y.Tick.Marker = niceTicks{}, niceTicks{}
	p.Legend.TextStyle.Font = font.From(sansFont, 9)
	return p
}

func rectPath(r vg.Rectangle) vg.Path {
	var p vg.Path
	p.Move(r.Min)
	p.Line(vg.Point{X: r.Max.X, Y: r.Min.Y})
	p.Line(r.Max)
	p.Line(vg.Point{X: r.Min.X, Y: r.Max.Y})
	p.Close()
	return p
}

// inches converts a size in inches, 0 meaning def, to a vg.Length.
func inches(v, def float64) vg.Length {
	if v <= 0 {
		v = def
	}
	return vg.Length(v) * vg.Inch
}

// fitText returns s, shortened with "…" if needed to fit width in sty.
func fitText(sty text.Style, s string, width vg.Length) string {
	if s == "" || sty.Width(s) <= width {
		return s
	}
	r := []rune(s)
	lo, hi := 0, len(r)
	for lo < hi { // the largest n with r[:n]+"…" fitting
		mid := (lo + hi + 1) / 2
		if sty.Width(string(r[:mid])+"…") <= width {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return string(r[:lo]) + "…"
}

// experimentTitle writes e compactly for a title, e.g. "2×add + mul + store"
// (the thesis notation {add ↦ 2, …} uses a glyph the embedded fonts lack).
func experimentTitle(e portmap.Experiment) string {
	var b strings.Builder
	for i, it := range e.Items() {
		if i > 0 {
			b.WriteString(" + ")
		}
		if it.Count != 1 {
			b.WriteString(strconv.Itoa(it.Count) + "×")
		}
		b.WriteString(it.Insn)
	}
	return b.String()
}
