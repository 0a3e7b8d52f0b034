package plots

import (
	"encoding/base64"
	"html"
	"strings"

	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// MaxGraphInstructions is the largest mapping View draws as a graph beside
// its table.
const MaxGraphInstructions = 24

// viewDPI is the resolution of the pictures View embeds: small enough to
// keep notebooks light, sharp enough on screen.
const viewDPI = 96

// View returns the notebook view of a library value that is more than its
// own HTML form: a Mapping as its port table beside its graph
// (MappingGraph), a throughput Schedule as its port-pressure chart, an
// Evaluation as its metrics table above its heat map, an inference Result
// as its summary, its mapping and the method's report. Pictures are
// embedded as PNG. It returns false for any other value. The notebook
// kernel asks View first and falls back to the value's own HTML, Markdown,
// SVG or PNG method, so a new library type needs no kernel code: it
// renders itself, or gets a view here.
func View(v any) (HTMLFragment, bool) {
	switch x := v.(type) {
	case *portmap.Mapping:
		if x == nil {
			return "", false
		}
		return HTMLFragment(mappingView(x)), true
	case *throughput.Schedule:
		if x == nil {
			return "", false
		}
		var tight []string
		for _, k := range x.Tight().Indices() {
			tight = append(tight, x.Ports[k])
		}
		pp := NewPortPressure(x.Ports, x.Pressure, tight, x.Cycles)
		pp.DPI = viewDPI
		return HTMLFragment(img(pp, "port pressure")), true
	case *metrics.Evaluation:
		if x == nil {
			return "", false
		}
		if x.Err() != nil {
			return HTMLFragment(x.HTML()), true
		}
		h := NewHeatmap(x)
		h.DPI = viewDPI
		return HTMLFragment(x.HTML() + img(h, "heat map")), true
	case *infer.Result:
		if x == nil {
			return "", false
		}
		var b strings.Builder
		b.WriteString("<p>" + html.EscapeString(x.String()) + "</p>")
		if r, ok := x.Report.(interface{ HTML() string }); ok {
			b.WriteString(r.HTML())
		}
		if x.Mapping != nil {
			b.WriteString(mappingView(x.Mapping))
		}
		return HTMLFragment(b.String()), true
	}
	return "", false
}

// mappingView is m's table beside its graph.
func mappingView(m *portmap.Mapping) string {
	s := `<div style="display:flex;gap:2em;align-items:flex-start;flex-wrap:wrap">` + m.HTML()
	if m.Len() > 0 && m.Len() <= MaxGraphInstructions {
		g := NewMappingGraph(m)
		g.DPI = viewDPI
		s += "<div>" + img(g, "mapping graph of "+m.Name()) + "</div>"
	}
	return s + "</div>"
}

// img returns f as an <img> with a PNG data URI, or the error as HTML.
func img(f Figure, alt string) string {
	b, err := f.PNG()
	if err != nil {
		return errorHTML(err)
	}
	return `<img alt="` + html.EscapeString(alt) + `" src="data:image/png;base64,` + base64.StdEncoding.EncodeToString(b) + `">`
}
