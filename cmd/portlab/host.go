package main

import (
	"sync"

	"github.com/portlab/portlab/cmd/portlab/internal/symbols"
	"github.com/portlab/portlab/kernel/display"
	"github.com/portlab/portlab/kernel/session"
	"github.com/portlab/portlab/plots"
)

// hostHelp is what %help says about the library in the command's sessions.
const hostHelp = "`gonum.org/v1/gonum/{mat,stat,floats}` and `gonum.org/v1/plot/{,plotter,plotutil,vg,vg/draw}` can be imported. " +
	"Pass `ctx` to slow library calls, e.g. `throughput.Predict(ctx, m, exps)`; " +
	"a `plots` figure shows as PNG (`plots.AsSVG`, `plots.AsHTML` for the other forms)."

// addViewer registers plotsViewer once.
var addViewer = sync.OnceFunc(func() { display.AddViewer(plotsViewer) })

// host returns what the command hands to the sessions of the kernel and
// the REPL: the symbol tables and documentation of the library, plots,
// gonum and gonum/plot, and the library packages every cell sees. It also
// registers plotsViewer with the display.
func host() session.Host {
	addViewer()
	return session.Host{
		Symbols: symbols.Symbols,
		Docs:    symbols.Doc,
		Imports: []string{
			"github.com/portlab/portlab/lib/portmap",
			"github.com/portlab/portlab/lib/throughput",
			"github.com/portlab/portlab/lib/metrics",
			"github.com/portlab/portlab/lib/dataset",
			"github.com/portlab/portlab/plots",
		},
		Help: hostHelp,
	}
}

// plotsViewer shows the library values that are best shown with a picture
// (plots.View: a mapping with its graph, a schedule as its port-pressure
// chart, an evaluation with its heat map, …) as that HTML, with the value's
// text and, when it has one, its Markdown form.
func plotsViewer(v any) (display.Bundle, bool) {
	h, ok := plots.View(v)
	if !ok {
		return display.Bundle{}, false
	}
	b := display.MIME(display.MIMEHTML, h.HTML(), display.Format(v))
	if x, ok := v.(display.Markdowner); ok {
		b.Data[display.MIMEMarkdown] = x.Markdown()
	}
	return b, true
}
