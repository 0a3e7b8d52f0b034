package yaegifix

import (
	"errors"
	"reflect"

	"github.com/traefik/yaegi/interp"
)

// The interpreter hands a cell's error to compiled code as a wrapper with
// its Error method only (interp._error, or _CellError for fmt), so that
// errors.Is, errors.As and errors.Unwrap did not see the error's Unwrap
// and Is methods: errors.Is(wrapErr{io.EOF}, io.EOF) was false where Go
// follows Unwrap. The wrappers below carry them too; UseErrorsFixes lists
// them for error (whose wrappers the interpreter picks by method names,
// the most complete first) and UseFmtFixes for fmt (FmtWrappers, picked by
// the interfaces CellErrorUnwrapIs and the others).

// CellErrorUnwrapIs, CellErrorUnwrap, CellErrorUnwrapAll and CellErrorIs
// are error with the methods errors follows, under names for which the
// interpreter finds the wrappers of the same names with an underscore
// (Stdlib exports them).
type (
	CellErrorUnwrapIs interface {
		Error() string
		Unwrap() error
		Is(error) bool
	}
	CellErrorUnwrap interface {
		Error() string
		Unwrap() error
	}
	CellErrorUnwrapAll interface {
		Error() string
		Unwrap() []error
	}
	CellErrorIs interface {
		Error() string
		Is(error) bool
	}
)

// _CellErrorUnwrapIs is the interpreter's wrapper of a cell error with
// Unwrap and Is methods. WUnwrap and WIs hold the methods as the
// interpreter makes them, of whatever signature (it matches a wrapper's
// methods by name): Unwrap() error or Unwrap() []error (as errors.Join's
// error), Is(error) bool.
type _CellErrorUnwrapIs struct {
	IValue  any
	WError  func() string
	WUnwrap any
	WIs     any
}

func (w _CellErrorUnwrapIs) Error() string { return callError(w.WError) }
func (w _CellErrorUnwrapIs) Unwrap() error { return callUnwrap(w.WUnwrap) }
func (w _CellErrorUnwrapIs) Is(t error) bool {
	return callIs(w.WIs, t)
}

// _CellErrorUnwrap is the interpreter's wrapper of a cell error with an
// Unwrap method (see _CellErrorUnwrapIs).
type _CellErrorUnwrap struct {
	IValue  any
	WError  func() string
	WUnwrap any
}

func (w _CellErrorUnwrap) Error() string { return callError(w.WError) }
func (w _CellErrorUnwrap) Unwrap() error { return callUnwrap(w.WUnwrap) }

// _CellErrorUnwrapAll is the wrapper for fmt of a cell error with an
// Unwrap() []error method.
type _CellErrorUnwrapAll struct {
	IValue  any
	WError  func() string
	WUnwrap func() []error
}

func (w _CellErrorUnwrapAll) Error() string { return callError(w.WError) }
func (w _CellErrorUnwrapAll) Unwrap() []error {
	if w.WUnwrap == nil {
		return nil
	}
	return w.WUnwrap()
}

// _CellErrorIs is the interpreter's wrapper of a cell error with an Is
// method (see _CellErrorUnwrapIs).
type _CellErrorIs struct {
	IValue any
	WError func() string
	WIs    any
}

func (w _CellErrorIs) Error() string   { return callError(w.WError) }
func (w _CellErrorIs) Is(t error) bool { return callIs(w.WIs, t) }

func callError(f func() string) string {
	if f == nil {
		return ""
	}
	return f()
}

func callUnwrap(f any) error {
	switch f := f.(type) {
	case func() error:
		return f()
	case func() []error:
		return errors.Join(f()...)
	}
	return nil
}

func callIs(f any, t error) bool {
	if f, ok := f.(func(error) bool); ok {
		return f(t)
	}
	return false
}

// errorWrappers are the wrappers UseErrorsFixes lists for error, the most
// complete first.
var errorWrappers = []reflect.Type{
	reflect.TypeOf(_CellErrorUnwrapIs{}),
	reflect.TypeOf(_CellErrorUnwrap{}),
	reflect.TypeOf(_CellErrorIs{}),
}

// useErrorWrappers lists errorWrappers for the interpreter's wrapper of
// error (interp._error, in its table of compiled symbols under the empty
// package path), read by reflection as UseFmtFixes does.
func useErrorWrappers(it *interp.Interpreter) {
	pkgs := reflect.ValueOf(it).Elem().FieldByName("binPkg")
	if !pkgs.IsValid() || pkgs.Kind() != reflect.Map {
		return
	}
	syms := writable(pkgs).MapIndex(reflect.ValueOf(""))
	if !syms.IsValid() || syms.Type() != reflect.TypeOf(map[string]reflect.Value{}) {
		return
	}
	w := syms.MapIndex(reflect.ValueOf("_error"))
	if !w.IsValid() {
		return
	}
	key, ok := w.Interface().(reflect.Value)
	if !ok {
		return
	}
	_ = it.Use(interp.Exports{".": {"MapTypes": reflect.ValueOf(map[reflect.Value][]reflect.Type{key: errorWrappers})}})
}
