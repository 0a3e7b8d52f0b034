package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/portlab/portlab/kernel/display"
	"github.com/portlab/portlab/kernel/session"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// TestLibraryValuesRenderThemselves: library values reach the notebook as
// their own HTML (or a plots view through the viewer the command
// registers), never as raw structs, and the display knows none of their
// types.
func TestLibraryValuesRenderThemselves(t *testing.T) {
	host()
	m := portmap.MustMapping("fig3.1", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]")
	e := portmap.NewExperiment("add", "add", "mul", "store")
	set := &portmap.ExperimentSet{Arch: m.Arch(), Measurements: []portmap.Measurement{
		{Experiment: e, Cycles: 1.6, Min: 1.5, Max: 1.7, Dispersion: 0.01},
		{Experiment: portmap.NewExperiment("store", "store"), Cycles: 2},
	}}
	s, _ := throughput.LP(m, e)
	ev := metrics.Evaluate(context.Background(), oracle.FromMapping(m), set)
	for _, c := range []struct {
		v          any
		text, html string
	}{
		{m, "mapping fig3.1: 3 instructions", `<img alt="mapping graph of fig3.1" src="data:image/png;base64,`},
		{set, "2 measured experiments on fig3.1", "<th>dispersion</th>"},
		{s, "cycles 1.5; port pressure", `<img alt="port pressure" src="data:image/png;base64,`},
		{ev, "fig3.1 on fig3.1: n=2", `<img alt="heat map"`},
		{set.Measurements[0], "{add ↦ 2, mul ↦ 1, store ↦ 1}: 1.6 cycles (min 1.5, max 1.7, dispersion 1.00%)", ""},
		{portmap.Failure{Index: 2, Experiment: e, Insn: "add", Reason: "no"}, `experiment 2 {add ↦ 2, mul ↦ 1, store ↦ 1}: instruction "add": no`, ""},
	} {
		b := display.Render(c.v)
		if !strings.Contains(b.PlainText(), c.text) {
			t.Errorf("%T: text %q lacks %q", c.v, b.PlainText(), c.text)
		}
		h, _ := b.Data[display.MIMEHTML].(string)
		if !strings.Contains(h, c.html) {
			t.Errorf("%T: HTML lacks %q: %.300s", c.v, c.html, h)
		}
		if strings.Contains(b.PlainText(), "{0x") || strings.Contains(b.PlainText(), "&{") {
			t.Errorf("%T shows as a raw struct: %s", c.v, b.PlainText())
		}
	}
	// An evaluation keeps its Markdown form beside the viewer's HTML.
	if b := display.Render(ev); !b.Has(display.MIMEMarkdown) {
		t.Errorf("the evaluation's bundle has no Markdown: %v", b.Data)
	}
}

// mimeTypes lists a bundle's MIME types, sorted.
func mimeTypes(b display.Bundle) string {
	var types []string
	for t := range b.Data {
		types = append(types, t)
	}
	sort.Strings(types)
	return strings.Join(types, " ")
}

// TestRenderLibraryValues checks the MIME types and first text lines of
// library values and of a summary that renders itself (HTML and Markdown
// methods).
func TestRenderLibraryValues(t *testing.T) {
	host()
	m := portmap.MustMapping("fig3.1", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]")
	e, _ := portmap.ExperimentOf(map[string]int{"add": 2, "mul": 1, "store": 1})
	r, _ := throughput.Bottleneck(m, e)
	s, _ := throughput.LP(m, e)
	sum, _ := metrics.Summarize([]float64{1, 2, 4}, []float64{1, 2.2, 3.6})
	var got []string
	for _, v := range []any{m, e, r, s, sum, 42, "text", display.HTML("<b>hi</b>")} {
		b := display.Render(v)
		got = append(got, fmt.Sprintf("%-36s %s", mimeTypes(b), strings.SplitN(b.PlainText(), "\n", 2)[0]))
	}
	want := []string{
		"text/html text/plain                 mapping fig3.1: 3 instructions, ports p1 p2 p3",
		"text/html text/plain                 {add ↦ 2, mul ↦ 1, store ↦ 1}",
		"text/html text/plain                 1.5 cycles (3 µops on the 2 bottleneck ports {0,1}; bound: ports), IPC 2.67",
		"text/html text/plain                 cycles 1.5; port pressure: p1=1.5 p2=1.5 p3=1",
		"text/html text/markdown text/plain   n=3 MAPE=6.67% median APE=10.00% Pearson=0.989 Spearman=1.000 Kendall τ-b=1.000",
		"text/plain                           42",
		"text/plain                           \"text\"",
		"text/html text/plain                 <HTML>",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rendered\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// newHostSession returns a session with the command's host.
func newHostSession(t *testing.T) *session.Session {
	t.Helper()
	s, err := session.New(session.Options{Host: host()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// runCell runs code in s and fails the test on an error.
func runCell(t *testing.T, s *session.Session, code string) session.Result {
	t.Helper()
	r := s.Execute(context.Background(), code, nil)
	if r.Err != nil {
		t.Fatalf("cell %q: %v", code, r.Err)
	}
	return r
}

// TestSessionWithTheLibrary: the command's sessions import the library,
// show its values with their pictures, complete and document its names.
func TestSessionWithTheLibrary(t *testing.T) {
	s := newHostSession(t)
	r := runCell(t, s, `m := portmap.MustMapping("fig", "p1", "p2")
m.MustSetUsage("add", "1*[p1,p2]")`)
	html, _ := r.Value.Data[display.MIMEHTML].(string)
	if !strings.Contains(html, "<table>") || !strings.Contains(html, `<img alt="mapping graph`) {
		t.Errorf("mapping HTML has no table or graph: %.200s", html)
	}
	r = runCell(t, s, `e, _ := portmap.ExperimentOf(map[string]int{"add": 3})
s, _ := throughput.LP(m, e)
s`)
	if html, _ := r.Value.Data[display.MIMEHTML].(string); !strings.Contains(html, `<img alt="port pressure"`) {
		t.Errorf("schedule bundle: %.200s", html)
	}
	r = runCell(t, s, `import "gonum.org/v1/gonum/floats"
floats.Sum([]float64{1, 2}) + float64(len(dataset.Names) * 0)`)
	if got := r.Value.PlainText(); got != "3" {
		t.Errorf("gonum in a cell: %s", got)
	}
	if matches, _ := s.Complete("throughput.Bo", len("throughput.Bo")); strings.Join(matches, " ") != "Bottleneck Bound" {
		t.Errorf("completion of throughput.Bo: %v", matches)
	}
	for code, want := range map[string]string{
		"throughput.LP": "LP solves the throughput linear program",
		"m.SetUsage":    "SetUsage",
		"metrics":       "package metrics",
		"plots.View":    "func View(v any) (HTMLFragment, bool)",
	} {
		if b, ok := s.Inspect(code, len(code)); !ok || !strings.Contains(b.PlainText(), want) {
			t.Errorf("Inspect(%q) = %v %q, want %q", code, ok, b.PlainText(), want)
		}
	}
	if got := strings.Join(s.Imported(), " "); !strings.HasSuffix(got, "lib/dataset github.com/portlab/portlab/plots github.com/portlab/portlab/kernel/display") {
		t.Errorf("Imported: %s", got)
	}
	r = runCell(t, s, "%help")
	if h := r.Value.PlainText(); !strings.Contains(h, "`portmap`, `throughput`, `metrics`, `dataset`, `plots` and `display`.") ||
		!strings.Contains(h, "throughput.Predict(ctx, m, exps)") {
		t.Errorf("%%help: %.500s", h)
	}
}
