package yaegifix

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/traefik/yaegi/interp"
)

// More type categories of yaegi v0.16.1 (its tcat constants; see
// yaegiPtrT), for the element types fmtTypes follows.
const (
	yaegiArrayT = 1
	yaegiMapT   = 25
	yaegiSliceT = 27
)

// fmtMethodNames are the methods by which fmt prints a value.
var fmtMethodNames = []string{"Format", "Error", "String"}

// fmtTypes describes the types declared in the cells' package scope that
// fmt prints by a method (Format, Error or String), as the interpreter
// represents them: compiled code sees a value of such a type as a value
// of its representation (int for type W int, an unnamed struct for a
// struct type), without the methods, wherever the interpreter does not
// wrap it, as inside a slice, a map, an array or a struct.
type fmtTypes struct {
	// printed maps the representations whose values fmt would print by a
	// method in Go to the name of the type: T's for a method with a value
	// receiver, *T's for any.
	printed map[reflect.Type]string
	// pointerOnly holds the types whose only such methods have pointer
	// receivers, which Go does not call for a value.
	pointerOnly []repType
	// valueMethods holds the types with such a method of value receiver.
	valueMethods []repType
	// withMethods holds all the types with methods, whose values the
	// interpreter may wrap.
	withMethods []repType
	// named maps the representation of a type to its type in the
	// interpreter (an *itype), for the fields of struct types.
	named map[reflect.Type]reflect.Value
}

// repType is a type of the cells with its representation and the methods
// of fmtMethodNames it has (with either receiver).
type repType struct {
	name string
	rep  reflect.Type
	has  map[string]bool
}

// fmtMethod returns the method by which the interpreter's wrapper of a
// value of t for fmt (FmtWrappers, in that order) calls it: Format, else
// Error, else String.
func (t repType) fmtMethod() string {
	for _, m := range fmtMethodNames {
		if t.has[m] {
			return m
		}
	}
	return ""
}

// standsFor reports whether the interpreter's wrapper w (see
// unwrapInterp), whose IValue is inside, may stand for a value of t: t
// has the wrapper's methods (exactly the one a wrapper for fmt calls) and
// inside is a value of t's representation, a pointer to one, or the last
// field of one (see mayHoldStruct).
func (t repType) standsFor(w, inside reflect.Value) bool {
	wt := w.Type()
	for wt.Kind() == reflect.Pointer {
		wt = wt.Elem()
	}
	for i := 1; i < wt.NumField(); i++ {
		m := strings.TrimPrefix(wt.Field(i).Name, "W")
		if slices.Contains(fmtMethodNames, m) && (!t.has[m] || isFmtWrapper(wt) && t.fmtMethod() != m) {
			return false
		}
	}
	return t.rep == inside.Type() || reflect.PointerTo(t.rep) == inside.Type() || mayHoldStruct(inside, t.rep)
}

// exact reports whether inside, found to stand for a value of t, is the
// value itself: of t's representation (not a struct), a pointer to it, or
// the only field of a struct.
func (t repType) exact(inside reflect.Value) bool {
	switch it := inside.Type(); {
	case reflect.PointerTo(t.rep) == it:
		return true
	case t.rep.Kind() == reflect.Struct:
		return t.rep.NumField() == 1 && t.rep.Field(0).Type == it
	}
	return t.rep == inside.Type()
}

// isFmtWrapper reports whether wt is the type of one of the interpreter's
// wrappers for FmtWrappers, which it picks in their order.
func isFmtWrapper(wt reflect.Type) bool {
	return strings.HasPrefix(wt.String(), "yaegifix._CellError") || strings.HasPrefix(wt.String(), "stdlib._fmt_")
}

// candidates returns the types of the cells with methods that w, the
// interpreter's wrapper of a value, may stand for, and whether there is
// one, whose value w holds itself (exact).
func (ft *fmtTypes) candidates(w reflect.Value) (names []string, exact bool) {
	inside := unwrapInterp(w)
	if !inside.IsValid() {
		return nil, false
	}
	var found []repType
	for _, t := range ft.withMethods {
		if t.standsFor(w, inside) {
			found = append(found, t)
			names = append(names, t.name)
		}
	}
	return names, len(found) == 1 && found[0].exact(inside)
}

