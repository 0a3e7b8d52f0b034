package session

import (
	"fmt"
	"path"
	"strings"

	"github.com/traefik/yaegi/interp"
)

// Host is what the program running a session hands to it: the compiled
// packages cells may import besides the standard library and the kernel's
// display package, their documentation, the packages every cell sees
// without importing them, and what %help says about them. The kernel knows
// no package of its host; the portlab command hands it the library.
type Host struct {
	// Symbols are the symbol tables of the compiled packages, in the form
	// interp.Interpreter.Use takes (as kernel/internal/symgen generates
	// them).
	Symbols interp.Exports
	// Docs returns the declaration and doc comment of a symbol of Symbols,
	// keyed "importpath.Name", "importpath.Type.Method" or "importpath"
	// for the package, for Inspect (Shift-Tab) and %doc; nil if none.
	Docs func(key string) (string, bool)
	// Imports are the import paths that every session imports, so that
	// cells use them without an import declaration.
	Imports []string
	// Help is Markdown that %help shows after the list of imported
	// packages: what else can be imported, how to use the host's packages.
	Help string
}

// doc returns the documentation of the symbol key: the display package's
// or the host's.
func (s *Session) doc(key string) (string, bool) {
	if d, ok := displayDoc(key); ok {
		return d, true
	}
	if s.opts.Host.Docs != nil {
		return s.opts.Host.Docs(key)
	}
	return "", false
}

// preludeImports are the packages imported in every session besides the
// host's.
var preludeImports = []string{"fmt", "math", "os", "strings"}

// displayPath is the import path of the kernel's display package.
const displayPath = "github.com/portlab/portlab/kernel/display"

// preludeSource returns the prelude of a session whose host imports
// imports.
func preludeSource(imports []string) string {
	var b strings.Builder
	b.WriteString("import (\n")
	for _, p := range preludeImports {
		fmt.Fprintf(&b, "\t%q\n", p)
	}
	fmt.Fprintf(&b, "\n\t%q\n", displayPath)
	for _, p := range imports {
		fmt.Fprintf(&b, "\t%q\n", p)
	}
	b.WriteString("\t_portlab \"portlab.kernel/cell\"\n)\n")
	return b.String() + preludeBody
}

// Imported returns the import paths of the packages every cell sees
// without importing them: fmt, math, os and strings, the host's Imports,
// then the kernel's display package.
func (s *Session) Imported() []string {
	paths := append([]string(nil), preludeImports...)
	paths = append(paths, s.opts.Host.Imports...)
	return append(paths, displayPath)
}

// importedNames returns the names of the packages every cell sees, as
// %help lists them (see Imported).
func (s *Session) importedNames() []string {
	var names []string
	for _, p := range s.Imported() {
		names = append(names, path.Base(p))
	}
	return names
}
