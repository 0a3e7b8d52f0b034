package display

import (
	"errors"
	"fmt"
	"html"
	"image"
	"reflect"
	"strings"
	"sync"

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

// A Viewer returns the bundle of the values it knows how to show, and
// false for any other value. The program that runs the kernel registers
// viewers with AddViewer for the types of its own packages that are best
// shown with a picture: the portlab command registers one that shows a
// port mapping with its graph and an evaluation with its heat map.
type Viewer func(v any) (Bundle, bool)

// viewers are the registered viewers, in the order of registration.
var viewers struct {
	sync.RWMutex
	list []registered
	next int
}

// registered is a viewer with the number that identifies its registration.
type registered struct {
	id   int
	view Viewer
}

// AddViewer registers view: Render asks the viewers, in the order they were
// added, before it considers a value's own methods. It returns a function
// that removes view again.
func AddViewer(view Viewer) (remove func()) {
	viewers.Lock()
	defer viewers.Unlock()
	viewers.next++
	id := viewers.next
	viewers.list = append(viewers.list, registered{id, view})
	return func() {
		viewers.Lock()
		defer viewers.Unlock()
		for i, r := range viewers.list {
			if r.id == id {
				viewers.list = append(viewers.list[:i:i], viewers.list[i+1:]...)
				return
			}
		}
	}
}

// view returns the bundle of the first registered viewer that shows v.
func view(v any) (Bundle, bool) {
	viewers.RLock()
	list := viewers.list
	viewers.RUnlock()
	for _, r := range list {
		if b, ok := r.view(v); ok {
			return b, true
		}
	}
	return Bundle{}, false
}

// Render returns the richest bundle for v (see the package documentation
// for the order of preference). Its text/plain form is Format(v) unless a
// more specific one is known. The display knows no library type: library
// values render themselves (HTML, Markdown, SVG, PNG methods), and those
// that are best shown with a picture are shown by a registered Viewer.
func Render(v any) Bundle {
	v = unwrap(v)
	if b, ok := view(v); ok {
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
	v = withPointerMethods(v)
	text := Format(v)
	if !hasRichMethod(v) {
		if h, ok := structHTML(v); ok {
			return MIME(MIMEHTML, h, text)
		}
	}
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
	v = withPointerMethods(unwrap(v))
	switch x := v.(type) {
	case nil:
		return "<nil>"
	case wrapped:
		if e, ok := x.v.(error); ok {
			return "error: " + e.Error()
		}
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
	if t, ok := structText(v); ok {
		return t
	}
	return fmt.Sprintf("%v", v)
}

// withPointerMethods returns a pointer to a copy of v when v is a value
// (such as a dereferenced *portmap.ExperimentSet) whose String or rich
// methods have pointer receivers, so that it shows as its pointer does;
// otherwise it returns v.
func withPointerMethods(v any) any {
	if v == nil || hasRichMethod(v) {
		return v
	}
	if _, ok := v.(fmt.Stringer); ok {
		return v
	}
	if _, ok := v.(error); ok {
		return v
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		return v
	}
	p := reflect.New(rv.Type())
	p.Elem().Set(rv)
	pv := p.Interface()
	if _, ok := pv.(fmt.Stringer); ok || hasRichMethod(pv) {
		return pv
	}
	return v
}

// hasRichMethod reports whether v renders itself.
func hasRichMethod(v any) bool {
	switch v.(type) {
	case HTMLer, SVGer, PNGer, Markdowner, JSONer, Renderer:
		return true
	}
	return false
}

// namedStruct returns the struct value of v, a struct or a non-nil pointer
// to one, when its type is a named type of a compiled package (a library
// type without a String method; the interpreter's own types have no
// name).
func namedStruct(v any) (reflect.Value, bool) {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct || rv.Type().Name() == "" || rv.Type().PkgPath() == "" {
		return reflect.Value{}, false
	}
	return rv, true
}

// structText formats a library struct without a String method as
// pkg.Type{Field: value, …}, each exported field formatted by Format (so
// that fields that are library values show as themselves).
func structText(v any) (string, bool) {
	rv, ok := namedStruct(v)
	if !ok || hasRichMethod(v) || !hasExportedField(rv.Type()) {
		return "", false
	}
	t := rv.Type()
	var parts []string
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		parts = append(parts, f.Name+": "+fieldText(rv.Field(i)))
	}
	prefix := ""
	if reflect.ValueOf(v).Kind() == reflect.Pointer {
		prefix = "&"
	}
	return prefix + t.String() + "{" + strings.Join(parts, ", ") + "}", true
}

// fieldText formats a struct field: Format for values that show
// themselves, %v otherwise (nested structs are not expanded).
func fieldText(f reflect.Value) string {
	if !f.CanInterface() {
		return "?"
	}
	x := f.Interface()
	if x == nil || IsNil(x) {
		return fmt.Sprintf("%v", x)
	}
	switch y := withPointerMethods(x).(type) {
	case fmt.Stringer:
		return y.String()
	case error:
		return y.Error()
	case string:
		return fmt.Sprintf("%q", y)
	}
	return fmt.Sprintf("%v", x)
}

// hasExportedField reports whether the struct type t has an exported field.
func hasExportedField(t reflect.Type) bool {
	for i := range t.NumField() {
		if t.Field(i).IsExported() {
			return true
		}
	}
	return false
}

// structHTML renders a library struct without rich methods as a table of
// its exported fields, each shown by its own HTML method when it has one.
func structHTML(v any) (string, bool) {
	rv, ok := namedStruct(v)
	if !ok || !hasExportedField(rv.Type()) {
		return "", false
	}
	t := rv.Type()
	var b strings.Builder
	fmt.Fprintf(&b, "<table><caption style=\"text-align:left\"><code>%s</code></caption>", html.EscapeString(t.String()))
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		cell := html.EscapeString(fieldText(rv.Field(i)))
		if x := rv.Field(i); x.CanInterface() && !IsNil(x.Interface()) {
			if h, ok := withPointerMethods(x.Interface()).(HTMLer); ok {
				cell = h.HTML()
			}
		}
		fmt.Fprintf(&b, "<tr><th style=\"text-align:left;vertical-align:top\">%s</th><td style=\"text-align:left\">%s</td></tr>", f.Name, cell)
	}
	b.WriteString("</table>")
	return b.String(), true
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
		if _, ok := v.(error); ok {
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