// lastFmtTypes keeps the fmtTypes last read, with the interpreter and the
// fingerprint of its types they were read for (see readFmtTypes): fmt's
// functions read them at every call with such an argument.
var lastFmtTypes struct {
	sync.Mutex
	it *interp.Interpreter
	fp uint64
	ft *fmtTypes
}

// readFmtTypes reads the types of the interpreter's package scope (see
// cellTypeReps); empty where the fields are not found. It reads them again
// when a type or its number of methods changed.
func readFmtTypes(it *interp.Interpreter) (ft *fmtTypes) {
	ft = &fmtTypes{printed: map[reflect.Type]string{}, named: map[reflect.Type]reflect.Value{}}
	defer func() {
		if recover() != nil {
			ft = &fmtTypes{printed: map[reflect.Type]string{}, named: map[reflect.Type]reflect.Value{}}
		}
	}()
	scopes := reflect.ValueOf(it).Elem().FieldByName("scopes")
	if !scopes.IsValid() || scopes.Kind() != reflect.Map {
		return ft
	}
	sc := scopes.MapIndex(reflect.ValueOf("main"))
	if !sc.IsValid() || sc.IsNil() {
		return ft
	}
	var fp uint64
	for iter := sc.Elem().FieldByName("sym").MapRange(); iter.Next(); {
		sym := iter.Value()
		if sym.IsNil() || sym.Elem().FieldByName("kind").Uint() != yaegiTypeSym {
			continue
		}
		typ := sym.Elem().FieldByName("typ")
		if typ.IsNil() {
			continue
		}
		h := uint64(typ.Pointer())*31 + uint64(typ.Elem().FieldByName("method").Len())*7
		if !typ.Elem().FieldByName("rtype").IsNil() {
			h++
		}
		fp += h * 1000003
	}
	lastFmtTypes.Lock()
	defer lastFmtTypes.Unlock()
	if lastFmtTypes.it == it && lastFmtTypes.fp == fp && lastFmtTypes.ft != nil {
		return lastFmtTypes.ft
	}
	defer func() { lastFmtTypes.it, lastFmtTypes.fp, lastFmtTypes.ft = it, fp, ft }()
	iter := sc.Elem().FieldByName("sym").MapRange()
	for iter.Next() {
		sym := iter.Value()
		if sym.IsNil() || sym.Elem().FieldByName("kind").Uint() != yaegiTypeSym {
			continue
		}
		typ := sym.Elem().FieldByName("typ")
		if typ.IsNil() || typ.Elem().FieldByName("rtype").IsNil() {
			continue
		}
		f := reflect.NewAt(typ.Type().Elem(), unsafe.Pointer(typ.Pointer())).Elem().FieldByName("rtype")
		rep := *(*reflect.Type)(unsafe.Pointer(f.UnsafeAddr()))
		if rep == nil {
			continue
		}
		name := iter.Key().String()
		ft.named[rep] = typ
		t := repType{name, rep, map[string]bool{}}
		value, pointer := false, false
		for _, m := range fmtMethodNames {
			switch itypeMethod(typ, m, 0) {
			case valueMethod:
				value = true
				t.has[m] = true
			case pointerMethod:
				pointer = true
				t.has[m] = true
			}
		}
		if typ.Elem().FieldByName("method").Len() > 0 {
			ft.withMethods = append(ft.withMethods, t)
		}
		if value {
			ft.printed[rep] = name
			ft.valueMethods = append(ft.valueMethods, t)
		}
		if value || pointer {
			ft.printed[reflect.PointerTo(rep)] = "*" + name
		}
		if pointer && !value {
			ft.pointerOnly = append(ft.pointerOnly, t)
		}
	}
	return ft
}

// nested returns the name of a type of the cells that fmt would print by
// a method in Go and that t, the type of an argument, holds where the
// interpreter hands fmt its representation: as the element of a slice,
// array, map or pointer, or a field of a struct (t itself when it is a
// struct or a pointer to one: only an unwrapped value arrives as such).
// The representation of a type declared from int is int: a []int may be
// a []W, which the check cannot tell apart. The fields of a struct type of
// the cells are read from the interpreter's type.
func (ft *fmtTypes) nested(t reflect.Type) string {
	if t.Kind() == reflect.Struct || t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct {
		if name, ok := ft.printed[t]; ok {
			return name
		}
	}
	return ft.inside(t, 0)
}

