package infer

import (
	"encoding/json"
	"html"
	"os"
	"strings"
)

// Report is a method's account of a run (Result.Report): every method's
// report renders itself as text (String, the command line's output) and
// HTML (a notebook cell), and writes the files of its own (WriteFiles,
// with PREFIX the -out prefix). Result.WriteFiles writes
// PREFIX.report.json, the report as JSON with the run's figures, unless
// the report writes that file itself.
type Report interface {
	String() string
	HTML() string
	WriteFiles(prefix string) ([]string, error)
}

// marshalReport returns the JSON of r's report with the run's figures.
func marshalReport(r *Result) ([]byte, error) {
	data, err := json.MarshalIndent(struct {
		Method                  string
		Status                  Status
		Queries, Distinct, Data int
		ElapsedSeconds          float64
		Report                  any
	}{r.Method, r.Status, r.Queries, r.Distinct, r.Data, r.Elapsed.Seconds(), r.Report}, "", "  ")
	return append(data, '\n'), err
}

// WriteJSON writes v as indented JSON to the file name.
func WriteJSON(name string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(name, append(data, '\n'), 0o644)
}

// HTML builds the HTML of a report from sections: paragraphs,
// preformatted text, lists and tables, with the text escaped. The reports
// of all methods render through it, so that they look alike.
type HTML struct{ b strings.Builder }

// Para adds a paragraph of text.
func (h *HTML) Para(text string) *HTML {
	h.b.WriteString("<p>" + html.EscapeString(text) + "</p>")
	return h
}

// Pre adds preformatted text.
func (h *HTML) Pre(text string) *HTML {
	h.b.WriteString("<pre>" + html.EscapeString(text) + "</pre>")
	return h
}

// Raw adds HTML made elsewhere (e.g. a mapping's table).
func (h *HTML) Raw(markup string) *HTML {
	h.b.WriteString(markup)
	return h
}

// List adds a list of items, numbered when ordered; each item is HTML
// (escape text with Escape).
func (h *HTML) List(ordered bool, items ...string) *HTML {
	tag := "ul"
	if ordered {
		tag = "ol"
	}
	h.b.WriteString("<" + tag + ">")
	for _, it := range items {
		h.b.WriteString("<li>" + it + "</li>")
	}
	h.b.WriteString("</" + tag + ">")
	return h
}

// Table adds a table; fill adds its rows.
func (h *HTML) Table(caption string, header []string, fill func(t *Table)) *HTML {
	h.b.WriteString("<table>")
	if caption != "" {
		h.b.WriteString("<caption>" + html.EscapeString(caption) + "</caption>")
	}
	if len(header) > 0 {
		h.b.WriteString("<tr>")
		for _, c := range header {
			h.b.WriteString("<th>" + html.EscapeString(c) + "</th>")
		}
		h.b.WriteString("</tr>")
	}
	fill(&Table{h: h})
	h.b.WriteString("</table>")
	return h
}

// String returns the HTML built.
func (h *HTML) String() string { return h.b.String() }

// Table adds rows to a table of HTML.
type Table struct{ h *HTML }

// Row adds a row of text cells.
func (t *Table) Row(cells ...string) {
	t.h.b.WriteString("<tr>")
	for _, c := range cells {
		t.h.b.WriteString("<td>" + html.EscapeString(c) + "</td>")
	}
	t.h.b.WriteString("</tr>")
}

// RawRow adds a row of cells that are HTML already.
func (t *Table) RawRow(cells ...string) {
	t.h.b.WriteString("<tr>")
	for _, c := range cells {
		t.h.b.WriteString("<td>" + c + "</td>")
	}
	t.h.b.WriteString("</tr>")
}

// Field adds a row of a key (a left-aligned header cell) and its value.
func (t *Table) Field(key, value string) {
	t.h.b.WriteString("<tr><th style=\"text-align:left\">" + html.EscapeString(key) + "</th><td style=\"text-align:left\">" + html.EscapeString(value) + "</td></tr>")
}

// Escape escapes text for HTML.
func Escape(text string) string { return html.EscapeString(text) }
