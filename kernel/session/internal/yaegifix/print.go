package yaegifix

import (
	"go/ast"
	"go/scanner"
	"go/token"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"
)

// printFuncs are the session functions that stand for the builtins print
// and println in rewritten cells.
var printFuncs = map[string]string{"print": "_portlab.Print", "println": "_portlab.Println"}

// recoverFunc is the session function that makes a recovered value of the
// interpreter's what Go's runtime would have panicked with (Recover).
const recoverFunc = "_portlab.Recover"

// printEdits rewrites the calls of the builtins print and println to the
// session's Print and Println (see FormatPrint): yaegi v0.16.1 formats
// their arguments as fmt's %v does, on standard output, where Go's runtime
// writes floats as strconv's shortest form, pointers, channels, maps and
// functions as hexadecimal addresses, slices as [len/cap]address, nil
// interfaces as (0x0,0x0), print's arguments without spaces between them,
// and all of it on standard error. skip holds the calls that go and defer
// statements rewrite themselves (deferredCall uses printFuncs). A cell
// that declares print, println or recover keeps its own (declaresPrint).
//
// recover() becomes Recover(recover()): the value a cell's panic was
// given (the interpreter recovers its reflect.Value, so that v.(string)
// failed), and what the interpreter's own
// failures panic with (reflect's strings, its interface conversion errors)
// becomes a runtime.Error, as Go's runtime panics are, so that a recovered
// value asserted to error or runtime.Error works.
func printEdits(fset *token.FileSet, root ast.Node, off int, skip map[*ast.CallExpr]bool) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	var edits []edit
	nilChecked := nilCheckedRecovers(root)
	ast.Inspect(root, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || skip[call] {
			return true
		}
		id, ok := call.Fun.(*ast.Ident)
		if !ok {
			return true
		}
		if to, ok := printFuncs[id.Name]; ok {
			edits = append(edits, edit{pos(id.Pos()), pos(id.End()), to})
		}
		if id.Name == "recover" && len(call.Args) == 0 {
			f := recoverReadFunc
			if nilChecked[call] {
				f = recoverFunc
			}
			edits = append(edits, edit{pos(call.Pos()), pos(call.Pos()), f + "("}, edit{pos(call.End()), pos(call.End()), ")"})
		}
		return true
	})
	return edits
}

// declaresPrint reports whether a cell may declare print, println or
// recover: the
// name after func, var, const or type, or before := or a comma.
func declaresPrint(src string) bool {
	var sc scanner.Scanner
	fset := token.NewFileSet()
	sc.Init(fset.AddFile("", -1, len(src)), []byte(src), nil, 0)
	prev := token.ILLEGAL
	pending := false    // print or println just seen
	afterComma := false // seen after a comma: declared unless called
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			return false
		}
		if pending && (tok == token.DEFINE || tok == token.COMMA) {
			return true
		}
		if afterComma && tok != token.LPAREN {
			// a, recover := …; f(x, recover()) calls it.
			return true
		}
		pending, afterComma = false, false
		if tok == token.IDENT && (printFuncs[lit] != "" || lit == "recover") {
			switch prev {
			case token.FUNC, token.VAR, token.CONST, token.TYPE:
				return true
			case token.COMMA:
				afterComma = true
			}
			pending = true
		}
		prev = tok
	}
}

// FormatPrint formats args as Go's runtime does for print (newline false)
// and println: booleans, integers and strings as themselves, floats and
// complex numbers in strconv's shortest 'g' form, uintptrs in decimal (as
// the compiler calls printuint for them), pointers,
// channels, maps, functions and unsafe pointers as hexadecimal addresses,
// slices as [len/cap]address and a nil interface as (0x0,0x0). A non-nil
// interface argument reaches the session as its dynamic value, which is
// printed as such (Go prints the addresses of its type and data, which
// differ from run to run); values print cannot take at all (structs,
// arrays) only arrive through interfaces and print as (0x…,0x…).
func FormatPrint(newline bool, args ...any) []byte {
	var b []byte
	for i, a := range args {
		if newline && i > 0 {
			b = append(b, ' ')
		}
		b = appendPrint(b, a)
	}
	if newline {
		b = append(b, '\n')
	}
	return b
}

