package yaegifix

// FeatureTable says, for the Go features cells may expect, what the
// interpreter (yaegi v0.16.1) and the kernel do. %help shows it and
// kernel/README.md holds the same table (a test compares them).
const FeatureTable = `| Go feature | in a cell |
|---|---|
| Go version | the language and standard library of Go 1.22 (what yaegi v0.16.1 implements; ` + "`kernel_info`" + ` says 1.22); the library is compiled with the Go that built the kernel |
| packages of Go 1.23+ | ` + "`strings`/`bytes`" + ` ` + "`Lines`, `SplitSeq`, `SplitAfterSeq`, `FieldsSeq`, `FieldsFuncSeq`" + ` are added; ` + "`iter`, `slices.Collect`, `maps.Keys`, `math/rand/v2.N`" + ` and other generic additions are missing (yaegi's generics fail on ` + "`iter.Seq`" + ` signatures): collect keys with a loop and sort them with ` + "`slices.Sort`" + `, use ` + "`math/rand/v2.IntN`" + ` |
| ` + "`for v := range seq`" + ` over a function (iterator) | rejected with a message: call the iterator with the body, ` + "`seq(func(v T) bool { …; return true })`" + ` |
| ` + "`for i := range n`" + ` over an integer | rewritten to a three-clause loop when n is a constant, ` + "`len`/`cap`" + `, or an integer variable of the session or the cell; otherwise rejected with a message |
| generics | generic functions and types, constraints such as ` + "`~int \\| ~float64`" + `; a generic type that refers to itself through another generic type, or with two type parameters, is rejected with a message (the interpreter's type checker would recurse without end); a type argument that only a function-typed argument gives must be written: ` + "`Map[int, string](xs, f)`" + ` (the error says so) |
| type switches | work; a top-level ` + "`switch v := x.(type)`" + ` runs inside a generated function (yaegi fails on it at top level); a case that is an interface type using a type parameter of the generic function (` + "`case interface{ M() T }:`" + `) is rejected with a message (yaegi matches it against another type), as is ` + "`==`/`!=`" + ` between a type parameter's value and an interface |
| comma-ok forms | ` + "`m[k], ok = x.(T)`" + ` (or ` + "`= m2[k]`, `= <-c`" + `) into a map element is rewritten so that the map changes (yaegi left it unchanged); ` + "`v, ok := m[k]`" + ` as a top-level statement of a cell is rejected with the declarations to write (yaegi fails on it); inside functions and blocks it works |
| ` + "`errors.As`" + ` | works with error types declared in cells when the error's static type is ` + "`error`" + ` (a function returning ` + "`error`" + `); ` + "`fmt.Errorf(\"%w\", &MyErr{})`" + ` with the concrete pointer loses the wrap: assign it to an ` + "`error`" + ` variable first |
| ` + "`%#v`" + ` of a cell struct | names exported cell types (` + "`P{X:1}`" + `) in ` + "`fmt.Sprintf/Printf/Fprintf`" + ` |
| goroutines | ` + "`go f(x)`" + ` works; a panic in the goroutine stops the running cell with an error naming it (and is written to the kernel's log) instead of ending the kernel |
| ` + "`defer`" + ` | at top level, runs once when its cell ends (also after a panic), last first; function and arguments are evaluated at the statement, as in Go; ` + "`recover`" + ` in it does not stop the cell's panic. In functions, arguments are evaluated at the statement (yaegi read them when the function returned) |
| package-level ` + "`var`" + ` initialization | in the order of the declarations; a blank ` + "`var _ = …`" + ` whose initializer uses a variable declared after it in the cell and initialized by a call is rejected with a message (Go would initialize in dependency order, so the calls would come in another order) |
| ` + "`make`" + ` | a slice, map or channel larger than the machine's memory is a panic that says so; the kernel survives |
| compile errors | a cell compiles whole before anything runs: a cell with an error runs nothing |
| interrupt | stops interpreted loops within a second; a compiled call (` + "`time.Sleep`" + `, library code without ` + "`ctx`" + `) finishes, then the rest of the cell is skipped; names the cell did not reach are reported when used |
| blocks and loop variables | a top-level ` + "`if`/`for`/`switch`/`select`/`{…}`" + ` runs in a generated function, so its ` + "`:=`" + ` names are its own; loop variables are per iteration (Go 1.22) where the body makes a closure, a goroutine, a defer or takes an address (a three-clause loop whose body also changes the variable is rejected with a message) |
| recursion | a cell whose goroutine stacks grow by more than 64 MB (some 100,000 interpreted calls) and 64 KB for each goroutine it started stops with a stack overflow error; the session keeps its state |
| ` + "`print`, `println`" + ` | write to stderr in Go's runtime format (shortest floats, addresses for pointers, maps, channels and functions, ` + "`[len/cap]`" + ` for slices); a non-nil interface argument prints its value, not Go's (type, data) addresses |
| ` + "`recover()`" + ` | gives the value the panic was given; the interpreter's own failures (index out of range, …) recover as a ` + "`runtime.Error`" + ` |
| introspection | ` + "`runtime.Caller/Callers/CallersFrames/FuncForPC/Stack`, `debug.Stack/PrintStack`, `testing.AllocsPerRun`, `runtime.SetFinalizer/AddCleanup`, `runtime.ReadMemStats`" + ` are rejected with a message (they would report the interpreter's frames, allocations and memory); ` + "`runtime.Breakpoint`" + ` is a panic |
| ` + "`func main`" + ` | rejected with a message (the interpreter would run it after every later cell): name it ` + "`run`" + ` and call it; ` + "`main()`" + ` is then an undefined name |
| ` + "`select`" + ` | works; ` + "`case x = <-c:`" + ` is rewritten to ` + "`case v := <-c: x = v`" + ` (yaegi fails on the assignment form); when an operand calls a function, the channels and sent values are evaluated first, in order, as Go does |
| generic standard library | ` + "`slices.Sort`, `slices.Reverse`" + ` work on slices of ordered elements; ` + "`slices.Max/Min/Clone/SortFunc/SortStable`, `maps.Clone/Copy`" + ` are rejected with the loop to write; ` + "`slices.Index`, `slices.Contains`" + ` work |
| names | a top-level name equal to an imported package (` + "`dataset := …`" + `) and a type declared again with another definition are rejected with a message (the interpreter would keep the package or the first type) |
| fatal runtime errors | (out of memory in compiled code, concurrent map writes) end the process; the next kernel of the notebook shows the runtime's message |
`
