package display_test

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/portlab/portlab/kernel/display"
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

// cycles stands for a library value with a String method.
type cycles float64

func (c cycles) String() string { return fmt.Sprintf("%.1f cycles", float64(c)) }

// summary stands for a library value that renders itself as HTML and
// Markdown.
type summary struct{ n int }

func (s summary) String() string   { return fmt.Sprintf("n=%d", s.n) }
func (s summary) HTML() string     { return fmt.Sprintf("<p>n=%d</p>", s.n) }
func (s summary) Markdown() string { return fmt.Sprintf("*n*=%d", s.n) }

func ExampleRender() {
	for _, v := range []any{cycles(1.5), summary{3}, 42, "text", errors.New("no"), display.HTML("<b>hi</b>")} {
		b := display.Render(v)
		fmt.Printf("%-36s %s\n", mimeTypes(b), b.PlainText())
	}
	// Output:
	// text/plain                           1.5 cycles
	// text/html text/markdown text/plain   n=3
	// text/plain                           42
	// text/plain                           "text"
	// text/plain                           error: no
	// text/html text/plain                 <HTML>
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