// inside returns the name of a type that fmt prints by a method among the
// elements, keys or fields of t (see nested).
func (ft *fmtTypes) inside(t reflect.Type, depth int) string {
	if depth > 6 {
		return ""
	}
	var elems []reflect.Type
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		elems = []reflect.Type{t.Elem()}
	case reflect.Pointer:
		if depth > 0 {
			return "" // fmt prints a pointer inside a value as an address
		}
		elems = []reflect.Type{t.Elem()}
	case reflect.Map:
		elems = []reflect.Type{t.Key(), t.Elem()}
	case reflect.Struct:
		if it, ok := ft.named[t]; ok {
			return itypeInside(it, 0)
		}
		for i := range t.NumField() {
			elems = append(elems, t.Field(i).Type)
		}
	}
	for _, e := range elems {
		if name, ok := ft.printed[e]; ok && (t.Kind() != reflect.Pointer || e.Kind() == reflect.Struct) {
			return name
		}
		if name := ft.inside(e, depth+1); name != "" {
			return name
		}
	}
	return ""
}

// itypeInside is inside for a type of the interpreter t (an *itype) of a
// struct declared in the cells: it reads the types of its fields.
func itypeInside(t reflect.Value, depth int) string {
	if depth > 6 || !t.IsValid() || t.Kind() != reflect.Pointer || t.IsNil() {
		return ""
	}
	e := t.Elem()
	var elems []reflect.Value
	switch e.FieldByName("cat").Uint() {
	case yaegiSliceT, yaegiArrayT:
		elems = append(elems, e.FieldByName("val"))
	case yaegiMapT:
		elems = append(elems, e.FieldByName("key"), e.FieldByName("val"))
	case yaegiStructT:
		fields := e.FieldByName("field")
		for i := range fields.Len() {
			elems = append(elems, fields.Index(i).FieldByName("typ"))
		}
	}
	for _, f := range elems {
		if !f.IsValid() || f.IsNil() {
			continue
		}
		for _, m := range fmtMethodNames {
			if itypeMethod(f, m, 0) == valueMethod {
				return f.Elem().FieldByName("str").String()
			}
		}
		if f.Elem().FieldByName("cat").Uint() == yaegiPtrT {
			continue // printed as an address
		}
		if name := itypeInside(f, depth+1); name != "" {
			return name
		}
	}
	return ""
}

// pointerMethodOnValue returns the names of the types of the cells whose
// value may be inside w, the IValue of the interpreter's wrapper of a
// value that fmt calls a method of, and whose methods fmt calls have
// pointer receivers only: the interpreter counts them in the method set of
// the value, Go does not (fmt.Println(v) prints v's fields when String is
// declared on *V). The wrapper of a pointer holds the pointer. others
// names the types with such a method of value receiver whose values the
// wrapper may also stand for (it holds a struct's last field, see
// errorsAs).
func (ft *fmtTypes) pointerMethodOnValue(w reflect.Value) (names, others []string) {
	inside := unwrapInterp(w)
	if !inside.IsValid() || inside.Kind() == reflect.Pointer {
		return nil, nil
	}
	for _, p := range ft.pointerOnly {
		if p.standsFor(w, inside) {
			names = append(names, p.name)
		}
	}
	if len(names) > 0 {
		for _, v := range ft.valueMethods {
			if v.standsFor(w, inside) {
				others = append(others, v.name)
			}
		}
	}
	return names, others
}

