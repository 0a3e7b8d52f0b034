// Command symgen writes the symbol tables and the documentation table
// through which a kernel session's yaegi interpreter calls compiled
// packages. A package holding tables runs it from a go:generate line with
// the packages to export as go list patterns:
//
//	//go:generate go run <path to kernel/internal/symgen> -pkg NAME PATTERN...
//
// It writes, into the folder of that line, one file per package, made by
// yaegi's extract package exactly as `yaegi extract` makes it, and
// docs_generated.go, the declarations and doc comments of the exported
// symbols read with go/doc (a map named docs). Commands, internal packages
// and test helpers (packages whose name ends in "test") matched by a
// pattern are left out, so a pattern such as ".../lib/..." exports a new
// package after the next go generate. With -check it compares instead of
// writing and exits non-zero when a file differs or would no longer be
// generated; the test of each table package runs its go:generate line with
// -check, so a change to an exported package fails the tests until the
// tables are regenerated.
//
// The kernel uses it for its own package display (kernel/internal/displaysym);
// the portlab command for the library, plots, gonum and gonum/plot.
package main
