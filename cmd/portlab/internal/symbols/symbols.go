package symbols

//go:generate go run ../../../../kernel/internal/symgen -pkg symbols github.com/portlab/portlab/lib/... github.com/portlab/portlab/plots gonum.org/v1/gonum/floats gonum.org/v1/gonum/mat gonum.org/v1/gonum/stat gonum.org/v1/plot gonum.org/v1/plot/plotter gonum.org/v1/plot/plotutil gonum.org/v1/plot/vg gonum.org/v1/plot/vg/draw

import (
	"path"

	"github.com/traefik/yaegi/interp"
)

// Symbols maps "importpath/name" to the exported symbols of each package,
// in the form interp.Interpreter.Use takes. The generated files fill it.
var Symbols = interp.Exports{}

// Doc returns the declaration and doc comment of an extracted symbol, keyed
// by import path and name: "github.com/portlab/portlab/lib/throughput.LP",
// a method as "….Schedule.Tight", a package by its import path alone.
func Doc(key string) (string, bool) {
	d, ok := docs[key]
	return d, ok
}

// DocKeys returns the number of documented symbols.
func DocKeys() int { return len(docs) }

// Has reports whether the package importPath is exported to the
// interpreter.
func Has(importPath string) bool {
	_, ok := Symbols[importPath+"/"+path.Base(importPath)]
	return ok
}
