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
//  2. Range over an integer or a function. yaegi implements the range
//     statement of Go 1.21: `for i := range n` panics with "nil type"
//     while compiling. rangeEdits (intRangeEdits) rewrites it into a
//     three-clause loop with Go's semantics (n evaluated once, the counter
//     of n's type, a variable per iteration) when n is recognisably an
//     integer (a constant, len/cap, a conversion, arithmetic on them, an
//     integer variable, constant or parameter of the cell, withLocalInts
//     and cellDecls, or an integer global); funcRangeLoops rewrites a loop
//     over a function the cell declares with a yield parameter (or one
//     returning such a function) into a call with the body as the yield
//     function, and refuses bodies with defer, goto or a break or continue
//     of an enclosing statement. Otherwise the panic becomes
//     RangeIntMessage (IsRangePanic), or CommaOkMessage for a chunk
//     without a range statement (NilTypeMessage). Probe: "range over an
//     integer".
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
// # Go's semantics where yaegi differs silently
//
//  20. Block scope at top level. At top level, a block has no scope of its
//     own: x := 2 in an if body overwrites the global x, i := i in a loop
//     body re-creates the loop variable as zero (the loop never ends), and
//     the block's variables live on. splitBlocks (needsFunction) runs
//     every top-level for, if, switch, select, labeled and {…} statement
//     in a generated function (not one holding a goto); its header takes
//     the line above, so lines and columns stay the cell's, and its defer
//     statements are still the cell's (cellEdits). Probe: "block scope at
//     top level".
//  21. Per-iteration loop variables. yaegi has one variable per loop (Go
//     1.21), in functions too: closures and goroutines see its last value.
//     loopEdits gives a body that makes a closure, a goroutine, a defer or
//     takes an address its own copies ({ i := i; _ = i; { body } }); in a
//     three-clause loop whose body may also change the variable, the copy
//     goes back to the loop's variable for the post statement when the
//     iteration ends, also by continue (writeBack). Probe: "per-iteration
//     loop variables".
//  22. Labeled break in a select. break L (or continue L) as a statement
//     of a select case is taken as leaving the select: for { select {
//     default: break L } } never ends. loopEdits wraps it in if true { … },
//     where it works. Probe: "labeled break in a select".
//  23. fmt and methods of cell types. The interpreter wraps a cell value
//     for a compiled function only as the interfaces its MapTypes table
//     lists for that function; the replaced Printf family (12) had none,
//     and error is listed nowhere (its wrapper is looked up by package
//     path), so %v printed a cell Stringer's or error's fields. UseFmtFixes
//     lists FmtWrappers for fmt's functions and CellError stands for error
//     (also for _portlab.Value, so that an error shows its text). Probe:
//     "error of a cell type in fmt".
//  24. Deep recursion. About 600 bytes of Go stack per interpreted call and
//     a collector that rescans the growing stack: unbounded recursion runs
//     for minutes towards the fatal 1 GB limit and ignores interrupts.
//     WatchStack stops a chunk whose goroutine stacks grow by StackBudget
//     (64 MB) with ErrDeepRecursion. No probe (it would take minutes): run
//     the session's TestUnboundedRecursionIsAnError without it.
//  25. Messages. The frame positions of a panic are of some node of the
//     same kind (originalExecNode matches by function pointer): the
//     session names the functions and where they are declared and the
//     cell's line from the checkpoints. ExplainPanic words reflect's
//     panics as Go's runtime errors; UndefinedName finds the name of a
//     "constant definition loop" and of the nil dereference on a package
//     missing in a signature; SelectorPos puts an undefined selector where
//     it is; the session drops positions beyond the cell (the generic
//     standard library's source) and GOPATH advice. Probes: "message for
//     an undefined name", "package missing in a signature".
//  26. Rebound names. A redefined global gets a new slot of the global
//     frame while the old keeps its value, and functions compiled before
//     still read the old slot. The session gives every old slot of the
//     same type the new value (freeRebound), so that those functions see
//     what the name now holds and the old value is garbage; an old slot of
//     another type keeps its value. The interpreter also keeps the
//     intermediate values of top-level statements in unnamed slots of the
//     global frame for the life of the session (re-running data :=
//     bytes.Repeat(…, 10<<20) kept 10 MB a run): FreeTemporaries replaces
//     the unnamed slots that hold an old value of a re-bound name by fresh
//     ones. Other unnamed slots are left alone — zeroing them changed
//     values that package-level variables and method values still read
//     (Go's test/fixedbugs/bug199.go, typeparam/issue48225.go) — and
//     %reset frees them. No probe: the session's
//     TestRedefinedNameSeenByEarlierFunctions, TestRerunsDoNotKeepOldValues,
//     TestPackageVariablesKeepTheirValues and
//     TestMethodValueReceiversSurviveCells check it.
//  27. Generic standard library functions. slices.Sort is missing,
//     maps.Clone fails ("undefined type for K"). genericEdits rewrites
//     slices.Sort and slices.Reverse to compiled SlicesSort and
//     SlicesReverse and refuses Max, Min, Clone, SortFunc, SortStable and
//     maps.Clone/Copy with the loop to write (maps.Clone is written out,
//     see 134). Probe: "slices.Sort".
//  28. Blank assignments. Top-level _ = x statements share one variable,
//     typed by the last compiled: _ = bytes.NewBuffer(nil) then _ = io.EOF
//     panics in reflect.Set. blankEdits makes each a fresh temporary.
//     Probe: "blank assignments of two types".
//  29. Names. A top-level definition may hide an imported package for
//     good (dataset := …; Go rejects it), and a type declared again with
//     other fields keeps the first definition silently. The session
//     refuses both (checkNames, with Plan.TypeSrcs). Probes: "package
//     hidden by a variable", "type declared again".
//  30. Deferred arguments. Inside a function, the interpreter keeps the
//     arguments of a deferred call as references to the variables they
//     were read from: v := 1; defer f(v); v = 2 calls f(2), and defers in
//     a loop see its last values. deferInFunction (cellEdits) copies them
//     to fresh variables at the statement, { _a0 := v; defer f(_a0) },
//     leaving constants in place and f the deferred function (recover in
//     it works). Probe: "deferred arguments".
//  31. Comma-ok forms. m[k], ok = x.(T) (or = m2[k], = <-c), and the
//     results of a call, m[k], err = f(), leave the map unchanged; semanticEdits assigns the results to fresh names
//     first, in a function (needsFunction runs such a statement of the
//     cell in one). v, ok := m[k] as a statement of the cell fails to
//     compile with "nil type", which reads as a range over an integer:
//     it is refused with the declarations to write. Probe: "comma-ok
//     into a map element".
//  32. Refused because the result would differ: a type switch case that
//     is an interface type using a type parameter of the generic
//     function, == or != between a type parameter's value and a value of
//     an interface type with methods, a package-level var whose
//     initializer reaches a var declared after it through a function or
//     method it calls, or a blank one whose initializer uses such a var at
//     all (the interpreter orders vars by the names their initializers
//     and function literals mention, not through calls, and initializes
//     blank vars in place; initOrderRefusals, where item 150 cannot
//     reorder them), and
//     runtime.ReadMemStats (the interpreter's memory). semanticEdits and
//     genericEdits refuse them with the construct and what to write.
//     Probe: "type parameter in a type switch".
//  33. Select receive assignments. case x = <-c: (or x, ok = <-c) panics
//     with "reflect.Select: invalid Dir" when chosen; semanticEdits makes
//     it case _v := <-c: x = _v;. Probe: "select receive assignment".
//  34. main. After func main is refused, main() names the interpreter's
//     package main and panics in reflect; a use of main that the cell
//     does not declare is reported as undefined (semanticEdits). No probe:
//     the session's TestMainIsUndefined.
//  35. Select operands. Go evaluates the channels and sent values of a
//     select once, in source order, on entering it; the interpreter does
//     otherwise, so a call in one case that closes or replaces the channel
//     of another changed the outcome. selectOperands hoists them into
//     variables defined one by one before the select when one of them
//     calls a function. No probe: the session's
//     TestSelectOperandsEvaluatedFirst.
//  36. Receives into elements. x[i] = <-c, s.f = <-c, *p = <-c and an
//     assignment of several values with a receive (a, x[0] = <-c, <-d)
//     leave the element unchanged: the received value is dropped (a map
//     element and x[i] += <-c work). semanticEdits receives into
//     temporaries first, { t1 := <-c; x[i] = t1 }; where the left side
//     calls a function (receiving first would change the order of the
//     calls) or the statement is not in a statement list, it is refused.
//     Probe: "receive into an element".
//  37. Range over a string. yaegi ranges over []rune(s): for i := range s
//     gives rune counts, not byte offsets, and for i, c := range s gives
//     other offsets than Go's after a byte that is not valid UTF-8, each
//     computed by encoding the runes before it again (quadratic time).
//     Where go/types knows the range expression is a string,
//     stringRangeLoops (in IfaceCopyEdits) makes a loop with a key a loop
//     over byte offsets that decodes each rune as Go does. Elsewhere
//     rangeStringEdits writes for i, _ := range s where s is a string
//     the chunk declares or a call of its function returning a string
//     (which gives Go's offsets), leaves loops with a blank key alone
//     (their values are right), and calls
//     _portlab.RangeString with the range expression before every other
//     range loop with a key over what may be a string (evaluated once
//     into a temporary when it calls a function); RangeString stops the
//     cell with an InterpreterError naming the loop to write when the
//     offsets would differ (not for *p of a p declared only as a pointer
//     to an array, slice or map: Go does not read *p for for i := range
//     *p, see 82). Probe: "range over a string".
//  38. Assertions to interfaces. Inside functions, x.(I) where the value
//     of x lacks a method of the interface I gives a nil I instead of a
//     panic. assertEdits checks it first with the comma-ok form, if _, ok
//     := x.(I); !ok { _portlab.AssertFailed(x, "main.I", "Foo") }, which
//     panics with a runtime.Error as Go does (an x that calls a function
//     is evaluated once, into a temporary; only when nothing in the
//     statement is called before the assertion). A value of a cell's
//     struct type that came back from reflect has lost its methods (the
//     assertion fails where Go's succeeds): AssertFailed stops the cell
//     with a message naming that. The interfaces are interface literals, error, the
//     cell's and the session's interface types (isIface) and those of
//     the standard library. Probe: "assertion to an interface".
//  39. Select case variables. case x := <-c: has one x for every run of
//     the select, so pointers or closures made in a loop all see the last
//     value. loopEdits gives a body that captures them copies of its own,
//     as it does for loop bodies (21). Probe: "select case variables".
//  40. Blank assignments in functions. _ = *p, _ = p.f and _ = m[i] are
//     not evaluated beyond their operands: a nil p does not panic.
//     semanticEdits assigns the value to a temporary first, { t := *p; _
//     = t } (blankOfOperand), and _, _ = m[k] with an unhashable key
//     did not panic either ({ t1, t2 := m[k]; _, _ = t1, t2 }); also for
//     a blank among several values,
//     ok, _ = true, *p (blankOfSeveral, with the values of 41). m[k] = *p
//     with a nil p deletes m[k] instead of panicking: semanticEdits reads
//     the value first, { t := *p; m[k] = t } (derefIntoElement; a
//     statement of the cell runs in a function for it). Probe: "blank
//     dereference of nil"; the session's TestNilDereferenceAssignedPanics.
//  41. Values of an assignment. a, b = f(), g() assigns a before it calls
//     g (which may read a), and return b, a with named results a, b
//     assigns a before reading it. semanticEdits evaluates the values
//     first, in order, into temporaries defined one by one, { t1 := f();
//     t2 := g(); a, b = t1, t2 }, inside functions where a value calls a
//     function (return: where a value uses a named result or calls).
//     Probe: "values assigned in turn" (return b, a: the session's
//     TestAssignedValuesEvaluatedFirst). A return of several values also
//     stores them in turn, so that return true, *p with a nil p left true
//     in the first result for a deferred recover: in a function with a
//     defer statement, the values are evaluated first when one after the
//     first may panic (laterMayPanic). In the init of an if, switch or
//     for statement (if want, got = a+1, f(a); …) the values other than
//     the call were left unassigned: they are evaluated first, before the
//     statement (headerAssign); a loop's post statement becomes
//     func() { t1 := …; t2 := …; a, b = t1, t2 }() (refused when a value
//     holds a function literal).
//  42. new with a value. new(expr) of Go 1.26 (new(123), new(x) for a
//     variable x) gives a pointer to a zero value. IfaceCopyEdits
//     (newValue) writes it as func(_nv T) *T { return &_nv }(expr), T the
//     type go/types gives the variable; where it cannot, semanticEdits
//     refuses it with the definition to write. No probe (Go 1.22's parser
//     of the interpreter accepts it): the session's TestNewWithAValue.
//  43. Type switches with function types. A function that reached an
//     interface by some conversions (passed to an interface{} parameter,
//     returned as interface{}) is the interpreter's internal node, which
//     matches no case; and any inside a case type (case func(int) any:)
//     matches no function returning interface{}. funcSwitchEdits writes
//     any out as interface{} in case types and calls _portlab.FuncValue
//     with the value before a switch with a function-type case, which
//     stops the cell with a message for such a node. Probe: "type switch
//     with any in a function type".
//  44. Panics of declarations. A chunk of declarations that runs none of
//     the cell's code in Go (types, constants, functions, vars without
//     initial values, no init; RunsNoCode) can still panic in the
//     interpreter, as in its instantiation of generic functions ("invalid
//     memory address or nil pointer dereference"). The session reports
//     such a panic as an InterpreterError. No probe: the session's
//     TestDeclarationsFailingInTheInterpreter.
//  45. Negated constants. -c for a constant c is computed at run time, so
//     that -zero for const zero = 0.0 is negative zero, which Go's
//     constants do not have. semanticEdits writes (0 - c). A constant too
//     small for a float64 (-1e-10000), negated, gave negative zero too
//     (the interpreter converts the exact constant): where it is not an
//     operand of more arithmetic it becomes (0 * c). No probe: the
//     session's TestNegatedConstantZeroIsZero and
//     TestNegatedTinyLiteralIsZero.
//  46. Values of append. append(s[:i], x, s[i]) stores x before it reads
//     s[i] from the same array. Inside functions, semanticEdits reads the
//     values that are not constants into temporaries first when one of
//     them indexes or dereferences (appendOfSeveral). No probe: the
//     session's TestAppendValuesReadFirst.
//  47. case T: for a type parameter. In a generic function instantiated
//     with an interface type, a type switch case of the type parameter
//     matches other values than Go's. semanticEdits calls
//     _portlab.TypeParamCase(new(T), "T") before such a switch, which
//     stops the cell with a message when T is an interface type. No
//     probe: the session's TestTypeSwitchOnInterfaceTypeParameter.
//  48. reflect on cell structs. A cell's struct type is built as an
//     unnamed struct whose unexported fields are renamed X… and exported
//     (f is Xf, _ is X_), so that field names, PkgPath and embedding read
//     through reflect differ from Go's. UseReflectFixes replaces
//     reflect.TypeOf and reflect.ValueOf in the interpreter's table by
//     ones that stop the cell with a message for a value of such a type
//     (or one holding it); structs with exported fields only are left
//     alone. Probe: "reflect on a cell struct".
//  49. Case lists. In case a, b: the interpreter tests only a when b is
//     not a name or a literal (and, in a switch without a tag, whatever b
//     is): case x == 1, x == 3 never matched 3. semanticEdits gives each
//     expression a clause that falls through to the next, case a:
//     fallthrough; case b: body, which tests them in Go's order. No
//     probe: the session's TestSwitchCaseLists.
//  50. Negative shift counts. x << n and x >> n with a negative n shift
//     by a huge unsigned count (1 << n is 0) where Go panics.
//     shiftEdits, in a pass after the other rewrites (laterPass),
//     checks a count that reads a variable, calls or indexes: before its
//     statement with if (n) < 0 { panic(_portlab.ErrNegativeShift) } when
//     the count can be evaluated again without effect and the shift runs
//     whenever the statement does, else through _portlab.ShiftCount(n)
//     (a compiled call, about four times the cost of a shift). No probe:
//     the session's TestNegativeShiftPanics.
//  51. Negative zero as an argument. A direct call of a function the cell
//     declares leaves a parameter at +0 when its argument is negative zero
//     (the interpreter skips arguments that reflect's IsZero calls zero;
//     calls through a function value and of methods keep the sign), so
//     1/f(x) with f returning x was +Inf. negZeroEdits (a later pass)
//     checks the float32 and float64 arguments that can be evaluated
//     again before their statement and stops the cell through
//     _portlab.NegativeZeroArgument when one is negative zero. Calls of
//     functions of earlier cells, in loop headers and with arguments that
//     call are not checked. No probe: the session's
//     TestNegativeZeroArgumentStops.
//  52. Float literals as cases. In a switch with a tag, a case holding a
//     floating-point literal is compared as floats: case 1e16: matched a
//     uint64 tag of 1e16+1 (== works). floatCaseEdits (a later pass)
//     evaluates the tag into a variable of the switch's init and writes
//     each case as its comparison, one clause each, switch t := x; {
//     case t == (1e15): fallthrough; case t == (1e16): … }. No probe: the
//     session's TestFloatCaseInIntegerSwitch.
//  53. Assertions to declared types. A declared type is represented by
//     the type it is declared from (type MyInt int is int, type D
//     time.Duration is time.Duration) and struct types with the same
//     fields are one type, also a type declared again alike inside a
//     function; assertions and type switch cases compare those, so
//     x.(int) succeeded for a MyInt and x.(B) for an A with B's fields.
//     ConcreteAssertions (called by the session with the types of earlier
//     cells) refuses an assertion or case whose type is or contains such
//     a type, naming the types and what to write. Probe: "assertion to a
//     type declared from another".
//  54. Type switches on cell types. The type switch compares type names
//     with the representation of the value: switch x.(type) { case A: }
//     matched no value of a cell's type A (struct or pointer to one), and
//     switch v := x.(type) none of a cell type with methods (the comma-ok
//     assertion is right for them). typeSwitchEdits (a later pass)
//     rewrites a switch with a case naming a non-interface type of the
//     cell or the session, outside generic functions, into comma-ok
//     tests evaluated before a switch without a tag, { s := x; c1 :=
//     false; if _, ok := s.(A); ok { c1 = true }; switch { case c1: v :=
//     s.(A); … } }. A case of an interface of the cell binds its variable
//     by the interpreter's switch on that case alone (the assertion that
//     keeps the value fails for it), which stops the cell with a message
//     if it does not match. Probe: "type switch on a cell type".
//  55. Method sets of values. yaegi adds the methods declared on *T to T:
//     x.(I) succeeded for a value of T when I has a method with a pointer
//     receiver. methodSetEdits (a later pass) corrects a comma-ok
//     assertion to an interface after it, v, ok := x.(I); if ok &&
//     _portlab.LacksValueMethod(x, "I", "M") { v, ok = nil, false }
//     (reading the interpreter's type of the value by reflection),
//     typeSwitchEdits also rewrites switches with a case of an interface
//     with methods, and AssertFailed names the type and the method. Probe:
//     "method set of a value" (TestYaegiMethodSetOfAValue).
//  56. Promotion depth. Through embedded fields, yaegi selects the first
//     field or method of a name it finds depth first, Go the shallowest:
//     with type B struct { A; E }, where A embeds E, b.val() called A.E's
//     val. SelectorRefusals (promotionRefusals, called by the session
//     with the types and methods of earlier cells) refuses such a struct
//     type, naming both paths and the order of fields that works; a clash
//     of fields only where the cell selects one, and not where item 149
//     makes the cell exact. Probe: "promotion from two depths".
//  57. Interface comparisons. A value of a type with methods is held in
//     an interface as the interpreter's wrapper, and == compares the
//     wrappers: two interfaces holding one pointer, or an interface and
//     its value, were unequal, and errors of a cell's type could not be
//     compared. EqualityEdits (called by the session after PrepareCell)
//     writes a == b as _portlab.Equal(a, b) where neither operand may be
//     an untyped constant or is plainly no interface, in sessions with
//     methods. No probe: the session's TestInterfaceEqualityOfCellTypes.
//  58. Method values. f := v.M (or p.M) of a method with a value receiver
//     keeps the variable where Go copies the receiver (and panics for a
//     nil pointer). SelectorRefusals (methodValueRefusals) refuses it
//     unless the receiver is a copy nothing changes (r := *p; f := r.M),
//     an interface, a literal or a call; variables of earlier cells are
//     refused (78). No probe: the session's
//     TestMethodValuesOfValueReceivers.
//  59. reflect's method sets. The cells' types have no methods for
//     reflect: NumMethod, Method and MethodByName are refused in a session
//     that imports reflect and declares methods (reflectMethodRefusals).
//     No probe: the session's TestReflectMethodSetsOfCellTypesAreRefused.
//  60. %T. A declared type is printed as the type it is represented by
//     (int for type foo int, struct {} for F[foo]): the replaced Sprintf,
//     Printf and Fprintf (12) stop the cell when a %T argument may be of
//     a cell's type (checkTypeVerbs). No probe: the session's
//     TestTypeVerbOfCellTypesStops.
//  61. Assignment operations. In x[i] op= f(), *p op= f() and p.f op=
//     f(), the interpreter reads the element before it calls f and
//     stores after, so that an f changing x, p or i split the read and
//     the write between two elements; Go's compiler calls f first.
//     opAssignEdits (a later pass) writes { t := f(); x[i] op= t } inside
//     functions. No probe: the session's
//     TestOpAssignEvaluatesTheRightSideFirst.
//  62. Switch on channels. A case whose channel has another direction
//     than the tag's never matched (they are compared as interface values
//     of different types). chanSwitchEdits writes the comparisons, the
//     bidirectional channel converted, where the declarations of the
//     function give both types. No probe: the session's
//     TestSwitchOnChannelsOfOtherDirection.
//  63. Deferred recover. defer recover() recovers at the defer statement;
//     deferRecoverRefusals refuses it. An unhashable map key panics with
//     the runtime's internal error naming the interpreter's struct
//     literal; RecoverIn (the session's Recover) gives Go's runtime.Error
//     text with the cell's type name. No probe: the session's
//     TestDeferRecoverIsRefused and TestUnhashableKeyMessage.
//  64. Text of recovered bounds errors. An index or slice expression out
//     of range panics in reflect, whose message has neither the index nor
//     the length of Go's ("index out of range [3] with length 1"). A
//     recover() whose value the cell may read beyond comparing it with
//     nil (nilCheckedRecovers) becomes RecoverRead, which stops the cell
//     for such a value, and the session drops what the cell prints while
//     the stop unwinds its deferred calls. No probe: the session's
//     TestRecoveredIndexErrorText.
//  65. Panics in deferred calls. The deferred calls of a function run in
//     a loop that a panic in one of them leaves: the others never run (a
//     deferred nil function skipped the deferred recover before it).
//     deferPanicEdits (a later pass) counts the deferred calls of a
//     function with several (NewDefers) and calls each without arguments
//     through Deferred, which stops the cell when it panics while others
//     are still to run. No probe: the session's
//     TestPanicInADeferredCallWithOthersPending.
//  66. Named results. A called function gets the caller's slot for each
//     result (the variable assigned or the call's own slot), and a named
//     result starts with what that slot holds: x := f(); x = f() appended
//     to the first result, and a call in a loop counted on.
//     namedResultEdits (a later pass) zeroes the named
//     results when the function starts. Probe: "named results start with
//     the caller's slot".
//  67. Composite literals. Among several values of an assignment or var
//     declaration, a composite literal left the other values zero (a, b
//     := 1, S{3} gave a == 0), and the literals of a generic type with
//     two or more type arguments shared a node, so that control jumped
//     from the first to after the last, skipping the statements between.
//     compositeEdits puts the first in parentheses and writes the second
//     as []A[K, V]{{…}}[0]. Probes: "composite literal among several
//     values", "literals of a generic type with two type arguments".
//  68. case nil. A switch with a tag matched case nil only for a nil
//     interface. nilCaseEdits writes the comparisons, as floatCaseEdits
//     (52) does. Probe: "case nil with a slice".
//  69. Instantiations that are one type. The instantiations of a generic
//     type whose definition does not use a type parameter are one type,
//     and a struct type argument with field tags takes the instantiation
//     without them. instanceRefusals refuses tagged struct type
//     arguments; the instantiations are refused as in 121. Probes:
//     "type parameter not used in the definition", "type argument with
//     tags".
//  70. encoding/xml. A cell's struct type has no name, after which
//     xml.Marshal names the element ("xml: unsupported type").
//     UseXMLFixes stops the cell with a message for such a value without
//     an XMLName field (Encoder.Encode cannot be replaced). Probe:
//     "xml.Marshal of a cell struct".
//  71. Comma-ok var declarations. var x, ok = v.(T) at package level
//     fails with "nil type". commaOkVarEdits makes the assignment in a
//     function literal called at once where the declaration shows the
//     types (the assertion's type, or the var's type for var a, b any =
//     m[k]), unless another initializer reads the names. No probe: the
//     session's TestCommaOkVarDeclaration.
//  112. Comma-ok var declarations without types. var v, ok = m[k] (or
//     <-c) shows no type: commaOkVarEdits (71) asks go/types, checking
//     the chunk without imports, for the element type and rewrites the
//     declaration as in 71 when it is known and named without a package.
//     No probe: the session's TestCommaOkVarDeclaration.
//  113. Addresses through array pointers. &p[i] of p of type *[N]T fails
//     to compile ("cannot take address of int [kind: indexExpr]").
//     arrayPtrAddrEdits writes &(*p)[i] where go/types, checking the chunk
//     without imports, knows p's type. Probe: "address of an element
//     through an array pointer".
//  114. Slice to array conversions. (*[9]byte)(s) or [9]byte(s) of a
//     shorter s panics with reflect's string ("reflect: cannot convert
//     slice with length 8 to pointer to array with length 9"), which a
//     recovering cell cannot assert to error. ExplainPanic words it as
//     Go's runtime error, so that Recover gives a runtime.Error (25).
//     No probe: the session's TestSliceToArrayConversionPanic.
//  72. Closures and deferred calls. A function literal deferred in a
//     loop reads the variables it uses when the function returns, from
//     the function's frame, so that every deferred call sees the last
//     iteration's; and a closure made in a function and called while
//     the function runs its deferred calls never returns (defer c() after
//     c := func() {…} hangs), as the interpreter holds a lock of the
//     frame the closure takes when it returns. closureEdits makes such
//     literals in a call of their own, func() T { return func… }(), and
//     refuses those that call recover (the call changes the frame in
//     which recover looks). A method deferred in a loop on a receiver
//     the loop declares (for _, c := range cs { defer c.Close() }) read
//     the receiver when the function returned, the last iteration's: the
//     call goes into a closure made at the statement. The receiver of a
//     go or defer statement's method is read when the call runs: with a
//     value receiver that the cell changes, or a pointer the cell assigns
//     again, the statement is refused (methodValueRefusals). Probes:
//     "deferred function literal in a loop" and
//     TestYaegiStillHangsInClosuresOfDeferredCalls.
//  73. Statements that start with func. Source that starts with the
//     keyword func is taken for declarations and, when it does not parse
//     as such (func() { … }() as a statement), wrapped in a func main
//     that runs again after every later evaluation. asStatements puts a
//     semicolon before it. Probe: "statement that starts with func".
//  74. Verbs that do not call String. The interpreter hands a cell value
//     with a String or Error method to fmt as a stand-in struct {IValue;
//     WString}, whose own fields %d, %f, %c, %#v and the other verbs for
//     which fmt calls neither String nor Error printed: %d of W(3), W int
//     with a String method, gave {3 5461824}, not 3. The value inside
//     cannot replace it (for a struct, IValue holds its last field), so
//     checkPlainVerbs (in the Printf family and Errorf of UseFmtFixes)
//     stops the cell with the conversion to write. Probe: "%d of a cell
//     Stringer".
//  75. encoding/json. A cell struct's unexported fields are exported as
//     X…: json.Marshal(T{A: 1, b: 2}) gave {"A":1,"Xb":2}. UseJSONFixes
//     stops Marshal and MarshalIndent for such a value (Encoder.Encode
//     cannot be replaced). Probe: "json.Marshal of a cell struct with
//     unexported fields".
//  76. Call results handed to compiled functions. A call of a cell's
//     function or method as the argument of a compiled one passes its
//     result bare, without the wrapper that carries String and Error:
//     fmt.Println(t.F()) printed 212 where Go calls String (212.0°).
//     callArgEdits puts such an argument in parentheses, which the
//     interpreter wraps; a sole argument only when the function or method
//     is known to have one result (Plan.Results, kept by the session) and
//     the receiver is no variable of a compiled type, as (g()) passes the
//     first of several results (for several, see 95). Probe: "call result
//     of a cell Stringer to a compiled function".
//  77. errors.As into a cell struct. The interpreter's wrapper of a value
//     of a cell's struct type holds the struct's last field (its
//     getConcreteValue), not the value: errors.As(err, &he) with he of a
//     cell struct type returned false where Go finds it. errorsAs stops
//     the cell when no error of the chain matched and a wrapper in it may
//     hold such a value (its IValue has the type of the struct's last
//     field). Comparisons and assertions of such values: 92. Probe:
//     "wrapper of a cell struct holds its last field".
//  78. Comma-ok into variables. i, ok = m[k] with k missing, and i, ok =
//     x.(T) failing, left i unchanged (Go sets it to zero). semanticEdits
//     writes { _v, _ok := m[k]; i, ok = _v, _ok } (in a function at top
//     level, needsFunction), and refuses the form in a statement header
//     and with operands on the left that call a function. Probe: "comma-ok
//     into existing variables".
//  79. Untyped constants shifted by a variable. The constant of c << n
//     with n computed at run time takes in Go the type c alone would take
//     in the shift's place; yaegi makes it an int where the shift is an
//     operand of a binary operation, an argument or a composite literal's
//     element, and fails ("reflect: call of reflect.Value.SetUint on int
//     Value") when that type is unsigned. untypedShiftEdits, in a pass
//     after the other rewrites, converts the constant where the source
//     shows the type: uint in a shift count, T next to a conversion T(…)
//     to a predeclared integer type, a parameter's or an element's
//     predeclared integer type, and x*0 + c next to an arithmetic operand
//     x that is a name or selector of names. Other shifts are left as
//     they are (and keep failing, never with another value). Probe:
//     "untyped constant shifted by a variable".
//  80. Operations stored in interfaces. yaegi stores the result of an
//     operation into its destination as the operation's type; where the
//     destination is an interface (a = !a.(bool) or a = a.(uint8) + 1
//     with a of type any, a comparison returned as any) or the blank
//     identifier (_ = f() == f()), it fails ("reflect: call of
//     reflect.Value.SetBool on interface Value", or on int or array
//     Value). storedOpEdits, in a pass after the other rewrites, converts
//     an arithmetic, shift or unary operation on a type assertion to a
//     predeclared type T (&& and || on x.(bool)) stored by an assignment,
//     a return, a call, a send or a composite literal to T, which it has
//     in Go, and a comparison assigned to _ or returned as a result of
//     interface type to bool, the type Go gives it there. Comma-ok
//     results assigned to an interface variable (i, ok = <-c with ok of
//     type any) are not rewritten and keep failing. Probe: "operation
//     stored in an interface".
//  81. Switches on interface variables. yaegi converts the tag of an
//     expression switch to the type of each case value: switch x { case
//     "hello": } with x of type any fails ("reflect.Value.Convert: value
//     of type interface {} cannot be converted to type string"), and
//     switch { case x: } ("reflect: call of reflect.Value.Bool on
//     interface Value"). ifaceSwitchEdits, in a pass after the other
//     rewrites, writes the switch as Go defines it, switch { case x ==
//     interface{}(a) || x == interface{}(b): … } and case true == x,
//     where x is a name every declaration of which in the chunk (or the
//     switch's own statement) gives an interface type and the case values
//     are literals, nil, true, false and conversions to predeclared types
//     (so that reading x again reads the same value). A chunk that
//     declares a non-interface type is left alone: an interface holds a
//     value of such a type as the type it is declared from (item 53),
//     which == cannot tell from it, so those switches keep failing.
//     Probe: "switch on an interface variable".
//  82. Nil pointers to arrays. len(p), cap(p) and for i := range p of a
//     p of type *[N]T are N and the indices in Go, without reading the
//     array; yaegi reads it and fails with p nil ("reflect: call of
//     reflect.Value.Len on zero Value"). arrayPtrEdits, in a pass after
//     the other rewrites, writes N (func() int { _ = f(); return N }()
//     for a call of a function of the chunk, which Go evaluates) and
//     ranges over [N]struct{}{} instead, where every declaration of the
//     name in the chunk gives the type *[N]T with N a literal; also for
//     *p, which Go does not evaluate there. *f() is left alone: yaegi
//     does not panic on _ = *f() with f() nil, where Go does. Probe:
//     "range over a nil pointer to an array".
//  83. Nil pointers as errors. A nil pointer converted to a compiled
//     interface type such as error becomes a nil interface, so that an
//     error holding a typed nil compares equal to nil (Go: not equal).
//     TypedNilRefusals refuses return p, for a variable declared with a
//     pointer type, from a function whose result there is an error, unless
//     a nil check guards it; other conversions are item 94. Probe: "nil
//     pointer returned as an error".
//  84. Untyped constant arguments of a generic function. When every
//     argument for a type parameter is an untyped constant, Go gives the
//     parameter the constants' default type; the interpreter fails
//     ("untyped float does not implement main.Ordered") or takes int:
//     first(-1, 2.5) ran with T = int. untypedArgEdits converts each such
//     argument to the default type (float64, complex128 or rune), for a
//     generic function declared in the same cell, where nothing else can
//     decide the parameter. Probe: "untyped constant arguments of a
//     generic function".
//  85. Comparisons with a type's representation. A value of a cell's type
//     without methods (type U16 uint16) is held in an interface as the
//     type it is represented by, so any(U16(1)) == any(uint16(1)) was
//     true. EqualityEdits also runs in sessions that declare types, and
//     EqualIn stops the cell when two such values are equal and of a type
//     that represents a cell's type without methods (also where it
//     represents another with methods: type T int with methods and type
//     U int without both are int), and when they are of
//     a struct type that represents two types of the cells declared alike
//     (type A struct{ v int }; type B struct{ v int }: any(A{1}) ==
//     any(B{1}) was true). No probe: the session's
//     TestEqualityOfADeclaredTypeAndItsRepresentation and
//     TestEqualityOfStructTypesDeclaredAlike.
//  86. %T in fmt.Errorf. UseFmtFixes also replaces Errorf, which stops
//     the cell as Sprintf does for a %T argument of a cell's type (60).
//     No probe: the session's TestTypeVerbInErrorfStops.
//  87. Unused named type parameters. The instantiations of type
//     Foo[T any] struct{ val int } are one type as for a blank parameter
//     (69), also when a later cell instantiates it; refused as in 121.
//     Probe: "named type parameter not used in the definition"; the
//     session's TestUnusedNamedTypeParameterAcrossCells.
//  88. Comma-ok assertions in switch inits. switch v, ok := x.(I); … was
//     not corrected as the other comma-ok forms are (55): methodSetEdits
//     moves the init before the switch into a block of its own, { v, ok
//     := x.(I); <correction>; switch ; … { … } }, labels kept on the
//     switch. No probe: the session's TestCommaOkAssertionInSwitchInit.
//  89. Method values of earlier cells' variables. f := c.Get, c a
//     variable of an earlier cell, read c when f was called (58 did not
//     follow such variables): methodValueRefusals refuses it too, naming
//     the copy to take in the cell (r := c; f := r.Get). No probe: the
//     session's TestMethodValueOfAnEarlierCellsVariable.
//  90. Constant comparisons. A constant whose value compares or uses &&
//     or || is false, whatever its operands (const ok = 1 == 1), where a
//     var is right. constComparisonRefusals refuses such declarations.
//     Probe: "constant comparison". In a constant group, iota counts
//     names, not lines, after a line that declares several (const ( a, b
//     = iota, iota*10; c, d ) gave c == 2, Go 1); constIotaRefusals
//     refuses iota there. Probe: "iota after a line of several names".
//  91. Conversions to generic instantiations and unnamed generic
//     receivers. A conversion to an instantiation of a generic type,
//     G[int](x), fails ("type not found: G[int]"; in a generic function a
//     "CFG post-order panic") unless a variable of that type was declared
//     before; a method with an unnamed receiver of a generic type, func
//     (S[T]) M(), panics when a use of it is compiled. instanceFixes
//     makes the conversion func() G[int] { var v G[int]; _ = v; return
//     G[int](x) }() (for a generic interface type only in generic
//     functions, since made so elsewhere the interface no longer asserted
//     to the type it held; not in constant declarations, nor in an expression
//     switch's tag or cases, where the interpreter compares interface
//     values of two interface types unequal) and names such receivers _.
//     Probes: "conversion to a generic type's instantiation" (also "in a
//     generic function"), "unnamed receiver of a generic type".
//  92. Typed vars of generic calls. In a function, var d int = Id(3),
//     Id generic, made d 0 (so did var d int = Id(3) + 1, var d any =
//     Id(3)). typedVarEdits (in instanceFixes) writes var d int; d =
//     Id(3) when a value calls a name that may be a generic function, or,
//     when a value reads a name the var declares, assigns the values to
//     temporaries first (not in var groups, nor across lines). Probe:
//     "typed var of a generic call".
//  93. Core types. A type argument Go infers through the core type of a
//     constraint (E of First[S ~[]E, E any](MySlice{4})) is not inferred
//     ("undefined type for E"); a constraint written interface{ ~map[K]V
//     } panics where ~map[K]V runs; make of a receive- or send-only
//     channel type fails ("reflect.MakeChan: unidirectional channel
//     type"). coreTypeEdits writes the type arguments of calls of the
//     chunk's generic functions when the source shows them all (the types
//     of composite literals, of variables declared with a type or from one,
//     of parameters, of function literals, matched against single-term
//     constraints and the chunk's type declarations); instanceFixes writes such constraints
//     ~map[K]V and make(R) as (R)(make(chan int)). Written out, the
//     type arguments also keep the interpreter from failing ("nil reflect
//     type") on those it infers from a function literal or a generic
//     type's instantiation, where one program of Go's tests made it grow
//     its memory without end while it compiled. Probes: "type
//     argument from a core type", "constraint interface of one term",
//     "make of a receive-only channel type".
//  94. Nil pointers converted to interfaces. Beyond return p (83), a nil
//     pointer became a nil interface wherever it was converted to a
//     compiled interface type (var err error = p, err = p, []error{p},
//     append(errs, p), m[k] = p, W{err: p}, an argument for an error
//     parameter, errors.Is(p, nil), a send on a chan error) or explicitly to any interface type (any(p)
//     == nil, error(p), I(p)), so that err != nil was false where Go's is
//     true. TypedNilRefusals, a check of the whole cell the session runs
//     with the pointer and compiled-interface variables of earlier cells,
//     refuses those conversions of a pointer variable unless a nil check
//     guards them or the variable is &T{…} or new(T) never assigned
//     again; implicit conversions to any or to a cell's interface type
//     (var a any = p) are right and left alone. Parameters of functions
//     of earlier cells are not seen. Probe: "nil pointer converted to an
//     interface".
//  95. Switches comparing interface variables. The expression switch
//     compares interfaces of the cell's types by the interpreter's
//     wrappers, which hold the node that made the value: switch x { case
//     y: } with x and y interface variables (of one interface type or
//     two, any included) holding equal values made in two places took
//     default. ifaceSwitchEdits (81) also writes such a case as x == y,
//     which EqualityEdits compares by value, where the tag and the value
//     are names declared in the function with interface types (of the
//     session's cells too, or defined from a call of a function of the
//     chunk with one result of interface type), fields of such a type of
//     the chunk's struct types (h.a) or calls of such functions (mk()),
//     also in a chunk that declares other types when every case value is
//     of these forms; a tag other than a name, or one beside a case value
//     that calls a function, is read once into a variable of the switch
//     (switch _sw := mk(); { case _sw == y: }), and a switch with an init
//     statement is then left alone. Equal also knows the methods of the
//     running cell's types. Forms of earlier cells' functions and fields
//     are not seen and still compare wrappers.
//     Two compiled interfaces holding a value
//     of a cell's type (a fmt.Stringer and an any) cannot be compared:
//     the interpreter panics with "comparing uncomparable type
//     stdlib._fmt_Stringer", which InterpreterFault now counts as its
//     failure (an InterpreterError, and RecoverRead stops the cell).
//     Probe: "switch on two interface variables".
//  96. Assertions to type parameters. x.(T) and case T: in a generic
//     function compare the representation as in 53: with T = bool they
//     matched a value of type B bool, with T = int one of type M int
//     with methods. ConcreteAssertions refuses them, in the generic
//     functions and methods of the cell, when the session or the cell
//     declares a type that an instantiation can be confused with (one
//     declared from a type other than a struct, or a struct type with
//     the fields of another); a generic function of an earlier cell is
//     not checked again when a later cell declares such a type. Probe:
//     "assertion to a type parameter".
//  97. Recovered failures of the interpreter. A cell that recovers a
//     panic of the interpreter's own machinery and reads it got a value
//     compiled Go never gives: a value method called through an
//     interface holding a nil pointer panics with "reflect: call of
//     reflect.Value.Set on zero Value", where Go's text is "value method
//     main.T.F called using nil *T pointer" (or "invalid memory address
//     or nil pointer dereference" where the compiler calls the method
//     directly). RecoverRead (64) stops the cell when the recovered value
//     is such a failure (InterpreterFault), unless the session imports
//     reflect, whose misuse by the cell panics with such texts in Go
//     too. Probe: "value method through an interface holding a nil
//     pointer".
//  98. errors.Is with an error of a cell. The interpreter hands an error
//     of a cell type to compiled code as its wrapper (IValue and the
//     methods as function fields), which never compares equal to another:
//     errors.Is(err, ErrX) was false for var ErrX = &MyErr{…} that err is
//     or wraps. UseErrorsFixes replaces errors.Is by errorsIs, which also
//     compares the values inside the wrappers; as the wrapper of a struct
//     value holds its last field (77), equal insides answer true only
//     where one type of the cells has that representation (a pointer to
//     a struct, type Code int) and no struct type of the cells may hold it
//     as its last field, and stop the cell otherwise. Probe: "errors.Is
//     with a cell pointer sentinel".
//  99. Struct values returned as errors. A value of a cell's struct type
//     in a compiled interface (returned as an error) is the wrapper that
//     holds its last field (77): err.(H) failed, case H: did not match and
//     err == H{1, 2} was false where Go's succeed. StandInEdits passes the
//     operand of an assertion to, or a type switch with a case of, a
//     struct type of the cells through _portlab.StandIn, and EqualIn
//     (checkStandIns), which stop the cell where the wrapper may hold a
//     value of that type; two such errors with equal last fields stop ==
//     too. A switch whose guard is not such an assertion is not seen.
//     Probe: "assertion of a struct returned as an error".
//  100. Cell Stringers inside values handed to fmt. The interpreter wraps
//     only the arguments themselves (23): a slice, array or map of a
//     cell's Stringer or error type, a struct with such a field and a
//     pointer to such a struct reach fmt as their representation ([]int),
//     printed without String: fmt.Println([]W{1, 2}) gave [1 2], Go [W1
//     W2]. checkFmtArgs (UseFmtFixes, now also for Print, Println, Sprint,
//     Sprintln, Fprint and Fprintln) stops the cell where an argument
//     printed by a verb that calls String or Error holds the
//     representation of a cell type with such a method (fmtTypes.nested,
//     which reads the fields of the cells' struct types from the
//     interpreter's types): a []int may be a []W, which it cannot tell
//     apart. Inside an interface ([]any{W(1)}), such a value is the
//     interpreter's own stand-in (interp.valueInterface), which fmt
//     printed as its fields ([{0xc… {…}}]): holdsValueInterface stops the
//     cell for it. Probes: "slice of a cell Stringer in fmt", "cell
//     Stringer in an []any in fmt".
//  101. String with a pointer receiver. The interpreter counts methods of
//     *V in the method set of V (55) and calls String or Error declared
//     on *V for a value V handed to fmt, where Go prints the fields.
//     checkFmtArgs stops the cell where the wrapper's inside may stand for
//     a value of such a type (fmtTypes.pointerMethodOnValue): it cannot be
//     told from a value of another type with the same last field. Probe:
//     "pointer String of a value in fmt".
//  102. All results of a call to a compiled function. fmt.Println(f()),
//     with f a cell's function or method of several results, passed them
//     bare (76): W10 W11 printed as 10 11. callArgEdits writes such a
//     statement as ;func() { r0, r1 := f(); fmt.Println(r0, r1) }(), whose
//     variables the interpreter wraps, and fmt.Sprint(f()) and
//     fmt.Sprintln(f()) anywhere as func() string { …; return
//     fmt.Sprint(r0, r1) }(); other calls that are not statements are left
//     alone. Probe: "all results of a call to fmt".
//  103. Unwrap and Is of cell errors. The interpreter's wrapper of a
//     cell's error for compiled code (interp._error, CellError for fmt)
//     has its Error method only, so that errors.Is, As and Unwrap did not
//     follow the error's Unwrap or Is method: errors.Is(wrapErr{io.EOF},
//     io.EOF) was false. UseErrorsFixes lists wrappers with those methods
//     for error (errorWrappers: the interpreter picks the first whose
//     methods, by name, the type has; Unwrap() []error is followed as
//     errors.Join's), and FmtWrappers interfaces with them for fmt (so
//     that fmt.Errorf's %w keeps them). Probe: "Unwrap of a cell error".
//  104. Select statements. yaegi compiles a select into one list of cases
//     that every run fills before selecting: goroutines running the same
//     select at once take each other's channels and values (a goroutine
//     received another one's value, or waited for ever); and, in any run,
//     a computed send value is sent as another value (case c <- id*1000 +
//     k sent k), a value of an interface type cannot be sent ("not
//     assignable to interp.valueInterface"), and a break in a case leaves
//     the enclosing loop. selectEdits (a later pass) rewrites each select
//     with cases inside a function into a call of _portlab.Select, which
//     builds the cases on every run and waits for an interrupt too, and a
//     switch on the chosen case that runs the case bodies; channels and
//     send values are evaluated once, in order, before it, and values
//     cross between the cell and Select only inside relay channels of the
//     cell's own types (Relay), so the interpreter converts none. A select
//     at top level runs once per evaluation, in one goroutine, and is left
//     alone. Probes: TestYaegiSelectSharesItsCases, "computed value sent
//     in a select", "interface value sent in a select", "break in a select
//     case".
//     Both refusals remain only where 74 cannot write out the values.
//  110. Constants the interpreter computes wrongly or not at all. real(c)
//     and imag(c) of a constant c fail to compile ("reflect: call of
//     reflect.Value.Complex on int64 Value"), and 90's constant groups
//     (comparisons, && and ||, iota after a line of several names) get
//     wrong values. foldConstants type-checks each chunk with go/types
//     (without imports) and writes out what Go computes: a real or imag
//     call of a constant becomes its value (float32(1.5) when typed), and
//     a constant group with a comparison, && or ||, iota after a line of
//     several names, real, imag, complex or a conversion to string is
//     written out line by line with its values and declared types (lines
//     kept). Values that need an import, a name of an earlier cell or
//     chunk, or a complex literal are left alone (and refused as in 90).
//     An array length or shift count that is an untyped float or complex
//     constant ([1e1]int fails with "10 not an Int") becomes its integer,
//     and a float constant shifted by a variable (1. << s, "operator < not
//     defined on untyped complex") the integer of its context's type.
//     Probe: "real and imag of a constant".
//  111. Method expressions of interface types. I.M(x, a) fails to compile
//     ("too many arguments"), error.Error(err) panics in the compiler, and
//     the conversion I(x) of a struct x fails at run time ("invalid
//     interface value"). methodExprEdits makes a call
//     func() I { var r I = x; return r }().M(a), which evaluates x, then
//     a, as Go does, and a method expression that is not called a function
//     literal, func(r I, p0 int) string { return r.M(p0) }, when the
//     signature is known (an interface the cell declares, an interface
//     literal, error, an interface of the standard library whose
//     signature reflect gives in types of the package or predeclared
//     ones: read := io.Reader.Read; probe "method expression of a compiled
//     interface type"). reflectMethodRefusals refuses reflect.Type.Method
//     and its kin as it refuses calls of Method (Go's reflectmethod5.go,
//     reflectmethod6.go). A nil x panics with ErrNilMethod, Go's runtime
//     error (the interpreter's panic is reflect's string); a call whose
//     other arguments have effects, and an interface that uses a type
//     parameter, are left alone. methodValueRefusals no longer takes a method
//     expression of an interface literal for a method value. Probe:
//     "method expression of an interface type".
//  115. Text of recovered bounds errors, checked. In a cell that calls
//     recover() (so that 64 would stop it), boundsEdits, in a pass after
//     the other rewrites, checks the index and slice expressions of a
//     variable the chunk declares as a slice, array, pointer to array or
//     string, with indices that read only names, constants and fields:
//     a[i] becomes a[_portlab.Index(i, len(a))], a[i:j]
//     a[_portlab.SliceIndex(i, j, cap(a), …):j], which panic with Go's
//     runtime error ("index out of range [5] with length 3", "slice
//     bounds out of range [:4] with capacity 3", in Go's order of checks,
//     the index printed as its type's signed or unsigned value; a nil
//     pointer to an array panics first). Other index expressions, and
//     those of other cells, keep the interpreter's text and 64's stop.
//     Probe: "text of an index out of range".
//  116. Unnamed parameters. A method whose parameters have no names, func
//     (s *S) M(int), misplaced its argument: the call failed ("reflect.Set:
//     value of type int is not assignable to type bool" for s.a = true
//     in the body). unnamedParamEdits, in a pass after the other
//     rewrites, names such parameters _ in the functions, methods and
//     function literals of a chunk, which declares the same function.
//     Probe: "unnamed parameter of a method".
//  117. Return of a receive. return <-c in a function of one result, c a
//     parameter, failed ("reflect: reflect.Value.Set using unaddressable
//     value"). returnRecvEdits, in a pass after the other rewrites,
//     writes return (<-c), which runs. Probe: "return of a receive".
//  118. Range over a slice of channels. In for i, c := range cs, yaegi
//     takes the value variable c for the ranged expression and, c being
//     a channel, ranges as over a channel, which fails ("reflect: call of
//     reflect.Value.Len on int Value"). rangeChanEdits, in a pass after
//     the other rewrites, writes for i := range cs { c := cs[i]; { … } }
//     where cs is declared in the function with a written []chan type
//     and nothing assigns it while the loop runs (no statement of the
//     loop, no function literal, no pointer: the elements read are
//     then Go's). Probe: "range over a slice of channels".
//  132. nil arguments of go and defer statements. The rewrite of go f(a,
//     nil) (and of defer at top level) evaluated a constant argument into
//     _, and _ := nil fails to compile ("nil reflect type"); the call
//     then passed (nil), which the interpreter hands on as an invalid
//     value ("reflect: Call using zero Value argument", or another
//     argument's type). deferredCall gives the blank a 0 and passes nil
//     unparenthesised. Probes: "blank defined from nil", "parenthesised
//     nil argument".
//  133. Assertions to type parameters from interfaces with methods. x.(T)
//     in a generic function, x of an interface type with methods, is
//     checked when the function is instantiated: for a type argument
//     without those methods the interpreter refused it ("impossible type
//     assertion", which it does not report: the call of the instantiation
//     panics with a nil pointer dereference, a "CFG post-order panic"),
//     where Go's assertion fails when it runs (Go's
//     typeparam/issue51700.go, issue52228.go). typeParamAssertEdits (in
//     instanceFixes) writes _portlabAsAny(x).(T) where x is a parameter
//     or variable of the function declared with such a type (an interface
//     literal, error, an interface of the chunk or of the standard
//     library, or by v, ok := y.(I)); _portlabAsAny (Builtins) gives nil
//     for a nil x, where any(x) gives an invalid value. Instantiated with
//     an interface of the cell, the assertion that keeps the value then
//     stops the cell ("reflect.Set: value of type interface {} is not
//     assignable to type interp.valueInterface"). And x.(T) with T
//     instantiated as an interface type is false for a value of another
//     type that implements it (g[any](10), Go: true): IfaceCopyEdits
//     refuses the instantiation of a generic function whose body asserts
//     to (or switches on) a type parameter with an interface type (Decls
//     notes those functions). Probe: "assertion to a type parameter from
//     an interface with methods".
//  134. Calls of all the results of a call. F(g()), g with several
//     results, passes them all to F; the interpreter appended the first
//     of them only for append (append(g()) with g returning []string{"a"},
//     "b" gave a slice of length 1, silently), panicked for complex and
//     copy, and for a generic F called without type arguments failed to
//     infer them ("index out of range", a CFG post-order panic; Go's
//     fixedbugs/issue5793.go, typeparam/issue45722.go). spreadCallEdits,
//     in a pass after the other rewrites, writes r0, r1 := g(); before a
//     statement of a function whose whole value is such a call (an
//     expression statement, a return, a definition or assignment to
//     names, a var, or such an init of an if or switch), and F(r0, r1),
//     for g a function of the cell or of the standard library; at the
//     cell's top level, for definitions and assignments only (the
//     temporaries are the session's, cleared after the cell). Elsewhere
//     (an argument of another call, a package-level var), a builtin's
//     call of a function the chunk declares becomes func() T { r0, r1 :=
//     g(); return append(r0, r1) }(), T from g's declaration, called in
//     place. The calls of a function of another chunk or cell are written
//     so by IfaceCopyEdits (spreadCall), which has their types from
//     go/types. Probes: "append of all the results of a call", "generic
//     call of all the results of a call".
//  135. Failed instantiations at explicit calls. For f[X](…), the
//     interpreter drops the error of its compilation of f's body for X
//     (a type switch whose cases X makes alike, a method expression of a
//     type parameter, an instantiated generic type it does not find, …)
//     and panics at the call with a nil pointer dereference, a "CFG
//     post-order panic" that does not name the cause. The session adds
//     InstantiationHint to the message: the instantiation called and
//     that the call without type arguments, where they can be inferred,
//     reports the interpreter's error. The positions of such compile
//     panics were a line after the cell's (the session's compileError
//     now maps them as those of other compile errors). Probe: "failed
//     instantiation at an explicit call"; the session's
//     TestFailedInstantiationIsNamed.
//  136. Comparisons of interfaces holding declared types with methods.
//     A value of a type M int with methods in an empty interface is the
//     interpreter's int, as one of a type without methods is (EqualIn
//     stopped the cell for the latter only), so any(3) == any(M(3)) was
//     true (Go: false); and t == i of a type parameter's value and an
//     interface compared the value with the interpreter's wrapper of the
//     interface (false where Go gives true, Go's typeparam/equal.go).
//     EqualIn now stops on any equal pair it cannot tell apart. Where
//     go/types types the cell, typedComparisons (in IfaceCopyEdits) makes
//     each comparison with an operand of an interface type or a type
//     parameter a call of EqualAs, with the types each operand can hold
//     as its static type says (any type, a type of the cells, a compiled
//     type, the cells' types with an interface's methods, the same type
//     parameter as the other operand; a constant compared with an
//     interface is of its default type: the interpreter's own == made
//     g(pm(3)) == 3 true); EqualAs answers where those sets decide and
//     stops the cell where they do not. Probes: "declared type
//     with methods in an empty interface", "type parameter compared with
//     an interface".
//  152. Switches on a type parameter with a case of an interface type.
//     switch v { case x: } with v of a type parameter and x of an
//     interface type, or the other way round, matched other values than
//     Go's (same(T(3), 3) matched, same(T(3), T(3)) did not).
//     typedSwitches (in IfaceCopyEdits) makes such a switch one without a
//     tag, switch t := v; { case EqualAs(t, x, …): }, whose cases compare
//     as typedComparisons' do (one with an init statement goes into a
//     block; one with a label and an init statement is left alone). Probe:
//     "switch on a type parameter with an interface case".
//  140. any and interface{}. The interpreter takes the two for different
//     types in pointer types: &x == &y for var x any and var y
//     interface{} failed to compile with "mismatched types". anyEdits (in
//     IfaceCopyEdits) writes the predeclared any as interface{} in cells
//     that write interface{} too. Probe: "any and interface{}".
//  144. Conversions to pointers to generic instantiations. (*S[T])(x)
//     in a generic function panicked at the call of the function as the
//     conversions of 91 did (a "CFG post-order panic"; Go's
//     typeparam/issue50109b.go). instanceFixes writes it as those, with
//     *S[T] for the type: func() *S[T] { var v *S[T]; _ = v; return
//     (*S[T])(x) }(). Probe: "conversion to a pointer to a generic
//     type's instantiation in a generic function"; the session's
//     TestConversionToAPointerToAGenericInstantiation.
//  145. Type arguments from variables made with make. In a generic
//     function, g(m), g generic and m := make(map[string]Item[T]),
//     panicked at the call of the function (a "CFG post-order panic";
//     Go's typeparam/issue50109.go), where g[T](m) runs. coreTypeEdits
//     (93) takes the type of an argument also from a variable declared
//     from make(T, …). Probe: "generic call of a variable made with make
//     in a generic function"; the session's
//     TestTypeArgumentsFromVariablesMadeWithMake.
//  146. Generic instantiations as type arguments. f[G[T]]() failed
//     ("type not found: G[main.X]"; in a generic function a panic at its
//     call, a "CFG post-order panic"; Go's typeparam/issue54225.go), as
//     the conversions of 91 do, until a variable of G[T] is declared.
//     typeArgInstanceEdits (in instanceFixes) declares one, unused, at the
//     start of the function's body, for an instantiation of one type
//     argument of a non-interface generic type whose names are all
//     declared outside the body (G[K, V] fails all the same). Probe:
//     "generic instantiation as a type argument"; the session's
//     TestGenericInstantiationAsATypeArgument.
//  147. Structs with several blank fields. The interpreter exports every
//     blank field of a struct as X_ and panics building the type
//     ("reflect.StructOf: duplicate field X_", a "CFG post-order panic";
//     Go's fixedbugs/bug442.go, issue21048.go). Naming the fields would
//     make == and map keys compare them, which Go does not:
//     blankFieldRefusals (semanticEdits) refuses such a struct type,
//     naming the construct. Probe: "struct with several blank fields";
//     the session's TestStructsWithSeveralBlankFieldsAreRefused.
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
//  105. Declarations of a failed compilation. The interpreter declares a
//     chunk's functions, variables and methods before it compiles their
//     bodies, and keeps them when the compilation fails: a function
//     declared again ran without code (returning 0), a variable declared
//     again read 0, and a method of a new type, declared again by the
//     fixed cell, ran without code. The session takes a copy of the
//     symbols a cell declares (SnapshotSymbols) and puts it back when the
//     cell fails to compile (Restore): such a cell has no effect, as in
//     Go. The generic instantiations the failed compilation made are
//     dropped too (InstanceSet, DropInstances, in every session with
//     generics): with them, the same cell run again compiled and panicked
//     where Go runs (Go's typeparam/issue53087.go; the session's
//     TestGenericCellThatFailedRunsAgain). Probe: "declarations of a
//     failed compilation".
//  106. Methods declared again. A method a later cell declares again is
//     added after the first, and the first is found: the edit of a method
//     in a notebook had no effect. DropMethods removes the earlier
//     declaration before the cell compiles; values made before and calls
//     through interfaces then run the new one, while functions compiled
//     before keep calling the old one, as with functions (19). Probe:
//     "method declared again".
//  107. Top-level definitions from generic calls. x := G(…) at top level,
//     G a generic function, panics while the interpreter lays out the
//     globals ("nil reflect type", also logged to the terminal) when an
//     earlier cell declared G, and reports G undefined when the cell
//     does; an assignment works. The session keeps the generic functions'
//     declarations, and GenericDefineEdits writes var x T; x = G[…](…)
//     on the same line, with the result type and the type arguments Go
//     infers where the source shows the arguments' types (and untyped
//     constants, earlier variables of predeclared types, library
//     functions, conversions); otherwise it refuses the definition with
//     that rewrite. x := G(…) op y is defined so too, with G's result
//     type (bool for a comparison). The same inference writes the type
//     arguments of the other calls of those functions outside generic
//     functions (typeArgEdits): the interpreter fails to infer them from
//     untyped constants (Sum(1, 2, 3): "undefined type for T") and from a
//     spread slice, and took U of func(int) string as int. The types of
//     earlier variables are taken from reflect only when no cell type is
//     declared as a predeclared one (type Celsius float64 reads as
//     float64 there). Probe: "top-level definition from a generic call".
//  108. Nil interfaces asserted to compiled interfaces. A comma-ok
//     assertion of a nil interface to a compiled interface type with
//     methods (v.(fmt.Stringer), v.(error)) panics ("call of
//     reflect.Value.Type on zero Value"), and so does a type switch with
//     such a case, where Go gives false or takes case nil or default.
//     nilAssertEdits asserts _portlabNilSafe(v) instead, which hands on v,
//     or for nil a value of a type without methods (Builtins);
//     typeSwitchEdits, which rewrites such switches into comma-ok tests,
//     tests v != nil first. Probe: "nil interface asserted to a compiled
//     interface".
//  109. Pointers converted to interfaces keep their slot. The interpreter
//     converts a pointer to a value of a type with methods into an
//     interface by keeping a reference to the slot that holds it: when the
//     slot is reused (the next evaluation of the same call or &T{…}, an
//     assignment), every interface made from it changes too. Appended in
//     a loop to a []item, mk(i) gave the last value three times (Go's
//     chan/powser2.go); so did x := &T{1}; var it I = x; x = &T{2}, where
//     it held the second. freshTempEdits gives the calls and &T{…} that a
//     statement in a function or loop stores away (append arguments, sent
//     values, values assigned to elements, fields and pointees, arguments
//     of call statements, a lone one when it is one value for sure) a
//     variable defined on the same line, new at each run; and the chunk's
//     variables stored, passed or
//     assigned so (x = mk(i); s = append(s, x); register(cur); var it I =
//     x), also those of earlier cells. At the top level of a cell, where
//     such variables would be the session's temporaries, zeroed after the
//     cell, the statement runs in a function literal of its own (but call
//     statements, whose value the cell may show). IfaceCopyEdits (119)
//     covers the conversions elsewhere. Probe: "pointer converted to an
//     interface keeps its slot".
//  119. Values converted to interfaces keep their variable. Not only
//     pointers: an interface value with methods that yaegi makes of any
//     value (its valueInterface) holds the slot the value was read from,
//     not a copy, so that it follows the variable afterwards: y := T{1};
//     s := show(y); y.v = 2 gave s.M() = 2, an error kept by a function
//     showed the text of the variable's next value, a fmt.Stringer the
//     next String, in a return, an if or for header, a call statement or
//     a map key alike. And the interface result of a call, passed on as
//     an argument of an interface type, was wrapped once more, so that an
//     assertion in the callee failed (Go's chan/powser2.go: c.(*rat) in
//     a method called with mk(…)). IfaceCopyEdits types the cell with
//     go/types — the declarations of earlier cells it needs (Decls, which
//     the session keeps), the compiled packages from the interpreter's
//     symbols (SymbolImporter) — and converts each such value in a
//     function literal of its own, func(_pv C) I { return _pv }(x), whose
//     parameter nothing writes again; as an argument, and for a call's
//     interface result, with an explicit conversion I(…) around it. The
//     sites: assignments, variable declarations with a type, arguments,
//     results, composite literal elements and keys, sends and map keys,
//     where the target is an interface with methods and the value's type
//     can be written in the cell, and one of them is or holds a type of
//     the cells (a compiled value to a compiled interface is converted by
//     reflect, a copy). Calls of generic functions and the bodies of
//     generic functions are left alone (the interpreter's instantiations
//     fail on the literals); so are conversions go/types cannot type (an
//     expression of a package the session lacks). (A rewritten cell the
//     interpreter fails to compile is not compiled again as written: the
//     failed compilation leaves the interpreter's generic instantiations
//     behind, with which Go's typeparam/issue53087.go then compiled and
//     ran wrongly.) The
//     refusals of typed nil pointers (TypedNilRefusals) judge the cell
//     as written. Probes: "value converted to an interface argument keeps
//     its variable", "interface result passed as an interface argument".
//  120. Assertions to error of the cells' error types. A value of a type
//     of the cells that implements error, held in an interface, asserted
//     to error gave ok with a nil error (err, ok := v.(error) with v a
//     variable of an earlier cell; e := v.(error) too), or false for a
//     recovered panic value (r.(error)), where comma-ok assertions to the
//     type itself work. In a session with such types, errorAssertions
//     (in IfaceCopyEdits, with go/types) makes each x.(error) a function
//     literal that asserts x to each of them first (a nil pointer among
//     them stops the cell: the interpreter cannot make an error holding
//     it) and to error last; a type switch with case error is refused,
//     and so is the assertion when one of the types cannot be told from
//     another (ConcreteAssertions). Probe: "cell error value asserted to
//     error".
//  121. Instantiations that are one type, in the session. The
//     instantiations of a generic type whose definition does not tell
//     them apart by a type parameter (blank, unused, used only in
//     interface types or as such a parameter of another type: type W[T
//     any] struct{ o O[T] } for type O[T any] struct{ v int }) are one
//     type (69, 87), whichever cell or generic function makes them:
//     O[int]{} and O[string]{} were equal as interface values and map
//     keys. The definition alone, and one instantiation, run as in Go.
//     PhantomTypes finds such types among the cell's and the earlier
//     cells' types; after the cell compiles, before it runs, the session
//     reads with PhantomInstances the instantiations the interpreter
//     made, which it keeps in the package's scope by name, also those of
//     generic functions' instantiations, and refuses the cell when one
//     such type has two (spelled differently: any and interface{} count
//     as two), undoing its declarations and its new instantiations, in
//     the scope and in the interpreter's cache of generic types and
//     functions, also when a cell fails to compile (DropInstances: a
//     cached mk[string] would give Foo[string] values without
//     instantiating Foo again). The interpreter names an instantiation by
//     the text of its type arguments, main.L for local types of one name
//     in two functions, a struct type without its tags and
//     template.Template for text/template's and html/template's, which
//     would make one instantiation of two: LocalTypeRefusals refuses a
//     type declared in a function and an unnamed struct type with tags,
//     in a cell that names a generic type or function, in a session with
//     such types, and PhantomInstances counts an instantiation naming a
//     package whose name two imports share as a second one. Probes: "named type parameter not used in the definition",
//     "type parameter used only through an unused one"; the session's
//     TestInstantiationsThatWouldBeOneType and
//     TestUnusedNamedTypeParameterAcrossCells.
//  122. Method values of copies. The refusals of 58 covered Go's
//     method5.go, method7.go and bug512.go. MethodValueEdits (called by
//     the session before PrepareCell) type-checks the cell with go/types
//     (with the session's types and methods) and writes such a method
//     value x.M as the method value of a copy made there, func() T { r :=
//     x; return r }().M: *x for a pointer x, x.E.F for a method promoted
//     through embedded fields (a nil pointer panics there, as in Go), &x
//     for a method with a pointer receiver, a nil check for an interface.
//     go x.M(a) and defer x.M(a) get the same receiver where a are
//     literals or names. It also rewrites the method values the refusals
//     let through as copies that reach the value through a pointer (p :=
//     &v; f := p.M). A statement that calls other functions keeps the
//     refusal (Go leaves their order with the copy to the compiler), as
//     do types go/types does not know (variables of earlier cells,
//     imported types) and type parameters. A method expression of a type
//     literal or a pointer type, struct{ T }.M, (*G[int]).M or (*T).M
//     (called or not), which failed in the interpreter ("reflect.Set:
//     value of type func() string is not assignable"; "value of type *T
//     is not assignable to type T", Go's method.go and method3.go),
//     becomes a function literal calling the method.
//     Probes: "method value of a value receiver reads the variable",
//     "method expression of a struct literal", "method expression of a
//     pointer type with a value method"; the session's
//     TestMethodValuesOfValueReceivers, TestGoAndDeferOfValueMethods and
//     TestMethodExpressionsOfTypeLiterals.
//  123. Operations on huge untyped constants. The interpreter computes an
//     operation on untyped integer constants in an int64 and fails when
//     an operand or the result is beyond it: var y uint64 = 1 << 63, and
//     big > big-1 for const big = 1 << 100, fail with "constant … overflows
//     int64" (Go's test/const.go, fixedbugs/issue4752.go); their literals
//     work. foldConstants (hugeConstant) writes out such an operation, or a
//     comparison of such, as its exact value, an untyped integer literal
//     (N) or true or false, which the context converts as Go converts the
//     operation; not where it converts to float32 or complex64, which the
//     interpreter reaches through float64 (two roundings). Probe:
//     "operation on huge untyped constants".
//  124. Types that contain themselves. A type that refers to itself other
//     than through a named struct or interface type (type Peano *Peano, type
//     F func(string) F, type T []T, type M map[string]M, type L []struct{
//     next L }, type Chan[T any] chan Chan[T]) is declared, but a use of it
//     makes the interpreter panic while it compiles the cell ("interface
//     conversion: reflect.Type is nil, not *reflect.rtype", a nil
//     dereference), and for some (type T [2]*T) the process dies of a stack
//     overflow: reflect cannot build such a type, and the interpreter does
//     not name it. Go's test/peano.go, ddd.go, fixedbugs/bug294.go,
//     issue4316.go, reorder2.go, abi/fibish_closure.go,
//     typeparam/issue47901.go. recursiveTypes refuses them, with the cycle,
//     where the cell uses one outside the definitions of the cycle
//     (fixedbugs/bug455.go declares one and runs): the recursion can go
//     through a named struct (type Peano struct{ next *Peano }). Probe:
//     "type that contains itself".
//  125. Blank type declarations. The interpreter fails on type _ B ("cannot
//     use _ as value"; Go's test/fixedbugs/bug295.go), which declares
//     nothing and runs no code. blankTypes removes blank type specs, and a
//     type declaration of blank specs only, keeping the lines of the cell.
//     Probe: "blank type declaration".
//  126. Variables of one call declared after their use. The interpreter fails
//     on var c = b; var a, b = foo() ("assignment mismatch: 1 variables but
//     foo returns 2 values"; Go's test/fixedbugs/bug436.go) and runs the
//     other order. multiValueOrder moves such a package-level declaration
//     onto the line of the first declaration that uses its variables, ahead
//     of it, when every declaration it moves past names one of them in its
//     values (outside function literals and composite literal keys) and it
//     names none of theirs: Go initializes none of those before it, so the
//     order of initialization stays Go's. Probe: "multi-value var after its
//     use".
//  127. Types declared in functions with a package-level type's name. The
//     interpreter takes the name, in the function, for the package-level
//     type: type T [2]int in a function where T is a struct outside fails
//     with "too many values in struct literal" (Go's
//     test/fixedbugs/issue8947.go). recursiveTypes refuses a type declared
//     in a function whose kind (struct, array, interface...) differs from
//     the package-level type's of the cell, with a message that asks for
//     another name; of one kind, the interpreter may run it as Go does
//     (fixedbugs/bug286.go) and it is left alone. Probe: "local type of a
//     package-level name".
//  128. Builtins applied to a call of two results. copy(f(a)) and
//     delete(h(m)), which Go accepts, make the interpreter panic while it
//     compiles the cell ("index out of range [2] with length 2"; Go's
//     test/fixedbugs/issue15992.go). builtinSpreadEdits takes the results
//     into variables first: func() int { x, y := f(a); return copy(x, y)
//     }(), which calls f, then copy, as Go does; not in a defer or go
//     statement (whose arguments Go evaluates at once). Probe: "copy of a
//     call of two results".
//  129. Type aliases declared in functions. The interpreter reports such an
//     alias undefined where it is declared (type C = int32 in a function:
//     "undefined: C"; Go's test/fixedbugs/issue50190.go). recursiveTypes
//     refuses it with a message that says so and asks for the alias outside
//     functions or the type it stands for. Probe: "type alias in a
//     function".
//  130. Interfaces handed to fmt are read again. For a value of a type of
//     the cells with methods held in an interface (the interpreter's
//     stand-in, valueInterface), the wrapper the interpreter builds for
//     fmt's functions (getBinValue, for the functions of MapTypes) reads
//     the value again from the variable or expression the interface was
//     made from, in the frame of the call: an interface made in another
//     function (returned by it, stored in a global) gave another variable
//     of the caller's frame, so that fmt printed another value, <nil>, or
//     a panic of the interpreter's inside String that fmt recovered
//     ("%!v(PANIC=String method: reflect.Set: value of type func(interface
//     {}) is not assignable to type struct { Xs string })" for s := S{…};
//     var sa any = s; fmt.Println(sa) at the top level of a cell, whose
//     temporary lived in a function literal); and one made from a
//     variable assigned since gave its new value. fmtArgEdits puts the
//     arguments fmt.Print, Println, Sprint, Sprintln, Fprint, Fprintln,
//     Printf, Sprintf, Fprintf and Errorf print in _portlabFmtArg(…)
//     (FmtArgSource, declared by the session before the first cell that calls it): for a stand-in (FmtStandIn) it takes
//     method values of the methods fmt calls, in FmtWrappers' order, which
//     call them with the value the stand-in holds, and FmtWrap builds the
//     wrapper the interpreter would from them; other values pass as they
//     are (the temporaries of the top level of a cell, freshTemps, keep
//     their function literals: fmt no longer reads them again, and
//     globals kept for them would hold their values for the session).
//     Arguments not of an interface type for sure (plainExpr:
//     literals, operations, variables the chunk declares with such values
//     or plain types), whose wrapper the interpreter builds right, keep
//     their place (fmt in loops stays fast), and so do the arguments of a
//     call with args… and a lone call that may give several values.
//     Values in an []any or map[string]any still stop the cell
//     (holdsValueInterface), and so does a %w argument handed over as its
//     representation (printVerbs). Probes: "interface handed to fmt read
//     again in the caller's frame", "interface handed to fmt follows the
//     variable".
//  131. Values returned as any lose their type. A function whose one
//     result is of type any (or interface{}) returns a value of a type of
//     the cells as a value of the type it is declared from: fmt.Println(f())
//     printed 3 for func f() any { return W(3) }, where Go calls W's
//     String. anyReturnEdits makes return x { var t any = x; return t }:
//     a variable of type any keeps the type. Probe: "value returned as any
//     loses its type".
//  137. Type arguments the interpreter does not infer. A generic function
//     used as a value whose type arguments Go infers from the target
//     (f1 = g1, h(g1, 3) for func(int) int) is refused ("cannot use type
//     func(main.P) main.P as type func(int) int"), and one of two type
//     parameters or more as a value, g2[int, string], too ("not a generic
//     type"); a call whose type argument only a function-typed argument
//     or a core type gives (Clone(m) for Clone[M ~map[K]V, K comparable,
//     V any], in a method of a generic type, where coreTypeEdits does not
//     see the types) fails ("undefined type for K"). inferredEdits (in
//     IfaceCopyEdits, with go/types) writes the type arguments go/types
//     inferred after the called name, and makes such a value a function
//     literal that calls the instance, func(_gv0 int) string { return
//     g2[int, string](_gv0) }, where every name the types mention finds
//     the same type at that place (spellAt: a local type, a type parameter
//     of the enclosing function, not one a variable hides). Probes: "type
//     argument of a core type in a generic method", "generic function
//     value of inferred type", "generic function of two type parameters as
//     a value".
//  138. Constants in shift counts. In the count of a shift that is an
//     operand of another operation or of an assignment operation, a
//     constant operation takes the type of the shifted operand (a3 *= a4
//     << (u & (1 - 0)), a4 an int8 and u a uint16: "mismatched types
//     uint16 and int8"), and a shift of a constant by a count computed at
//     run time, inside a count, is an int where Go makes the count a uint
//     (a1 >> ((2 >> v) + 0) fails on reflect's Uint). shiftCountEdits (in
//     IfaceCopyEdits, with go/types) converts such a constant operation to
//     the type go/types gives it, the constant shifted by a count computed
//     at run time to its type, and a count that is untyped and not
//     constant to uint. Probes: "constant operation in a shift count",
//     "shift of a constant in a shift count".
//  139. maps.Clone (see 27). mapsCloneEdits (in IfaceCopyEdits, with
//     go/types, which does not see the generic functions of compiled
//     packages, so the call is found by the package's name) writes
//     maps.Clone(m) out for the type M of m, where M can be written at the
//     call: func(_mc M) M { if _mc == nil { return nil }; _c := make(M,
//     len(_mc)); for _k, _v := range _mc { _c[_k] = _v }; return _c }(m),
//     Go's result (nil for nil, each entry of a NaN key once); elsewhere
//     genericEdits refuses it. Probe: "maps.Clone".
//  141. Switch on an interface with a case of another type. yaegi converts
//     the tag to the type of each case before comparing and fails when
//     one is an interface and the other is not ("reflect.Value.Convert:
//     value of type interface {} cannot be converted to type int" for var
//     i any; switch i { case 1: … }, and for a tag of a concrete type or
//     a type parameter with a case of an interface type), and reads a
//     case of an interface type in a switch without a tag as a bool
//     ("reflect: call of reflect.Value.Bool on interface Value").
//     ifaceCaseEdits, where go/types gives the types, evaluates the tag
//     once into a variable of the switch's init (an init of the switch's
//     own runs first in a block around it, unless the switch is labeled)
//     and makes each case its comparison, one clause each: Equal(t, x)
//     where t or x is an interface (a constant taking its default type,
//     as in Go's switch), t == (x) otherwise; a case x of an interface
//     type without a tag becomes Equal(x, true). A chunk that declares a
//     type other than an interface in a function is left alone: Equal
//     cannot tell that type's values from those of the type by which the
//     interpreter represents it. Probes: "switch on an interface with a
//     case of another type", "switch without a tag with a case of an
//     interface type".
//  142. Return of a declared function. return g, g a function declared
//     at the top level, in a function whose one result is of a func type,
//     hands the caller the interpreter's node of g, and the call of the
//     result fails ("reflect.Set: value of type *interp.node is not
//     assignable to type func()"); a variable declared with the func type
//     holds g as Go does. funcReturnEdits writes { var t T = g; return t
//     }, T the result's type from go/types where it can be written there.
//     Probe: "return of a declared function".
//  143. Method expressions of promoted methods. S.M or (*S).M, with M a
//     method of a type S embeds, calls the method with the struct as its
//     receiver and fails ("reflect.Set: value of type func() is not
//     assignable to type func(struct { *int })"). promotedExprEdits
//     writes the function literal Go's wrapper is, func(_r S, _p0 int)
//     int { return _r.M(_p0) }, with the types from go/types where they
//     can be written there, for a method the chunk declares that does not
//     call recover itself (recover works in a method called through Go's
//     wrapper, not through a literal). Probe: "method expression of a
//     promoted method".
//  148. Receives among values defined in a header. if a, b := <-c, 7; …
//     (or switch, for) sets the values other than the receive to zero, as
//     a, b := <-c, 7 does in a statement list (there semanticEdits
//     evaluates the values up to the last receive into temporaries
//     first). For an if, switch or for in a statement list,
//     headerDefineWithReceive finds the init and semanticEdits opens a
//     block before the statement with those temporaries ({ _rv12_0 :=
//     <-c; if a, b := _rv12_0, 7; … }): the init runs once, first, so
//     evaluating its values just before is the same. An else if or a
//     labeled statement is refused. Probe: "receive among values defined
//     in a header".
//  149. Promotion depth, explicit paths. Where a name is promoted from
//     two depths (item 56), PromotedPathEdits (called by the session
//     before the refusals) writes each selector x.f that go/types types as
//     reaching f through embedded fields while f is also deeper as the
//     explicit path x.E1.E2.f, which the spec defines it to be (through
//     embedded pointers alike): s4.i read S3.S1.i for type S4 struct {
//     S3; S1 }, now S1.i as in Go (Go's fixedbugs/bug253.go, bug485.go).
//     promotionRefusals then lets such a type be where the cell is exact:
//     every selector of the name typed and, where needed, rewritten, and
//     the name a field or an unexported method no interface type of the
//     cell or the session has. It still refuses exported methods (fmt and
//     reflect see the method set, issue24547.go), method expressions and
//     selectors go/types could not type or whose path names an
//     unexported field of another package; the session keeps the names
//     let be, so that a later cell that selects one where go/types
//     cannot type it, or declares an interface type with it, is refused.
//     Probe: "promotion from two depths".
//  150. Package-level initialization order. yaegi orders a chunk's
//     package-level vars by the names their initializers mention, not
//     through the functions and methods they call, and a blank var waits
//     for the last blank var declared (it takes the blank name for a
//     dependency): var early = h() before var late = 3, where h returns
//     late, gave 0 (Go's const4.go, fixedbugs/bug446.go, issue51913.go).
//     Where initOrderRefusals would refuse a cell, InitOrderEdits (called
//     by the session first) types it with go/types and writes its var
//     declarations in Go's order (Info.InitOrder: one declaration per
//     initializer, var a, b = f() staying one) at the end of their chunk,
//     blanking them where they stood, so that the refusal no longer
//     applies. It leaves the cell as it is (refused) where the cell does
//     not type, the order would run a later chunk's var before an earlier
//     one's, two blank vars are initialized, or yaegi's order of the
//     rewritten chunk (its dependencies by name) would differ from it.
//     Probe: "variable reached through a call initialized later".
//  151. Constant len of an array. In a constant declaration, len(x) or
//     cap(x) of an array or a pointer to one is a constant and x is not
//     evaluated; yaegi evaluates it: const n = len(s[10]) for an s of type
//     [][30]int printed a panic and stopped the cell (Go's const4.go).
//     foldConstants writes such a call as its value, where go/types types
//     the declaration. Probe: "constant len of an array element".
//
// Two rewrites of cellEdits are not workarounds but the kernel's policy,
// and stay after any upgrade: go statements run through _portlab.Go, so a
// panic in a goroutine is reported instead of ending the process, and the
// sizes of make calls go through _portlab.MakeLen, so an allocation larger
// than the machine's memory is a panic instead of a fatal error. The
// session provides the functions the rewritten cells call, as the package
// "portlab.kernel/cell" imported as _portlab: Value, Defer, Go,
// Checkpoint, MakeLen, Select, Relay and Clear. FeatureTable summarises all this for
// users (%help and kernel/README.md).
package yaegifix
