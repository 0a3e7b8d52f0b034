package yaegifix

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"sync"

	"github.com/traefik/yaegi/interp"
)

// specialStdio serialises the creation of interpreters, which reads
// YAEGI_SPECIAL_STDIO from the environment.
var specialStdio sync.Mutex

// New returns a new interpreter with opts in which os.Stdout, os.Stderr and
// os.Stdin of cells are opts.Stdout, opts.Stderr and opts.Stdin (as
// io.Writer and io.Reader): with its default, the interpreter gives cells
// the process's *os.File values, whose output bypasses opts and arrives out
// of order with what fmt.Print writes. The switch, YAEGI_SPECIAL_STDIO, is
// read from the environment when the interpreter is made, so New sets it
// for that moment only.
func New(opts interp.Options) *interp.Interpreter {
	specialStdio.Lock()
	defer specialStdio.Unlock()
	old, had := os.LookupEnv("YAEGI_SPECIAL_STDIO")
	os.Setenv("YAEGI_SPECIAL_STDIO", "1")
	it := interp.New(opts)
	if had {
		os.Setenv("YAEGI_SPECIAL_STDIO", old)
	} else {
		os.Unsetenv("YAEGI_SPECIAL_STDIO")
	}
	return it
}

// Noise matches the lines the interpreter writes to standard error on its
// own when a cell panics ("_.go:3:5: panic: …", with the position of each
// interpreted frame), and the log line of its internal "nil type" panic;
// the session reports the panic as the cell's error instead and builds its
// traceback from the positions.
var Noise = regexp.MustCompile(`^(?:_\.go:)?(\d+):(\d+): panic\b.*$|^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d nil type$`)

// Builtins is Go source, evaluated in every new interpreter, that declares
// the builtins of Go 1.21 the interpreter lacks: min and max as generic
// functions, and clear as the function the session exports as
// _portlab.Clear (see Clear), and what rewritten cells call:
// _portlabNilSafe (nilAssertEdits) and _portlabFmtArg (fmtArgEdits).
// BuiltinNames are the globals it declares.
const Builtins = `
var clear = _portlab.Clear

func min[Tpmin int | int8 | int16 | int32 | int64 | uint | uint8 | uint16 | uint32 | uint64 | uintptr | float32 | float64 | string](x Tpmin, y ...Tpmin) Tpmin {
	for _, v := range y {
		if v < x {
			x = v
		}
	}
	return x
}

func max[Tpmax int | int8 | int16 | int32 | int64 | uint | uint8 | uint16 | uint32 | uint64 | uintptr | float32 | float64 | string](x Tpmax, y ...Tpmax) Tpmax {
	for _, v := range y {
		if v > x {
			x = v
		}
	}
	return x
}

type _portlabNilT struct{}

func _portlabNilSafe(v any) any {
	if v == nil {
		return _portlabNilT{}
	}
	return v
}

func _portlabAsAny(v any) any {
	if v == nil {
		return nil
	}
	return v
}
`

// nilSafeFunc hands on a value to assert, or for nil a value of a type
// without methods (nilAssertEdits).
const nilSafeFunc = "_portlabNilSafe"

// BuiltinNames are the globals Builtins declares.
var BuiltinNames = []string{"clear", "min", "max", "Tpmin", "Tpmax", "_portlabNilT", nilSafeFunc, asAnyFunc, fmtArgFunc}

// Clear is the interpreter's clear: it deletes all entries of a map and
// zeroes the elements of a slice.
func Clear(v any) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Map, reflect.Slice:
		rv.Clear()
	default:
		panic(fmt.Sprintf("invalid argument: clear of %T (want a map or a slice)", v))
	}
}

// RangeIntMessage explains why a range loop was rejected: the
// interpreter implements the range statement of Go 1.21 and panics with
// "nil type" (IsRangePanic) on a range over an integer it was not
// rewritten for, or over a function.
const RangeIntMessage = "for … range over an integer or over a function (an iterator such as iter.Seq) is not supported by the interpreter, " +
	"which implements Go 1.21's range statement. Over an integer n, write for i := 0; i < n; i++ " +
	"(the kernel rewrites the loop itself when it sees that n is an integer: a constant, len(…), cap(…), a conversion, an integer variable, " +
	"parameter or constant of the cell or an integer variable of the session). " +
	"Over an iterator seq, call it with the loop body: seq(func(v T) bool { …; return true }) (return false to break); " +
	"the kernel rewrites the loop itself when seq is a function the same cell declares with a yield parameter of a func type, or returns one"

// IsRangePanic reports whether v, the value of a panic of the interpreter
// while it compiled a cell, is the one it raises for a range statement of
// Go 1.22 and later (see RangeIntMessage).
func IsRangePanic(v any) bool { return fmt.Sprint(v) == "nil type" }

// genericHint explains the interpreter's failures to infer type arguments.
const genericHint = " (the interpreter cannot always infer type arguments from function-typed arguments: " +
	"write them, as in Map[int, string](xs, f))"

