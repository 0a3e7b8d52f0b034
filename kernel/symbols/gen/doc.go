// Command gen writes the symbol tables and the documentation table of the
// packages that the portlab kernel exports to its interpreter. It is run by
// `go generate` in kernel/symbols and writes there: one file per package,
// made by yaegi's extract package exactly as `yaegi extract` makes it, and
// docs_generated.go, the declarations and doc comments of the exported
// symbols read with go/doc.
//
// The packages are listed in Packages; adding a package to the notebook is
// one line there followed by go generate. The test of this command
// regenerates everything in memory and compares it with the committed files,
// so CI fails when a library change has left the tables stale. With -check
// the command does the same comparison and exits non-zero on a difference.
package main
