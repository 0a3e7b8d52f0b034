package session

import (
	"reflect"

	"github.com/traefik/yaegi/interp"
)

// stdlibFixes replaces standard library functions that fail on the
// interpreter's values.
func stdlibFixes() interp.Exports {
	return interp.Exports{
		"errors/errors": {"As": reflect.ValueOf(errorsAs)},
	}
}

// errorsAs is errors.As for cells. The interpreter hands an error of a
// type declared in a cell to compiled code as a wrapper struct whose first
// field, IValue, holds the value; errors.As checks the wrapper's type
// against the target and panics ("*target must be interface or implement
// error") because the target's reflect type has no methods. errorsAs also
// tries the wrapped value, and checks target as errors.As does otherwise.
func errorsAs(err error, target any) bool {
	if target == nil {
		panic("errors: target cannot be nil")
	}
	val := reflect.ValueOf(target)
	if val.Kind() != reflect.Pointer || val.IsNil() {
		panic("errors: target must be a non-nil pointer")
	}
	want := val.Type().Elem()
	for err != nil {
		v := reflect.ValueOf(err)
		candidates := []reflect.Value{v}
		if w := unwrapInterp(v); w.IsValid() {
			candidates = append(candidates, w)
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
				if e != nil && errorsAs(e, target) {
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
