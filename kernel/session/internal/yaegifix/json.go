package yaegifix

import (
	"encoding/json"
	"reflect"

	"github.com/traefik/yaegi/interp"
)

// UseJSONFixes replaces encoding/json's Marshal and MarshalIndent in the
// interpreter's table (as UseXMLFixes does for encoding/xml) by ones that
// stop the cell with a message for a value holding a struct type of the
// cell with unexported fields (checkCellStruct): the interpreter builds
// such a type with the fields renamed X… and exported, so that
// json.Marshal(T{A: 1, b: 2}) gave {"A":1,"Xb":2} where Go gives {"A":1}.
// Encoder.Encode, a method of a compiled type, cannot be replaced.
func UseJSONFixes(it *interp.Interpreter) {
	pkgs := reflect.ValueOf(it).Elem().FieldByName("binPkg")
	if !pkgs.IsValid() || pkgs.Kind() != reflect.Map {
		return
	}
	syms := writable(pkgs).MapIndex(reflect.ValueOf("encoding/json"))
	if !syms.IsValid() || syms.Type() != reflect.TypeOf(map[string]reflect.Value{}) {
		return
	}
	syms.SetMapIndex(reflect.ValueOf("Marshal"), reflect.ValueOf(reflect.ValueOf(func(v any) ([]byte, error) {
		checkJSONValue("Marshal", v)
		return json.Marshal(v)
	})))
	syms.SetMapIndex(reflect.ValueOf("MarshalIndent"), reflect.ValueOf(reflect.ValueOf(func(v any, prefix, indent string) ([]byte, error) {
		checkJSONValue("MarshalIndent", v)
		return json.MarshalIndent(v, prefix, indent)
	})))
}

// checkJSONValue panics with a message naming json's function f when v
// holds a struct type of the cell with unexported fields.
func checkJSONValue(f string, v any) {
	if s := unexportedCellStruct(reflect.TypeOf(v), 0); s != "" {
		panic(Refused + "json." + f + " of a value of a struct type of the cell with unexported fields (" + s + "): the interpreter builds " +
			"the type with its unexported fields renamed X… and exported, so that json would write them, which Go leaves out; " +
			"marshal a struct type with exported fields only")
	}
}