// checkFmtArgs stops the cell (panics) where fmt would print an argument
// otherwise than Go: a value that holds values of a type of the cells that
// fmt prints by a method, which the interpreter hands over as their
// representation (see fmtTypes.nested), and a value whose String or
// Error method has a pointer receiver (see pointerMethodOnValue). verb
// reports whether an argument is printed by a verb for which fmt calls
// the methods (%v, %s, %q, %x, %X).
func checkFmtArgs(it *interp.Interpreter, args []any, verb func(i int) bool) {
	var ft *fmtTypes
	for i, a := range args {
		if a == nil || !verb(i) {
			continue
		}
		v := reflect.ValueOf(a)
		if w := unwrapInterp(v); w.IsValid() {
			if w.Kind() == reflect.Pointer {
				continue
			}
			if ft == nil {
				ft = readFmtTypes(it)
			}
			if names, others := ft.pointerMethodOnValue(v); len(names) > 0 {
				also := ""
				if len(others) > 0 {
					also = " (or of type " + strings.Join(others, " or ") + ", which its stand-in in the interpreter cannot be told from)"
				}
				panic(Refused + "fmt of a value that may be of type " + strings.Join(names, " or ") + also + ", whose String or Error method has a pointer " +
					"receiver: the interpreter calls it for the value, which Go does not (Go prints the value's fields); print a pointer (&v) to call the " +
					"method, or the fields, or convert the value to a type without methods")
			}
			continue
		}
		switch v.Kind() {
		case reflect.Slice, reflect.Array, reflect.Map, reflect.Struct, reflect.Pointer:
		default:
			continue
		}
		empty := (v.Kind() == reflect.Slice || v.Kind() == reflect.Map || v.Kind() == reflect.Array) && v.Len() == 0
		if budget := 10000; hasStandInType(v.Type(), 0) && !empty || hasInterface(v.Type(), 0) && holdsValueInterface(v, 0, &budget) {
			panic(Refused + "fmt of a " + v.Type().String() + " that holds, in an interface, a value of a type of the cell with methods: the " +
				"interpreter keeps it there as a stand-in of its own, which fmt prints as the stand-in's fields; print the elements one by one " +
				"(fmt.Print(s[i]))")
		}
		if ft == nil {
			ft = readFmtTypes(it)
		}
		if name := ft.nested(v.Type()); name != "" {
			panic(Refused + "fmt of a " + v.Type().String() + " that may hold values of type " + name + ", which fmt prints by its String, Error or " +
				"Format method: the interpreter hands fmt the elements, fields or results of a type of the cells as the type it is declared from, " +
				"without the method, so that fmt would print them otherwise than Go; print the elements one by one (fmt.Print(s[i])), or call the method " +
				"(s[i].String())")
		}
	}
}

// hasStandInType reports whether t has the interpreter's stand-in for an
// interface type of the cells with methods (interp.valueInterface) among
// its elements, keys or fields: a []I, I declared in a cell, is a slice of
// stand-ins, which fmt printed as [{0xc… {…}}].
func hasStandInType(t reflect.Type, depth int) bool {
	if depth > 6 {
		return false
	}
	if depth > 0 && t.String() == "interp.valueInterface" {
		return true
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return hasStandInType(t.Elem(), depth+1)
	case reflect.Pointer:
		return depth == 0 && hasStandInType(t.Elem(), depth+1)
	case reflect.Map:
		return hasStandInType(t.Key(), depth+1) || hasStandInType(t.Elem(), depth+1)
	case reflect.Struct:
		if t.String() == "interp.valueInterface" || strings.HasPrefix(t.String(), "interp.") {
			return false
		}
		for i := range t.NumField() {
			if hasStandInType(t.Field(i).Type, depth+1) {
				return true
			}
		}
	}
	return false
}

// hasInterface reports whether t has an interface type among its
// elements, keys or fields (not behind a pointer below the top).
func hasInterface(t reflect.Type, depth int) bool {
	if depth > 6 {
		return false
	}
	switch t.Kind() {
	case reflect.Interface:
		return depth > 0
	case reflect.Slice, reflect.Array:
		return hasInterface(t.Elem(), depth+1)
	case reflect.Pointer:
		return depth == 0 && hasInterface(t.Elem(), depth+1)
	case reflect.Map:
		return hasInterface(t.Key(), depth+1) || hasInterface(t.Elem(), depth+1)
	case reflect.Struct:
		for i := range t.NumField() {
			if hasInterface(t.Field(i).Type, depth+1) {
				return true
			}
		}
	}
	return false
}

// holdsValueInterface reports whether v holds, in an interface among its
// elements, keys or fields, the interpreter's stand-in for a value of a
// cell's type with methods (interp.valueInterface), which fmt prints as
// its fields: fmt.Println([]any{W(1)}) printed [{0xc… {…}}] where Go
// prints [w]. It looks at *budget values at most.
func holdsValueInterface(v reflect.Value, depth int, budget *int) bool {
	if *budget <= 0 || depth > 6 || !v.IsValid() {
		return false
	}
	*budget--
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return false
		}
		e := v.Elem()
		return e.Type().String() == "interp.valueInterface" || holdsValueInterface(e, depth+1, budget)
	case reflect.Slice, reflect.Array:
		if !hasInterface(v.Type(), 0) {
			return false
		}
		for i := range v.Len() {
			if holdsValueInterface(v.Index(i), depth+1, budget) {
				return true
			}
		}
	case reflect.Pointer:
		return depth == 0 && !v.IsNil() && holdsValueInterface(v.Elem(), depth+1, budget)
	case reflect.Map:
		if !hasInterface(v.Type(), 0) {
			return false
		}
		for it := v.MapRange(); it.Next(); {
			if holdsValueInterface(it.Key(), depth+1, budget) || holdsValueInterface(it.Value(), depth+1, budget) {
				return true
			}
		}
	case reflect.Struct:
		if unwrapInterp(v).IsValid() || v.Type().String() == "interp.valueInterface" {
			return false
		}
		for i := range v.NumField() {
			if holdsValueInterface(v.Field(i), depth+1, budget) {
				return true
			}
		}
	}
	return false
}

