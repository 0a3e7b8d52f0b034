package yaegifix

import (
	"go/token"
	"reflect"
	"unsafe"

	"github.com/traefik/yaegi/interp"
)

// ForgetCompiled drops what the interpreter remembers of every evaluation
// but never uses again: the list of the syntax trees of all evaluations
// (kept for yaegi's debugger) and the list of child scopes of each package
// scope (only ever appended to). Without this, each cell keeps its syntax
// tree alive — kilobytes per cell — for the life of the session. The
// fields are unexported, so this reaches them by reflection and does
// nothing if a yaegi version lacks them.
func ForgetCompiled(it *interp.Interpreter) {
	v := reflect.ValueOf(it).Elem()
	if f := v.FieldByName("roots"); f.IsValid() && f.Kind() == reflect.Slice {
		writable(f).SetZero()
	}
	scopes := v.FieldByName("scopes")
	if !scopes.IsValid() || scopes.Kind() != reflect.Map {
		return
	}
	scopes = writable(scopes)
	for _, key := range scopes.MapKeys() {
		sc := scopes.MapIndex(key)
		if sc.Kind() != reflect.Pointer || sc.IsNil() {
			continue
		}
		if child := sc.Elem().FieldByName("child"); child.IsValid() && child.Kind() == reflect.Slice {
			writable(child).SetZero()
		}
	}
}

// writable returns v (an addressable field) without the read-only flag of
// unexported fields.
func writable(v reflect.Value) reflect.Value {
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// keepFiles is the number of evaluations whose source positions the
// interpreter's file set keeps; positions in older ones (in a panic inside a
// function declared thousands of cells ago) are no longer reported.
const keepFiles = 1000

// TrimFileSet removes the oldest files of the interpreter's file set
// beyond keepFiles: the set gains a file per evaluation and would grow
// with every cell.
func TrimFileSet(it *interp.Interpreter) {
	fset := it.FileSet()
	var files []*token.File
	fset.Iterate(func(f *token.File) bool {
		files = append(files, f)
		return true
	})
	for len(files) > keepFiles {
		fset.RemoveFile(files[0])
		files = files[1:]
	}
}

// frameData returns the slots of the interpreter's global frame, writable,
// or the zero Value if the fields are not there.
func frameData(it *interp.Interpreter) reflect.Value {
	fr := reflect.ValueOf(it).Elem().FieldByName("frame")
	if !fr.IsValid() || fr.Kind() != reflect.Pointer || fr.IsNil() {
		return reflect.Value{}
	}
	data := fr.Elem().FieldByName("data")
	if !data.IsValid() || data.Kind() != reflect.Slice || data.Type().Elem() != reflect.TypeOf(reflect.Value{}) {
		return reflect.Value{}
	}
	return writable(data)
}

// FrameLen returns the number of slots of the interpreter's global frame.
func FrameLen(it *interp.Interpreter) int {
	if d := frameData(it); d.IsValid() {
		return d.Len()
	}
	return 0
}

// Identity names the memory a value of a reference kind refers to (its
// kind, data pointer and length); ok is false for other kinds.
type Identity struct {
	kind reflect.Kind
	ptr  uintptr
	len  int
}

// IdentityOf returns the identity of v, if it is a non-nil slice, map,
// pointer, channel or non-empty string (or an interface holding one).
func IdentityOf(v reflect.Value) (Identity, bool) {
	for v.IsValid() && v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if !v.IsValid() {
		return Identity{}, false
	}
	switch v.Kind() {
	case reflect.Slice:
		if v.IsNil() || v.Cap() == 0 {
			return Identity{}, false
		}
		return Identity{reflect.Slice, v.Pointer(), v.Len()}, true
	case reflect.Map, reflect.Pointer, reflect.Chan:
		if v.IsNil() {
			return Identity{}, false
		}
		return Identity{v.Kind(), v.Pointer(), 0}, true
	case reflect.String:
		if v.Len() == 0 {
			return Identity{}, false
		}
		return Identity{reflect.String, uintptr(unsafe.Pointer(unsafe.StringData(v.String()))), v.Len()}, true
	}
	return Identity{}, false
}

// FreeTemporaries lets go of the old values of re-bound names that the
// interpreter still holds in the unnamed slots of its global frame: yaegi
// v0.16.1 keeps the intermediate values of top-level statements (the
// result of a call, a composite literal) in slots of the global frame, new
// slots for each evaluation, for the life of the session, so re-running
// data := bytes.Repeat(…, 10<<20) kept 10 MB per run after data had been
// re-bound. Every unnamed slot whose value has one of the identities in
// old (the values the names had before the cell re-bound them) is
// replaced by a fresh zero slot — not zeroed in place, since a variable
// may point into its memory (var t = &T{…}), which then stays its own.
// Slots of other values are left alone: a method value reads its
// receiver's slot when called (Foo[int]{val: 1}.Get kept in a package
// variable, Go's test/typeparam/issue48225.go), and zeroing every
// intermediate slot broke that and test/fixedbugs/bug199.go. What remains
// possible is a method value whose receiver shares the old value's memory
// (a conversion of the re-bound variable): it would see a zero receiver.
func FreeTemporaries(it *interp.Interpreter, old map[Identity]bool) {
	if len(old) == 0 {
		return
	}
	data := frameData(it)
	if !data.IsValid() {
		return
	}
	keep := globalSlots(it)
	for i := 0; i < data.Len(); i++ {
		if keep[i] {
			continue
		}
		slot, ok := data.Index(i).Interface().(reflect.Value)
		if !ok || !slot.IsValid() {
			continue
		}
		if id, ok := IdentityOf(slot); ok && old[id] {
			data.Index(i).Set(reflect.ValueOf(reflect.New(slot.Type()).Elem()))
		}
	}
}

// globalSlots returns the indices of the global frame's slots that global
// symbols name.
func globalSlots(it *interp.Interpreter) map[int]bool {
	keep := map[int]bool{}
	note := func(syms reflect.Value) {
		if syms.Kind() != reflect.Map {
			return
		}
		for _, k := range syms.MapKeys() {
			sym := syms.MapIndex(k)
			if sym.Kind() != reflect.Pointer || sym.IsNil() {
				continue
			}
			sym = sym.Elem()
			if idx := sym.FieldByName("index"); idx.IsValid() && idx.Kind() == reflect.Int {
				keep[int(idx.Int())] = true
			}
		}
	}
	v := reflect.ValueOf(it).Elem()
	if src := v.FieldByName("srcPkg"); src.IsValid() && src.Kind() == reflect.Map {
		for _, k := range src.MapKeys() {
			note(src.MapIndex(k))
		}
	}
	if scopes := v.FieldByName("scopes"); scopes.IsValid() && scopes.Kind() == reflect.Map {
		for _, k := range scopes.MapKeys() {
			sc := scopes.MapIndex(k)
			if sc.Kind() == reflect.Pointer && !sc.IsNil() {
				if g := sc.Elem().FieldByName("global"); g.IsValid() && g.Kind() == reflect.Bool && g.Bool() {
					note(sc.Elem().FieldByName("sym"))
				}
			}
		}
	}
	return keep
}
