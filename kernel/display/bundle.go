package display

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// MIME types of the representations a Bundle can hold.
const (
	MIMEText     = "text/plain"
	MIMEHTML     = "text/html"
	MIMEMarkdown = "text/markdown"
	MIMEPNG      = "image/png"
	MIMESVG      = "image/svg+xml"
	MIMEJSON     = "application/json"
)

// Bundle is a MIME bundle: representations of one value keyed by MIME type,
// plus per-type metadata (such as an image's width and height). Textual
// representations are strings, binary ones (image/png) are []byte, which
// encoding/json writes as the base64 text Jupyter expects, and
// application/json holds any JSON-encodable value. Every bundle made by this
// package has a text/plain representation.
type Bundle struct {
	Data     map[string]any
	Metadata map[string]any
}

// MIME returns a bundle with data as the representation of type mime and
// alt as its text/plain fallback.
func MIME(mime string, data any, alt string) Bundle {
	b := Bundle{Data: map[string]any{MIMEText: alt}, Metadata: map[string]any{}}
	if mime != MIMEText {
		b.Data[mime] = data
	}
	return b
}

// Text returns a bundle holding only the plain text s.
func Text(s string) Bundle { return MIME(MIMEText, s, s) }

// HTML returns a bundle holding the HTML fragment html.
func HTML(html string) Bundle { return MIME(MIMEHTML, html, "<HTML>") }

// Markdown returns a bundle holding Markdown text, shown as source in a
// terminal.
func Markdown(md string) Bundle { return MIME(MIMEMarkdown, md, md) }

// SVG returns a bundle holding an SVG document, also as inline HTML: front
// ends that prefer HTML (and nbconvert's HTML export, which strips SVG
// outputs) show the same picture.
func SVG(svg string) Bundle {
	b := MIME(MIMESVG, svg, "<SVG image>")
	b.Data[MIMEHTML] = "<div>" + svg + "</div>"
	return b
}

// PNG returns a bundle holding PNG-encoded image data, with the image's size
// in the metadata when the data decodes.
func PNG(data []byte) Bundle {
	b := MIME(MIMEPNG, data, fmt.Sprintf("<PNG image, %d bytes>", len(data)))
	if cfg, err := png.DecodeConfig(bytes.NewReader(data)); err == nil {
		b.Metadata[MIMEPNG] = map[string]any{"width": cfg.Width, "height": cfg.Height}
		b.Data[MIMEText] = fmt.Sprintf("<PNG image %d×%d>", cfg.Width, cfg.Height)
	}
	return b
}

// JSON returns a bundle holding v as application/json, with v indented as
// its text/plain form. It returns a text bundle with the error if v cannot
// be encoded.
func JSON(v any) Bundle {
	text, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return Text("display.JSON: " + err.Error())
	}
	var generic any
	_ = json.Unmarshal(text, &generic)
	return MIME(MIMEJSON, generic, string(text))
}

// Image returns a bundle holding img encoded as PNG.
func Image(img image.Image) Bundle {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return Text("display.Image: " + err.Error())
	}
	return PNG(buf.Bytes())
}

// Plot returns a bundle holding p drawn as a PNG image of the given size
// (vg.Length, e.g. 12*vg.Centimeter); zero sizes mean 14 cm × 9 cm.
func Plot(p *plot.Plot, width, height vg.Length) Bundle {
	if width == 0 {
		width = 14 * vg.Centimeter
	}
	if height == 0 {
		height = 9 * vg.Centimeter
	}
	w, err := p.WriterTo(width, height, "png")
	if err != nil {
		return Text("display.Plot: " + err.Error())
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		return Text("display.Plot: " + err.Error())
	}
	b := PNG(buf.Bytes())
	if p.Title.Text != "" {
		b.Data[MIMEText] = fmt.Sprintf("<plot %q>", p.Title.Text)
	}
	return b
}

// Has reports whether b holds a representation of type mime.
func (b Bundle) Has(mime string) bool {
	_, ok := b.Data[mime]
	return ok
}

// PlainText returns b's text/plain representation.
func (b Bundle) PlainText() string {
	s, _ := b.Data[MIMEText].(string)
	return s
}

// With returns a copy of b that also holds data as the representation of
// type mime.
func (b Bundle) With(mime string, data any) Bundle {
	c := Bundle{Data: make(map[string]any, len(b.Data)+1), Metadata: make(map[string]any, len(b.Metadata))}
	for k, v := range b.Data {
		c.Data[k] = v
	}
	for k, v := range b.Metadata {
		c.Metadata[k] = v
	}
	c.Data[mime] = data
	return c
}

// String returns b's text/plain representation.
func (b Bundle) String() string { return b.PlainText() }
