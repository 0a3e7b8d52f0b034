package display

import (
	"errors"
	"fmt"
	"image"
	"reflect"
	"strings"

	"github.com/portlab/portlab/plots"
	"gonum.org/v1/plot"
)

// HTMLer is implemented by values that show themselves as an HTML fragment.
type HTMLer interface{ HTML() string }

// Markdowner is implemented by values that show themselves as Markdown.
type Markdowner interface{ Markdown() string }

// SVGer is implemented by values that show themselves as an SVG document.
type SVGer interface{ SVG() string }

// PNGer is implemented by values that show themselves as a PNG image.
type PNGer interface{ PNG() []byte }

// JSONer is implemented by values that show themselves as JSON; JSON
// returns any JSON-encodable value.
type JSONer interface{ JSON() any }

// figure is a static figure of the plots package (plots.Figure), shown as
// PNG; its interactive version is shown with plots.AsHTML.
type figure interface {
	PNG() ([]byte, error)
	SVG() ([]byte, error)
}

// Renderer is implemented by values that build their own bundle.
type Renderer interface{ Render() Bundle }

// Render returns the richest bundle for v (see the package documentation
// for the order of preference). Its text/plain form is Format(v) unless a
// more specific one is known. The display knows no library type: library
// values render themselves (HTML, Markdown, SVG, PNG methods), and those
// that are best shown with a picture get a view from plots.View.
func Render(v any) Bundle {
	v = unwrap(v)
	if h, ok := plots.View(v); ok {
		b := MIME(MIMEHTML, h.HTML(), Format(v))
		if x, ok := v.(Markdowner); ok {
			b.Data[MIMEMarkdown] = x.Markdown()
		}
		return b
	}
	switch x := v.(type) {
	case Bundle:
		return x
	case *Bundle:
		if x != nil {
			return *x
		}
	case Renderer:
		return x.Render()
	case *plot.Plot:
		if x != nil {
			return Plot(x, 0, 0)
		}
	case image.Image:
		return Image(x)
	case figure:
		png, err := x.PNG()
		if err != nil {
			return Text("figure: " + err.Error())
		}
		b := PNG(png)
		b.Data[MIMEText] = "<figure>"
		return b
	}
	text := Format(v)
	b := richBundle(v, text)
	// A value may have more than one of the methods.
	if x, ok := v.(Markdowner); ok && !b.Has(MIMEMarkdown) {
		b.Data[MIMEMarkdown] = x.Markdown()
	}
	return b
}

// short returns text, or alt when text is too long to stand for a picture
// (as the %v form of a type that is itself an SVG string).
func short(text, alt string) string {
	if len(text) > 200 || strings.HasPrefix(text, "<") || strings.HasPrefix(text, "[") {
		return alt
	}
	return text
}

// Format returns the plain-text form of v used in bundles: strings are
// quoted, errors show their message, values with a String method use it,
// and anything else is formatted with %v.
func Format(v any) string {
	v = unwrap(v)
	switch x := v.(type) {
	case nil:
		return "<nil>"
	case wrapped:
		if s, ok := x.v.(fmt.Stringer); ok {
			return s.String()
		}
		return Format(x.inner)
	case string:
		return fmt.Sprintf("%q", x)
	case error:
		return "error: " + x.Error()
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprintf("%v", v)
}

// Values returns the bundle of the results of one expression: the bundle of
// the value itself when there is one, and otherwise a tuple of their
// plain-text forms such as (3, <nil>).
func Values(vs ...any) Bundle {
	if len(vs) == 1 {
		return Render(vs[0])
	}
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = Render(v).PlainText()
	}
	return Text("(" + strings.Join(parts, ", ") + ")")
}

// IsNil reports whether v is nil or a nil pointer, map, slice, function,
// channel or interface; such results of a cell are not shown.
func IsNil(v any) bool {
	v = unwrap(v)
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

// unwrap returns the interpreted value inside a wrapper that the yaegi
// interpreter builds when it passes a value to compiled code as one of this
// package's interfaces (a struct with an IValue field), so that its
// plain-text form is the value's own.
func unwrap(v any) any {
	if v == nil {
		return nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct || !strings.HasPrefix(rv.Type().Name(), "_") {
		return v
	}
	if f := rv.FieldByName("IValue"); f.IsValid() && f.CanInterface() {
		inner := f.Interface()
		if _, ok := v.(HTMLer); ok {
			return wrapped{inner: inner, v: v}
		}
		if _, ok := v.(SVGer); ok {
			return wrapped{inner: inner, v: v}
		}
		if _, ok := v.(PNGer); ok {
			return wrapped{inner: inner, v: v}
		}
		if _, ok := v.(Markdowner); ok {
			return wrapped{inner: inner, v: v}
		}
		if _, ok := v.(JSONer); ok {
			return wrapped{inner: inner, v: v}
		}
		if _, ok := v.(Renderer); ok {
			return wrapped{inner: inner, v: v}
		}
		if _, ok := v.(fmt.Stringer); ok {
			return wrapped{inner: inner, v: v}
		}
		return inner
	}
	return v
}

// wrapped is an interpreter wrapper whose rich method is still needed; it
// renders through the wrapper and formats as the inner value.
type wrapped struct {
	inner any
	v     any
}

func (w wrapped) Render() Bundle {
	if x, ok := w.v.(Renderer); ok {
		return x.Render()
	}
	return richBundle(w.v, Format(w))
}

// richBundle renders v by the first rich method it has (HTML, SVG, PNG,
// Markdown, JSON), with text as the plain-text alternative.
func richBundle(v any, text string) Bundle {
	switch x := v.(type) {
	case HTMLer:
		return MIME(MIMEHTML, x.HTML(), short(text, "<HTML>"))
	case SVGer:
		b := SVG(x.SVG())
		b.Data[MIMEText] = short(text, "<SVG image>")
		return b
	case PNGer:
		b := PNG(x.PNG())
		b.Data[MIMEText] = short(text, b.PlainText())
		return b
	case Markdowner:
		return MIME(MIMEMarkdown, x.Markdown(), text)
	case JSONer:
		b := JSON(x.JSON())
		b.Data[MIMEText] = text
		return b
	}
	return Text(text)
}

// errNoKernel is returned by Input outside a kernel session when standard
// input is closed.
var errNoKernel = errors.New("display: no input")
