package yaegifix

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"

	"github.com/traefik/yaegi/interp"
)

// Stdlib returns the symbols that replace standard library functions that
// fail on the interpreter's values; Use them after stdlib.Symbols.
// It also adds the non-generic iterator functions of Go 1.23 and 1.24 to
// strings and bytes, which yaegi's standard library (Go 1.22) lacks; a
// cell calls them with the loop body as a function, since the interpreter
// cannot range over a function: strings.SplitSeq(s, ",")(func(part string)
// bool { …; return true }).
func Stdlib() interp.Exports {
	return interp.Exports{
		"errors/errors": {"As": reflect.ValueOf(errorsAs)},
		// A breakpoint trap ends the process when no debugger is attached,
		// and the kernel with it: a cell's is a panic.
		"runtime/runtime": {"Breakpoint": reflect.ValueOf(Breakpoint)},
		"github.com/portlab/portlab/kernel/session/internal/yaegifix/yaegifix": {
			"CellError":           reflect.ValueOf((*CellError)(nil)),
			"_CellError":          reflect.ValueOf((*_CellError)(nil)),
			"CellErrorUnwrapIs":   reflect.ValueOf((*CellErrorUnwrapIs)(nil)),
			"_CellErrorUnwrapIs":  reflect.ValueOf((*_CellErrorUnwrapIs)(nil)),
			"CellErrorUnwrap":     reflect.ValueOf((*CellErrorUnwrap)(nil)),
			"_CellErrorUnwrap":    reflect.ValueOf((*_CellErrorUnwrap)(nil)),
			"CellErrorUnwrapAll":  reflect.ValueOf((*CellErrorUnwrapAll)(nil)),
			"_CellErrorUnwrapAll": reflect.ValueOf((*_CellErrorUnwrapAll)(nil)),
			"CellErrorIs":         reflect.ValueOf((*CellErrorIs)(nil)),
			"_CellErrorIs":        reflect.ValueOf((*_CellErrorIs)(nil)),
		},
		"strings/strings": {
			"Lines":         reflect.ValueOf(strings.Lines),
			"SplitSeq":      reflect.ValueOf(strings.SplitSeq),
			"SplitAfterSeq": reflect.ValueOf(strings.SplitAfterSeq),
			"FieldsSeq":     reflect.ValueOf(strings.FieldsSeq),
			"FieldsFuncSeq": reflect.ValueOf(strings.FieldsFuncSeq),
		},
		"bytes/bytes": {
			"Lines":         reflect.ValueOf(bytes.Lines),
			"SplitSeq":      reflect.ValueOf(bytes.SplitSeq),
			"SplitAfterSeq": reflect.ValueOf(bytes.SplitAfterSeq),
			"FieldsSeq":     reflect.ValueOf(bytes.FieldsSeq),
			"FieldsFuncSeq": reflect.ValueOf(bytes.FieldsFuncSeq),
		},
	}
}

// Breakpoint is runtime.Breakpoint for cells: a panic, since the trap
// would end the kernel's process.
func Breakpoint() {
	panic("runtime.Breakpoint: no debugger is attached to the kernel (the trap would end it)")
}

// errorsAs is errors.As for cells. The interpreter hands an error of a
// type declared in a cell to compiled code as a wrapper struct whose first
// field, IValue, holds the value; errors.As checks the wrapper's type
// against the target and panics ("*target must be interface or implement
// error") because the target's reflect type has no methods. errorsAs also
// tries the wrapped value, and checks target as errors.As does otherwise.
// A wrapper of a value of a cell's struct type holds the value's last
// field instead (the interpreter's getConcreteValue), so that such a
// value is never found: for a target of a cell's struct type, errorsAs
// stops the cell when a wrapper was in the chain and nothing matched.
func errorsAs(err error, target any) bool {
	if target == nil {
		panic("errors: target cannot be nil")
	}
	val := reflect.ValueOf(target)
	if val.Kind() != reflect.Pointer || val.IsNil() {
		panic("errors: target must be a non-nil pointer")
	}
	want := val.Type().Elem()
	wrapped := false // the chain has a wrapper that may hold a value of want
	if errorsAsChain(err, target, val, want, &wrapped) {
		return true
	}
	if wrapped {
		// The wrapper of a value of a cell's struct type holds its last
		// field, not the value (the interpreter's getConcreteValue), so
		// that the value is not found where Go finds it.
		panic(Refused + "errors.As into a variable of a struct type of the cell (" + want.String() + ") with an error of a type of the cell in the chain: " +
			"the interpreter hands errors a stand-in for a struct value that holds its last field, not the value, so that As would report false where Go " +
			"may find it; declare the Error method on a pointer receiver, return &T{…} and pass a *T variable's address to errors.As")
	}
	return false
}

