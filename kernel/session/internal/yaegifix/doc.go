// Package yaegifix holds what the kernel does because of the yaegi
// interpreter (v0.16.1, the version go.mod pins): the rewriting of cells
// before the interpreter sees them and the patches around it. The session
// (package session) runs cells through it; everything here exists because
// yaegi differs from Go, except two rewrites noted at the end that share
// the machinery.
//
// TestYaegiStillNeedsTheWorkarounds runs each misbehaviour below on a bare
// interpreter; after an upgrade of yaegi a failing case names the
// workaround that can go (TestYaegiStillKeepsWhatForgetCompiledDrops does
// the same for the reflection-based fixes). Where a probe is missing, the
// entry says which test of the session to run without the workaround.
//
// # Cell structure
//
// A cell is split into chunks of declarations and of statements, each
// compiled by one interpreter call (Prepare, PrepareCell, Plan, Chunk), its
// line numbers kept so that errors point into the cell (ShiftError).
//
//  1. Imports of a failed evaluation. yaegi keeps the imports of a chunk
//     that fails to compile, and rejects them as "redeclared" when the
//     corrected cell runs again. Imports are evaluated as chunks of their
//     own, and imports the session already has are dropped (importEdit),
//     so re-running a cell is harmless. Probe: "imports of a failed
//     evaluation".
//  2. Range over an integer. yaegi implements the range statement of Go
//     1.21: `for i := range n` panics with "nil type" while compiling.
//     rangeEdits rewrites it into a three-clause loop when n is
//     recognisably an integer (a constant, len/cap, arithmetic on them, an
//     integer global or an integer defined with := in the cell); otherwise
//     the panic becomes RangeIntMessage (IsRangePanic), which also explains
//     ranging over a function. Probe: "range over an integer".
//  3. Redefinition from itself. At top level, `x := x + 1` (or
//     `a, b := f(a)`) with an existing x re-creates x as zero before the
//     right-hand side is evaluated, silently: x is 1, not 2, after x := 1.
//     redefinition splits such a statement into `T := <rhs>` and `x := T`
//     with fresh temporaries. Probe: "redefinition from itself".
//  4. Type switch at top level. `switch t := v.(type)` outside a function
//     panics with "index out of range". splitBlocks runs such a statement
//     inside a generated function (declared after the statements before
//     it have run, called at once). Probe: "type switch at top level".
//  5. Multi-value definition in a block. At top level, `m, err := f()`
//     inside a for, if, switch or {…} block leaves its names undefined.
//     splitBlocks runs such statements inside a generated function too
//     (needsFunction, hasNestedMultiDefine); the same function form also
//     avoids a function literal with an anonymous struct type being run
//     again by later evaluations. Probe: "multi-value definition in a
//     block".
//  6. Var initialised from a global. `var g = d`, where d is a global made
//     by an earlier evaluation, fails with "variable definition loop".
//     splitVarInits turns it into `var g T` plus `g = d`, or `g := d`.
//     Probe: "var initialised from a global".
//  7. Top-level defer. A defer statement at top level runs again after
//     every later evaluation. The defer rewrite of cellEdits hands the
//     call to _portlab.Defer, which runs it once when the cell ends (with
//     function and arguments evaluated at the statement, as in Go).
//     Probe: "top-level defer".
//  8. Interrupted compiled calls. When a cell is interrupted while a
//     compiled call runs, the interpreter returns at once, but the rest of
//     the cell can resume when that call returns, even during a later
//     cell. checkpointEdits inserts _portlab.Checkpoint calls between
//     top-level statements; the session's checkpoint stops a cell that is
//     no longer running, and the session waits for the interpreter's
//     goroutine (settle in session.go). No probe: drop the checkpoint
//     edits and run the session's TestInterruptDuringCompiledCallStopsCell.
//
// # Patches around the interpreter
//
//  9. Builtins of Go 1.21. min, max and clear are undefined. Builtins
//     declares min and max as generic functions and clear as Clear
//     (BuiltinNames are hidden from %who). Probe: "builtins of Go 1.21".
//  10. Standard library after Go 1.22. yaegi's standard library is Go
//     1.22's: strings and bytes lack Lines, SplitSeq, SplitAfterSeq,
//     FieldsSeq and FieldsFuncSeq. Stdlib adds them (cells call them with
//     the loop body as a function). Probe: "iterator functions of Go 1.23".
//  11. errors.As with a cell type. yaegi hands an error of a cell-declared
//     type to compiled code as a wrapper struct (first field IValue), and
//     errors.As panics ("*target must be interface or implement error").
//     Stdlib replaces errors.As by errorsAs, which also tries the wrapped
//     value. Probe: "errors.As with a cell type".
//  12. %#v of a cell struct. Cell struct types are built as unnamed types:
//     %#v prints struct { X int }{X:1}. UseFmtFixes replaces fmt's Sprintf,
//     Printf and Fprintf in the interpreter's table (reached by
//     reflection: Use cannot replace symbols of a loaded package) by ones
//     that put the type names back. Probe: "%#v of a cell struct" and the
//     binPkg check of TestYaegiStillKeepsWhatForgetCompiledDrops.
//  13. Standard streams of cells. By default os.Stdout, os.Stderr and
//     os.Stdin in cells are the process's files, whose output bypasses the
//     interpreter's writers and arrives out of order. New sets
//     YAEGI_SPECIAL_STDIO while it makes the interpreter, so that they are
//     the session's writers and reader. Probe: "os.Stdout of cells".
//  14. Panic noise. On a panic, yaegi writes a line per interpreted frame
//     ("_.go:3:5: panic: …") and, for its internal "nil type" panic, a log
//     line to standard error. Noise matches them: the session drops them
//     from the cell's stderr (cellWriter, stream, NoiseFilter) and builds
//     the traceback of the error from their positions. Probe: "panic
//     lines on standard error".
//  15. Misleading compile errors. An undefined name is reported as
//     "constant definition loop", and a type argument that only a
//     function-typed argument gives is not inferred ("cannot use type
//     func(int) string as type func(int) int"). ExplainCompileError adds
//     what they mean. Probes: "message for an undefined name", "type
//     argument of a function argument".
//  16. Memory kept per evaluation. yaegi keeps the syntax tree of every
//     evaluation (roots, for its debugger) and appends every scope's
//     children without end, and its file set gains a file per evaluation.
//     ForgetCompiled clears them after each chunk (by reflection; it does
//     nothing if the fields are gone) and TrimFileSet keeps the last 1,000
//     files. Probe: TestYaegiStillKeepsWhatForgetCompiledDrops; the
//     session's memory test measures the effect.
//
// # Elsewhere
//
//  17. Globals after a failed compile. After a chunk fails to compile, the
//     interpreter has declared its globals but sized its frame only when
//     code runs, and Globals panics until then. The session runs an empty
//     statement (syncFrame in session.go). No probe: drop syncFrame and
//     run the session's TestCellCompilesWholeBeforeRunning.
//  18. Interface wrappers. yaegi passes an interpreted value to compiled
//     code as a generated struct with an IValue field; display unwraps it
//     (unwrap in kernel/display/render.go) so that the value shows as
//     itself. No probe: display's and the session's rendering tests fail
//     if it goes while still needed.
//  19. Redefined functions. Redefining a function does not rebind
//     functions compiled earlier that call it (traefik/yaegi#1673). There is no
//     workaround; %help and kernel/README.md tell users to re-run those
//     cells.
//
// Two rewrites of cellEdits are not workarounds but the kernel's policy,
// and stay after any upgrade: go statements run through _portlab.Go, so a
// panic in a goroutine is reported instead of ending the process, and the
// sizes of make calls go through _portlab.MakeLen, so an allocation larger
// than the machine's memory is a panic instead of a fatal error. The
// session provides the functions the rewritten cells call, as the package
// "portlab.kernel/cell" imported as _portlab: Value, Defer, Go,
// Checkpoint, MakeLen and Clear. FeatureTable summarises all this for
// users (%help and kernel/README.md).
package yaegifix
