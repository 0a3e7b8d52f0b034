package yaegifix

import (
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"github.com/traefik/yaegi/interp"
)

// typeVerb matches fmt's %T verb with its flags.
var typeVerb = regexp.MustCompile(`%[-+# 0]*[0-9]*T`)

// checkTypeVerbs stops the cell (panics) when format has a %T verb and an
// argument may be a value of a type declared in the cells: yaegi v0.16.1
// represents such a type by the type it is declared from, a struct type
// by an unnamed struct and a value with methods by its own wrapper, so
// that %T printed int for type foo int and struct {} for main.F[main.foo]
// (Go's typeparam/issue49547.go). The arguments that stop it are the
// interpreter's wrappers, unnamed struct types (also behind pointers,
// slices, arrays, maps and channels) and the types the cells' declared
// types are represented by.
func checkTypeVerbs(it *interp.Interpreter, format string, args []any) {
	if !typeVerb.MatchString(format) {
		return
	}
	var reps map[reflect.Type]string
	for _, i := range typeVerbArgs(format) {
		if i >= len(args) {
			continue
		}
		t := reflect.TypeOf(args[i])
		if t == nil {
			continue
		}
		if t.Kind() == reflect.Struct && t.NumField() > 0 && t.Field(0).Name == "IValue" || t.String() == "interp.valueInterface" {
			refuseTypeVerb(t.String())
		}
		e := t
		for e.Kind() == reflect.Pointer || e.Kind() == reflect.Slice || e.Kind() == reflect.Array || e.Kind() == reflect.Chan || e.Kind() == reflect.Map {
			e = e.Elem()
		}
		if e.Kind() == reflect.Struct && e.Name() == "" {
			refuseTypeVerb(t.String())
		}
		if reps == nil {
			reps = cellTypeReps(it)
		}
		if name, ok := reps[t]; ok {
			refuseTypeVerb(t.String() + ", as " + name + " is")
		}
	}
}

// refuseTypeVerb panics with the message of checkTypeVerbs.
func refuseTypeVerb(rep string) {
	panic(Refused + "%T of a value that may be of a type declared in a cell (represented by " + rep + "): the interpreter represents a declared type " +
		"by the type it is declared from, so that %T would print that instead of Go's name; print the name of the type yourself")
}

// yaegiTypeSym is the kind of a type's symbol in yaegi v0.16.1 (its
// typeSym).
const yaegiTypeSym = 7

// cellTypeReps returns the types by which the interpreter represents the
// types declared in the cells' package scope, with their names, read by
// reflection from its scope (its Symbols lists exported names only and
// panics on generic types); empty where the fields are not found.
func cellTypeReps(it *interp.Interpreter) (reps map[reflect.Type]string) {
	reps = map[reflect.Type]string{}
	for t, names := range cellTypeRepNames(it) {
		reps[t] = names[0]
	}
	return reps
}

// cellTypeRepNames returns the names of the types the cells declared by the
// reflect type that represents them, sorted: two struct types declared
// alike share one.
func cellTypeRepNames(it *interp.Interpreter) (reps map[reflect.Type][]string) {
	reps = map[reflect.Type][]string{}
	defer func() {
		if recover() != nil {
			reps = map[reflect.Type][]string{}
		}
	}()
	scopes := reflect.ValueOf(it).Elem().FieldByName("scopes")
	if !scopes.IsValid() || scopes.Kind() != reflect.Map {
		return reps
	}
	sc := scopes.MapIndex(reflect.ValueOf("main"))
	if !sc.IsValid() || sc.IsNil() {
		return reps
	}
	syms := sc.Elem().FieldByName("sym")
	iter := syms.MapRange()
	for iter.Next() {
		sym := iter.Value()
		if sym.IsNil() || sym.Elem().FieldByName("kind").Uint() != yaegiTypeSym {
			continue
		}
		typ := sym.Elem().FieldByName("typ")
		if typ.IsNil() {
			continue
		}
		rt := typ.Elem().FieldByName("rtype")
		if !rt.IsValid() || rt.IsNil() {
			continue
		}
		f := reflect.NewAt(typ.Type().Elem(), unsafe.Pointer(typ.Pointer())).Elem().FieldByName("rtype")
		t := *(*reflect.Type)(unsafe.Pointer(f.UnsafeAddr()))
		if t != nil {
			reps[t] = append(reps[t], iter.Key().String())
		}
	}
	for t, names := range reps {
		// An instantiation is there as O[int] and main.O[int]; the
		// kernel's own types start with _portlab.
		seen := map[string]bool{}
		var kept []string
		for _, n := range names {
			n = strings.TrimPrefix(n, "main.")
			if !seen[n] && !strings.HasPrefix(n, "_portlab") {
				seen[n] = true
				kept = append(kept, n)
			}
		}
		if len(kept) == 0 {
			kept = names[:1]
		}
		sort.Strings(kept)
		reps[t] = kept
	}
	return reps
}

// typeVerbArgs returns the indexes of the arguments that format prints
// with %T.
func typeVerbArgs(format string) []int {
	var out []int
	arg := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
	verb:
		for ; i < len(format); i++ {
			c := format[i]
			switch {
			case c == '*':
				arg++
			case c == '[':
				j := strings.IndexByte(format[i:], ']')
				if j < 0 {
					return out
				}
				if n, err := strconv.Atoi(format[i+1 : i+j]); err == nil {
					arg = n - 1
				}
				i += j
			case strings.IndexByte("+-# 0.123456789", c) >= 0:
			default:
				if c == 'T' {
					out = append(out, arg)
				}
				if c != '%' {
					arg++
				}
				break verb
			}
		}
	}
	return out
}