// ExplainCompileError returns the interpreter's compile error msg with an
// explanation where the message misleads: "constant definition loop" is
// what it says for an undefined name, and its failures to infer a type
// argument from a function-typed argument read as type mismatches.
func ExplainCompileError(msg string) string {
	if i := strings.Index(msg, "CFG post-order panic: "); i >= 0 {
		// A panic of the interpreter's compiler, not a mistake of the cell
		// that Go would report.
		msg = msg[:i] + "the interpreter failed to compile this (" + msg[i+len("CFG post-order panic: "):] +
			"); rewriting the statement in simpler steps usually avoids it"
	}
	if strings.Contains(msg, "constant definition loop") {
		msg += " (the interpreter says this for an undefined name)"
	}
	if strings.Contains(msg, "undefined type for") || strings.Contains(msg, "cannot use type func(") && strings.Contains(msg, "as type func(") {
		msg += genericHint
	}
	return msg
}

// panicMessages maps the interpreter's panics that come from its use of
// reflect to the runtime errors compiled Go gives for the same mistake.
var panicMessages = []struct{ yaegi, goMsg string }{
	{"reflect: call of reflect.Value.Field on zero Value", "runtime error: invalid memory address or nil pointer dereference (a field of a nil pointer to a struct)"},
	{"reflect: call of reflect.Value.Elem on zero Value", "runtime error: invalid memory address or nil pointer dereference"},
	{"reflect: call of reflect.Value.Index on zero Value", "runtime error: invalid memory address or nil pointer dereference (an element of a nil pointer to an array)"},
	{"reflect.Value.Call: call of nil function", "runtime error: invalid memory address or nil pointer dereference (call of a nil function)"},
	{"reflect: slice index out of range", "runtime error: index out of range"},
	{"reflect: array index out of range", "runtime error: index out of range"},
	{"reflect: string index out of range", "runtime error: index out of range"},
	{"reflect.MakeSlice: len > cap", "runtime error: makeslice: cap out of range"},
	{"reflect.MakeSlice: negative len", "runtime error: makeslice: len out of range"},
	{"reflect.MakeSlice: negative cap", "runtime error: makeslice: cap out of range"},
	{"reflect.Value.Grow: slice overflow", "runtime error: makeslice: len out of range"},
	{"reflect.Value.Slice: string slice index out of bounds", "runtime error: slice bounds out of range"},
	{"reflect.Value.Slice: slice index out of bounds", "runtime error: slice bounds out of range"},
	{"reflect.Value.Slice3: slice index out of bounds", "runtime error: slice bounds out of range"},
}

// ExplainPanic returns the message of a cell's panic as compiled Go would
// word it where the interpreter's differs (ones from its use of reflect).
func ExplainPanic(msg string) string {
	for _, m := range panicMessages {
		if strings.Contains(msg, m.yaegi) {
			return m.goMsg
		}
	}
	if m := sliceToArray.FindStringSubmatch(msg); m != nil {
		return "runtime error: cannot convert slice with length " + m[1] + " to array or pointer to array with length " + m[2]
	}
	return msg
}

// sliceToArray matches reflect's panic for the conversion of a slice to
// an array, or a pointer to one, longer than the slice.
var sliceToArray = regexp.MustCompile(`reflect: cannot convert slice with length (\d+) to (?:pointer to )?array with length (\d+)`)

// interpreterFault matches the panics that come from the interpreter's
// own machinery rather than from the cell: its use of reflect on values it
// built with the wrong type or kind ("reflect: call of
// reflect.Value.SetBool on int Value", "reflect.Set: value of type … is not
// assignable to …", "reflect: Method index out of range"), its internal
// types (interp.valueInterface, *interp.node, and the stdlib._fmt_Stringer
// wrappers of its standard library, "comparing uncomparable type
// stdlib._fmt_Stringer" for two compiled interfaces holding a value of a
// cell's type), its "invalid interface value" and "method not found" (Go
// finds every method when it compiles), and the kernel's own checks at
// run time (RangeString), whose message starts with Refused. Each is
// yaegi failing on a construct compiled Go runs; the messages
// panicMessages maps to Go's runtime errors are checked first.
var interpreterFault = regexp.MustCompile(`^(?:\d+:\d+: )?(?:reflect[.:]|invalid interface value|method not found: |` + Refused + `)|\binterp\.[a-zA-Z]|\bstdlib\._[a-zA-Z]`)

// InterpreterFault reports whether a cell's panic message (after
// ExplainPanic) is the interpreter's failure rather than a panic compiled
// Go would give (see interpreterFault). A cell that calls reflect itself
// can panic with the same words in Go; InterpreterFaultMessage says so.
func InterpreterFault(msg string) bool {
	return interpreterFault.MatchString(msg)
}

// InterpreterFaultMessage words a panic InterpreterFault recognises for
// the user: an error of the interpreter, not a result of the cell.
func InterpreterFaultMessage(msg string) string {
	if strings.HasPrefix(msg, Refused) {
		// A check of the kernel's that names the construct.
		return msg
	}
	if strings.Contains(msg, "method not found: ") || strings.Contains(msg, "invalid interface value") {
		// Its usual cause: a method promoted from an interface embedded
		// in a struct (type T struct{ error }; var e error = T{…}).
		msg += "; a method promoted from an interface embedded in a struct is one the interpreter may not find: " +
			"call it through the field (x.Shape.Area()) or declare the method on the struct"
	}
	return "the interpreter failed while running the cell (" + msg + "): a construct here is beyond what it runs the way Go does, " +
		"and its results up to this point may be incomplete; unless the cell misuses reflect itself, compiled Go would not fail here. " +
		"Rewriting the statement in simpler steps (a named type instead of an interface conversion, a plain function instead of a method value) usually avoids it"
}