// mayHoldStruct reports whether w, the IValue of the interpreter's
// wrapper of a cell value, may stand for a value of want, a struct type of
// the cell: the wrapper of a struct value holds its last field (or, where
// that is a nil interface, an earlier one).
func mayHoldStruct(w reflect.Value, want reflect.Type) bool {
	if want.Kind() != reflect.Struct || want.Name() != "" || want.NumField() == 0 {
		return false
	}
	last := want.Field(want.NumField() - 1).Type
	return last.Kind() == reflect.Interface || w.Type() == last
}

func errorsAsChain(err error, target any, val reflect.Value, want reflect.Type, wrapped *bool) bool {
	for err != nil {
		v := reflect.ValueOf(err)
		candidates := []reflect.Value{v}
		if w := unwrapInterp(v); w.IsValid() {
			candidates = append(candidates, w)
			*wrapped = *wrapped || mayHoldStruct(w, want)
		}
		for _, c := range candidates {
			if c.Type().AssignableTo(want) {
				val.Elem().Set(c)
				return true
			}
		}
		if x, ok := err.(interface{ As(any) bool }); ok && x.As(target) {
			return true
		}
		switch x := err.(type) {
		case interface{ Unwrap() error }:
			err = x.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range x.Unwrap() {
				if e != nil && errorsAsChain(e, target, val, want, wrapped) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// unwrapInterp returns the interpreted value inside one of the
// interpreter's interface wrappers (a struct whose first field is IValue),
// or the zero Value.
func unwrapInterp(v reflect.Value) reflect.Value {
	for v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Struct {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct || v.NumField() == 0 || v.Type().Field(0).Name != "IValue" {
		return reflect.Value{}
	}
	w := v.Field(0)
	if w.Kind() == reflect.Interface {
		w = w.Elem()
	}
	return w
}

// UseFmtFixes replaces fmt's formatting functions in the interpreter it
// by ones that name the types declared in cells in %#v (see
// cellTypeNames); Printf writes to stdout, the interpreter's standard
// output. The interpreter's Use cannot do it: a second set of symbols for
// fmt makes it load its standard library again. So this reaches the
// interpreter's table of compiled packages by reflection, like
// ForgetCompiled, and does nothing if a yaegi version lacks it.
func UseFmtFixes(it *interp.Interpreter, stdout io.Writer) {
	fixes := map[string]reflect.Value{
		"Sprintf": reflect.ValueOf(func(format string, a ...any) string {
			checkTypeVerbs(it, format, a)
			checkPlainVerbs(format, a)
			checkFmtArgs(it, a, printVerbs(format))
			return cellTypeNames(it, format, fmt.Sprintf(format, a...))
		}),
		"Printf": reflect.ValueOf(func(format string, a ...any) (int, error) {
			checkTypeVerbs(it, format, a)
			checkPlainVerbs(format, a)
			checkFmtArgs(it, a, printVerbs(format))
			return io.WriteString(stdout, cellTypeNames(it, format, fmt.Sprintf(format, a...)))
		}),
		"Fprintf": reflect.ValueOf(func(w io.Writer, format string, a ...any) (int, error) {
			checkTypeVerbs(it, format, a)
			checkPlainVerbs(format, a)
			checkFmtArgs(it, a, printVerbs(format))
			return io.WriteString(w, cellTypeNames(it, format, fmt.Sprintf(format, a...)))
		}),
		// Errorf keeps fmt's error (with what %w wraps); it only stops
		// the cell for a %T or another verb that would print the
		// interpreter's type or stand-in.
		"Errorf": reflect.ValueOf(func(format string, a ...any) error {
			checkTypeVerbs(it, format, a)
			checkPlainVerbs(format, a)
			checkFmtArgs(it, a, printVerbs(format))
			return fmt.Errorf(format, a...)
		}),
	}
	pkgs := reflect.ValueOf(it).Elem().FieldByName("binPkg")
	if !pkgs.IsValid() || pkgs.Kind() != reflect.Map {
		return
	}
	syms := writable(pkgs).MapIndex(reflect.ValueOf("fmt"))
	if !syms.IsValid() || syms.Type() != reflect.TypeOf(map[string]reflect.Value{}) {
		return
	}
	// The interpreter wraps a cell value for a compiled function only
	// where its table of wrappers (MapTypes) says so: without fmt's entry,
	// the replacements see cell values without their String, Error and
	// Format methods (%v of a cell Stringer printed its fields).
	// yaegi's table has no entry for error (its wrapper is looked up by
	// package path, which error lacks), so an error of a cell type printed
	// as its fields: FmtWrappers adds CellError.
	wrappers := map[reflect.Value][]reflect.Type{}
	for name, f := range fixes {
		syms.SetMapIndex(reflect.ValueOf(name), reflect.ValueOf(f))
	}
	// Print, Println and the others keep the functions the interpreter
	// has (which write to its standard output), after checkFmtArgs.
	for _, name := range []string{"Fprint", "Fprintln", "Print", "Println", "Sprint", "Sprintln"} {
		f, ok := syms.MapIndex(reflect.ValueOf(name)).Interface().(reflect.Value)
		if !ok || f.Kind() != reflect.Func || !f.Type().IsVariadic() {
			continue
		}
		checked := reflect.MakeFunc(f.Type(), func(in []reflect.Value) []reflect.Value {
			a, _ := in[len(in)-1].Interface().([]any)
			checkFmtArgs(it, a, func(int) bool { return true })
			return f.CallSlice(in)
		})
		syms.SetMapIndex(reflect.ValueOf(name), reflect.ValueOf(checked))
	}
	for _, name := range []string{"Errorf", "Fprint", "Fprintf", "Fprintln", "Print", "Printf", "Println", "Sprint", "Sprintf", "Sprintln"} {
		if f := syms.MapIndex(reflect.ValueOf(name)); f.IsValid() {
			wrappers[f.Interface().(reflect.Value)] = FmtWrappers
		}
	}
	_ = it.Use(interp.Exports{".": {"MapTypes": reflect.ValueOf(wrappers)}})
}

// CellError is error under a name and package path, for which the
// interpreter finds the wrapper _CellError (Stdlib exports both): it wraps
// a cell value for a compiled function only for interfaces of packages.
type CellError interface{ Error() string }

// _CellError is the interpreter's wrapper of a cell value as a CellError.
type _CellError struct {
	IValue any
	WError func() string
}

func (w _CellError) Error() string {
	if w.WError == nil {
		return ""
	}
	return w.WError()
}

// FmtWrappers are the interfaces of cell values that the interpreter must
// keep when it hands them to fmt's functions, in fmt's order of
// preference: Formatter, error (with the methods errors follows first),
// Stringer.
var FmtWrappers = []reflect.Type{
	reflect.TypeOf((*fmt.Formatter)(nil)).Elem(),
	reflect.TypeOf((*CellErrorUnwrapIs)(nil)).Elem(),
	reflect.TypeOf((*CellErrorUnwrap)(nil)).Elem(),
	reflect.TypeOf((*CellErrorUnwrapAll)(nil)).Elem(),
	reflect.TypeOf((*CellErrorIs)(nil)).Elem(),
	reflect.TypeOf((*CellError)(nil)).Elem(),
	reflect.TypeOf((*fmt.Stringer)(nil)).Elem(),
}

// cellTypeNames puts the names of the exported struct types declared in
// the interpreter it in out, text formatted by format, when format has a
// %#v verb: the interpreter builds a cell's struct type as an unnamed one,
// which %#v prints as struct { X int; Y int }{X:1, Y:2} instead of
// P{X:1, Y:2}.
func cellTypeNames(it *interp.Interpreter, format, out string) string {
	if !strings.Contains(format, "#v") || !strings.Contains(out, "struct {") {
		return out
	}
	type named struct{ literal, name string }
	var types []named
	for _, syms := range it.Symbols("main") {
		for name, v := range syms {
			if !v.IsValid() || v.Kind() != reflect.Pointer {
				continue
			}
			t := v.Type().Elem()
			if t.Kind() == reflect.Struct && t.Name() == "" {
				types = append(types, named{t.String(), name})
			}
		}
	}
	// Longer literals first: a type may contain another.
	sort.Slice(types, func(i, j int) bool { return len(types[i].literal) > len(types[j].literal) })
	for _, t := range types {
		out = strings.ReplaceAll(out, t.literal+"{", t.name+"{")
	}
	return out
}

// UseReflectFixes replaces reflect.TypeOf and reflect.ValueOf in the
// interpreter's table (by reflection, as UseFmtFixes does) by ones that
// stop the cell for a value of a struct type of the cell with unexported
// fields: the interpreter builds such a type as an unnamed struct whose
// unexported fields are renamed X… (field f is Xf, all exported, no
// package path), so that the names, PkgPath and embedding reflect reports
// differ from Go's, silently (Go's fixedbugs/gcc65755.go read "Xf").
func UseReflectFixes(it *interp.Interpreter) {
	pkgs := reflect.ValueOf(it).Elem().FieldByName("binPkg")
	if !pkgs.IsValid() || pkgs.Kind() != reflect.Map {
		return
	}
	syms := writable(pkgs).MapIndex(reflect.ValueOf("reflect"))
	if !syms.IsValid() || syms.Type() != reflect.TypeOf(map[string]reflect.Value{}) {
		return
	}
	syms.SetMapIndex(reflect.ValueOf("TypeOf"), reflect.ValueOf(reflect.ValueOf(func(i any) reflect.Type {
		t := reflect.TypeOf(i)
		checkCellStruct(t, 0)
		return t
	})))
	syms.SetMapIndex(reflect.ValueOf("ValueOf"), reflect.ValueOf(reflect.ValueOf(func(i any) reflect.Value {
		checkCellStruct(reflect.TypeOf(i), 0)
		return reflect.ValueOf(i)
	})))
}

// checkCellStruct panics when t is, or holds (as element, key or field),
// a struct type as the interpreter builds a cell's struct with an
// unexported field (an unnamed struct with a field X followed by a lower
// case letter).
func checkCellStruct(t reflect.Type, depth int) {
	if s := unexportedCellStruct(t, depth); s != "" {
		panic(Refused + "reflect on a value of a struct type of the cell with unexported fields (" + s + "): the interpreter builds it " +
			"as an unnamed struct whose unexported fields are renamed X… and exported, so that field names, PkgPath, embedding and the type's name " +
			"differ from Go's; use exported fields, or keep reflect to compiled types")
	}
}

// unexportedCellStruct returns the struct type of the cell with
// unexported fields that t is or holds, as the interpreter writes it, or
// "" if there is none.
func unexportedCellStruct(t reflect.Type, depth int) string {
	if t == nil || depth > 4 {
		return ""
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
		return unexportedCellStruct(t.Elem(), depth+1)
	case reflect.Map:
		if s := unexportedCellStruct(t.Key(), depth+1); s != "" {
			return s
		}
		return unexportedCellStruct(t.Elem(), depth+1)
	case reflect.Struct:
		if t.Name() != "" {
			return ""
		}
		for i := range t.NumField() {
			f := t.Field(i)
			if len(f.Name) > 1 && f.Name[0] == 'X' && f.Name[1] >= 'a' && f.Name[1] <= 'z' || f.Name == "X_" {
				return t.String()
			}
			if s := unexportedCellStruct(f.Type, depth+1); s != "" {
				return s
			}
		}
	}
	return ""
}
