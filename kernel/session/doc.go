// Package session runs notebook cells of Go code in a persistent yaegi
// interpreter. A Session keeps the state of earlier cells, shows the value
// of a cell's last expression, streams what the cell prints — from
// interpreted and, with CaptureStdio, from compiled code — while the cell
// runs, and turns every failure, even a panic inside the interpreter, into
// an Error with the cell's own line numbers while the session lives on. It
// is the engine behind both the Jupyter kernel (package kernel) and the
// terminal REPL (package kernel/repl).
//
// The session is a host for packages it does not know: the program that
// runs it hands it a Host (Options.Host) with the symbol tables of the
// compiled packages cells may import, their documentation, the packages
// every cell sees without importing them and text for %help; the portlab
// command hands it the library, plots, gonum and gonum/plot. Without a
// host, cells have yaegi's standard library and the kernel's display
// package (whose table the kernel keeps itself, kernel/internal/displaysym).
//
// Cells are preprocessed to hide the interpreter's rough edges (package
// internal/yaegifix lists each, with how to tell when it can go): top-level
// declarations and statements are evaluated separately, repeated imports
// are dropped so that re-running a cell is harmless, min, max and clear are
// provided, loops over an integer range are rewritten (or rejected with a
// clear message), and the cell's context — cancelled by Interrupt — is the
// predeclared ctx. Lines starting with % are magics: %help, %doc, %reset,
// %time and %who. Complete, Inspect and IsComplete serve the front end's
// completion, Shift-Tab help and multi-line input.
package session
