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
