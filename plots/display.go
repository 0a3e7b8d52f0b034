package plots

import (
	"image/color"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The types below are a figure rendered in one format, for a notebook
// cell that asks for that format: each has exactly one of the methods
// PNG() []byte, SVG() string and HTML() string that a notebook kernel
// looks for, so a kernel that knows nothing of this package shows it. If
// the figure cannot be rendered they show the error instead (as a small
// image, SVG or HTML with the message), so a cell never fails silently.

// PNGImage is a PNG image for display.
type PNGImage []byte

// PNG returns the image.
func (p PNGImage) PNG() []byte { return p }

// SVGDocument is an SVG document for display.
type SVGDocument string

// SVG returns the document.
func (s SVGDocument) SVG() string { return string(s) }

// HTMLFragment is an HTML fragment (not a whole page) for display.
type HTMLFragment string

// HTML returns the fragment.
func (h HTMLFragment) HTML() string { return string(h) }

// AsPNG renders f as PNG for display, or an image of the error.
func AsPNG(f Figure) PNGImage {
	b, err := f.PNG()
	if err != nil {
		b, _ = renderPNG(errorFigure{err}, 96)
	}
	return PNGImage(b)
}

// AsSVG renders f as SVG for display, or an SVG of the error.
func AsSVG(f Figure) SVGDocument {
	b, err := f.SVG()
	if err != nil {
		b, _ = renderSVG(errorFigure{err})
	}
	return SVGDocument(b)
}

// AsHTML returns the interactive version of f for display (f.HTML()).
func AsHTML(f Interactive) HTMLFragment { return HTMLFragment(f.HTML()) }

// errorFigure shows an error message.
type errorFigure struct{ err error }

func (e errorFigure) size() (w, h vg.Length) {
	sty := textStyle(10, black)
	return max(sty.Width(e.err.Error())+vg.Points(20), vg.Points(120)), vg.Points(28)
}

func (e errorFigure) drawTo(c draw.Canvas) error {
	sty := textStyle(10, color.RGBA{R: 0xb0, G: 0x00, B: 0x20, A: 0xff})
	sty.YAlign = draw.YCenter
	c.FillText(sty, vg.Point{X: c.Min.X + vg.Points(10), Y: (c.Min.Y + c.Max.Y) / 2}, e.err.Error())
	return nil
}
