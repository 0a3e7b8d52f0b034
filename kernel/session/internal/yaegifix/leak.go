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

// frameData returns the slice of values of the interpreter's global
// frame (writable), or an invalid value if the fields are gone.
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

// ClearTemporaries zeroes the slots of the interpreter's global frame from
// index from on that no global symbol names. yaegi v0.16.1 keeps the
// intermediate values of top-level statements (the result of a call, a
// composite literal) in slots of the global frame, a new slot for each
// evaluation, for the life of the session: re-running data :=
// bytes.Repeat(…, 10<<20) kept 10 MB per run even after the variable was
// freed. The session calls it after each cell with the frame's length
// before the cell.
func ClearTemporaries(it *interp.Interpreter, from int) {
	data := frameData(it)
	if !data.IsValid() || from >= data.Len() {
		return
	}
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
	src := v.FieldByName("srcPkg")
	if !src.IsValid() || src.Kind() != reflect.Map {
		return
	}
	for _, k := range src.MapKeys() {
		note(src.MapIndex(k))
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
	for i := from; i < data.Len(); i++ {
		if keep[i] {
			continue
		}
		slot, ok := data.Index(i).Interface().(reflect.Value)
		if !ok || !slot.IsValid() || !slot.CanSet() {
			continue
		}
		switch slot.Kind() {
		case reflect.Slice, reflect.Map, reflect.Pointer, reflect.Interface, reflect.String, reflect.Struct, reflect.Array, reflect.Chan:
			if !slot.IsZero() {
				slot.SetZero()
			}
		}
	}
}
