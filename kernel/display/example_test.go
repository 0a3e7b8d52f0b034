package display_test

import (
	"fmt"
	"sort"
	"strings"

	"github.com/portlab/portlab/kernel/display"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// mimeTypes lists a bundle's MIME types, sorted.
func mimeTypes(b display.Bundle) string {
	var types []string
	for t := range b.Data {
		types = append(types, t)
	}
	sort.Strings(types)
	return strings.Join(types, " ")
}

func ExampleRender() {
	m := portmap.MustMapping("fig3.1", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]")
	e, _ := portmap.ExperimentOf(map[string]int{"add": 2, "mul": 1, "store": 1})
	r, _ := throughput.Bottleneck(m, e)
	s, _ := throughput.LP(m, e)
	for _, v := range []any{m, e, r, s, 42, "text", display.HTML("<b>hi</b>")} {
		b := display.Render(v)
		fmt.Printf("%-32s %s\n", mimeTypes(b), strings.SplitN(b.PlainText(), "\n", 2)[0])
	}
	// Output:
	// text/html text/plain             mapping fig3.1: 3 instructions, ports p1 p2 p3
	// text/html text/plain             {add ↦ 2, mul ↦ 1, store ↦ 1}
	// text/html text/plain             1.5 cycles (3 µops on the 2 bottleneck ports {0,1}; bound: ports), IPC 2.67
	// text/html text/plain             cycles 1.5; port pressure: p1=1.5 p2=1.5 p3=1
	// text/plain                       42
	// text/plain                       "text"
	// text/html text/plain             <HTML>
}

func ExampleRender_summary() {
	// A library value that renders itself (HTML and Markdown methods).
	s, _ := metrics.Summarize([]float64{1, 2, 4}, []float64{1, 2.2, 3.6})
	b := display.Render(s)
	fmt.Println(mimeTypes(b))
	fmt.Println(b.PlainText())
	// Output:
	// text/html text/markdown text/plain
	// n=3 MAPE=6.67% median APE=10.00% Pearson=0.989 Spearman=1.000 Kendall τ-b=1.000
}

func ExampleValues() {
	fmt.Println(display.Values(3, nil).PlainText())
	fmt.Println(display.Values(1, "a", 2.5).PlainText())
	// Output:
	// (3, <nil>)
	// (1, "a", 2.5)
}

type badge struct{ text string }

func (b badge) HTML() string { return "<b>" + b.text + "</b>" }

func ExampleHTMLer() {
	b := display.Render(badge{"new"})
	fmt.Println(b.Data[display.MIMEHTML], b.PlainText())
	// Output:
	// <b>new</b> {new}
}
