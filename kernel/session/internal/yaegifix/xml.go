package yaegifix

import (
	"encoding/xml"
	"reflect"

	"github.com/traefik/yaegi/interp"
)

// UseXMLFixes replaces encoding/xml's Marshal and MarshalIndent in the
// interpreter's table (as UseReflectFixes does for reflect) by ones that
// stop the cell with a message for a value of a struct type of the cell
// without an XMLName field: the interpreter builds a cell's struct types
// as unnamed types, and xml names the element after the type, so that
// xml.Marshal(&A{…}), which gives <A>…</A> in Go, failed with "xml:
// unsupported type" (for a generic type A[K, V] too). Values holding a
// struct with unexported fields are refused as for reflect (their fields
// are renamed X…). Encoder.Encode, a method of a compiled type, cannot be
// replaced.
func UseXMLFixes(it *interp.Interpreter) {
	pkgs := reflect.ValueOf(it).Elem().FieldByName("binPkg")
	if !pkgs.IsValid() || pkgs.Kind() != reflect.Map {
		return
	}
	syms := writable(pkgs).MapIndex(reflect.ValueOf("encoding/xml"))
	if !syms.IsValid() || syms.Type() != reflect.TypeOf(map[string]reflect.Value{}) {
		return
	}
	syms.SetMapIndex(reflect.ValueOf("Marshal"), reflect.ValueOf(reflect.ValueOf(func(v any) ([]byte, error) {
		checkXMLValue(v)
		return xml.Marshal(v)
	})))
	syms.SetMapIndex(reflect.ValueOf("MarshalIndent"), reflect.ValueOf(reflect.ValueOf(func(v any, prefix, indent string) ([]byte, error) {
		checkXMLValue(v)
		return xml.MarshalIndent(v, prefix, indent)
	})))
}

// checkXMLValue panics when v is, or points to, a struct without a type
// name and without an XMLName field, or holds a cell struct with
// unexported fields (checkCellStruct).
func checkXMLValue(v any) {
	t := reflect.TypeOf(v)
	checkCellStruct(t, 0)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct || t.Name() != "" {
		return
	}
	if _, ok := t.FieldByName("XMLName"); ok {
		return
	}
	panic(Refused + "xml.Marshal of a value of a struct type of the cell (" + t.String() + "): encoding/xml names the element after the type, " +
		"and the interpreter builds the cell's struct types without a name; add a field XMLName xml.Name `xml:\"Name\"` to the struct " +
		"(or marshal a compiled type)")
}