func appendHex(b []byte, v uint64) []byte {
	return strconv.AppendUint(append(b, "0x"...), v, 16)
}

func appendPrint(b []byte, a any) []byte {
	if a == nil {
		return append(b, "(0x0,0x0)"...)
	}
	v := reflect.ValueOf(a)
	if w := unwrapInterp(v); w.IsValid() {
		v = w
	}
	switch v.Kind() {
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(b, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.AppendUint(b, v.Uint(), 10)
	case reflect.Float32:
		return strconv.AppendFloat(b, v.Float(), 'g', -1, 32)
	case reflect.Float64:
		return strconv.AppendFloat(b, v.Float(), 'g', -1, 64)
	case reflect.Complex64:
		return append(b, strconv.FormatComplex(v.Complex(), 'g', -1, 64)...)
	case reflect.Complex128:
		return append(b, strconv.FormatComplex(v.Complex(), 'g', -1, 128)...)
	case reflect.String:
		return append(b, v.String()...)
	case reflect.Pointer, reflect.Chan, reflect.Map, reflect.Func, reflect.UnsafePointer:
		return appendHex(b, uint64(v.Pointer()))
	case reflect.Slice:
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(v.Len()), 10)
		b = append(b, '/')
		b = strconv.AppendInt(b, int64(v.Cap()), 10)
		b = append(b, ']')
		return appendHex(b, uint64(v.Pointer()))
	}
	var data uint64
	if v.CanAddr() {
		data = uint64(v.UnsafeAddr())
	}
	b = appendHex(append(b, '('), uint64(reflect.ValueOf(v.Type()).Pointer()))
	return append(appendHex(append(b, ','), data), ')')
}

// Printer writes FormatPrint's text to w (the cell's standard error).
func Printer(w io.Writer, newline bool) func(args ...any) {
	return func(args ...any) { w.Write(FormatPrint(newline, args...)) }
}

// RuntimeError is a runtime.Error with the text of a panic of the
// interpreter's own.
type RuntimeError struct{ Msg string }

func (e RuntimeError) Error() string { return e.Msg }

// RuntimeError marks e as a runtime.Error.
func (RuntimeError) RuntimeError() {}

// Recover returns v, a recovered value (the value inside, for the
// reflect.Value the interpreter's panic builtin panics with), or, for a panic of the
// interpreter's own — a string of reflect's that ExplainPanic words as
// Go's runtime error ("reflect: slice index out of range") or an error of
// the interpreter's (an interface conversion) — a RuntimeError.
func Recover(v any) any {
	if rv, ok := v.(reflect.Value); ok && rv.IsValid() && rv.CanInterface() {
		// The interpreter's panic builtin panics with the reflect.Value
		// of its argument: recover gave that, not the value.
		v = rv.Interface()
	}
	switch x := v.(type) {
	case string:
		// Only the reflect panics ExplainPanic knows as the interpreter's
		// (an index out of range): a cell's own use of reflect panics
		// with reflect's strings in Go too (Go's
		// test/fixedbugs/issue28748.go).
		if m := ExplainPanic(x); m != x {
			return RuntimeError{runtimeText(m)}
		}
	case *reflect.ValueError:
		// The interpreter's use of a zero Value: a nil pointer of the
		// cell's (p[0] for a nil *[10]int) where ExplainPanic says so.
		if m := ExplainPanic(x.Error()); m != x.Error() {
			return RuntimeError{runtimeText(m)}
		}
	case error:
		if reflect.TypeOf(x).String() == "*interp.cfgError" {
			return RuntimeError{runtimeText(ExplainPanic(interpPos.ReplaceAllString(x.Error(), "")))}
		}
	}
	return v
}

// interpPos matches the position the interpreter puts before its errors.
var interpPos = regexp.MustCompile(`^(?:_\.go:)?\d+:\d+: `)

func runtimeText(msg string) string {
	if strings.HasPrefix(msg, "runtime error: ") {
		return msg
	}
	return "runtime error: " + msg
}
