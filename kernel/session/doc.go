// Package session runs notebook cells of Go code in a persistent yaegi
// interpreter with the portlab library and its plots, gonum and gonum/plot
// pre-loaded (see kernel/symbols). A Session keeps the state of earlier
// cells, shows the value of a cell's last expression, streams what the cell
// prints — from interpreted and, with CaptureStdio, from compiled code —
// while the cell runs, and turns every failure, even a panic inside the
// interpreter, into an Error with the cell's own line numbers while the
// session lives on. It is the engine behind both the Jupyter kernel and the
// terminal REPL.
//
// Cells are preprocessed to hide the interpreter's rough edges: top-level
// declarations and statements are evaluated separately, repeated imports
// are dropped so that re-running a cell is harmless, min, max and clear are
// provided, loops over an integer range are rewritten (or rejected with a
// clear message), and the cell's context — cancelled by Interrupt — is the
// predeclared ctx. Lines starting with % are magics: %help, %reset, %time
// and %who. Complete, Inspect and IsComplete serve the front end's
// completion, Shift-Tab help and multi-line input.
package session