// printVerbs returns the verb function of checkFmtArgs for a format:
// whether fmt calls String or Error for argument i (%w, Errorf's, calls
// Error: an error of a cell's type handed over as its representation
// printed %!w(struct { … }={…})).
func printVerbs(format string) func(i int) bool {
	calls := map[int]bool{}
	forVerbs(format, func(arg int, verb rune, sharp bool) {
		if strings.ContainsRune("vsqxXw", verb) && !(verb == 'v' && sharp) {
			calls[arg] = true
		}
	})
	return func(i int) bool { return calls[i] }
}

// errorsIs is errors.Is for the interpreter it. The interpreter hands a
// cell's error to compiled code as its wrapper (a struct with the value in
// IValue and the methods as function fields), and errors.Is compares
// wrappers, which hold functions and never compare equal: errors.Is(err,
// ErrX) was false for var ErrX = &MyErr{…} and err wrapping ErrX, where Go
// finds it. errorsIs also compares the values inside the wrappers. The
// wrapper of a value of a struct type holds the value's last field (see
// errorsAs), so that equal insides prove equal values only when no struct
// type of the cells may hold such a last field and no two types of the
// cells share its representation: otherwise it stops the cell.
func errorsIs(it *interp.Interpreter, err, target error) bool {
	if errors.Is(err, target) {
		return true
	}
	tw := unwrapInterp(reflect.ValueOf(target))
	if !tw.IsValid() || !tw.Type().Comparable() {
		return false
	}
	if !isChain(err, func(e error) bool {
		ev := unwrapInterp(reflect.ValueOf(e))
		return ev.IsValid() && ev.Type() == tw.Type() && ev.Interface() == tw.Interface()
	}) {
		return false
	}
	holders, exact := readFmtTypes(it).candidates(reflect.ValueOf(target))
	if exact {
		return true
	}
	types := "of a type of the cell"
	if len(holders) > 0 {
		types = "that may be of type " + strings.Join(holders, " or ")
	}
	panic(Refused + "errors.Is with an error " + types + " in the chain and as the target: the interpreter " +
		"hands errors a stand-in that holds the value, or for a struct its last field, which the kernel cannot tell apart here; declare the Error " +
		"method on a pointer receiver of a struct type and compare with a pointer sentinel (var ErrX = &MyErr{…}), or compare the errors' fields")
}

// isChain reports whether match is true for err or an error its Unwrap
// methods lead to, in errors.Is's order.
func isChain(err error, match func(error) bool) bool {
	for err != nil {
		if match(err) {
			return true
		}
		switch x := err.(type) {
		case interface{ Unwrap() error }:
			err = x.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range x.Unwrap() {
				if isChain(e, match) {
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

// UseErrorsFixes replaces errors.Is in the interpreter's table (by
// reflection, as UseFmtFixes does) by errorsIs, and lists the wrappers of
// errors with Unwrap and Is methods for error (see errorWrappers).
func UseErrorsFixes(it *interp.Interpreter) {
	useErrorWrappers(it)
	pkgs := reflect.ValueOf(it).Elem().FieldByName("binPkg")
	if !pkgs.IsValid() || pkgs.Kind() != reflect.Map {
		return
	}
	syms := writable(pkgs).MapIndex(reflect.ValueOf("errors"))
	if !syms.IsValid() || syms.Type() != reflect.TypeOf(map[string]reflect.Value{}) {
		return
	}
	syms.SetMapIndex(reflect.ValueOf("Is"), reflect.ValueOf(reflect.ValueOf(func(err, target error) bool { return errorsIs(it, err, target) })))
}
