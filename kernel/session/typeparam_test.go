package session

import (
	"strings"
	"testing"
)

// TestAssertionToATypeParameter: x.(T) and case T: with T a type
// parameter matched, in the interpreter, a value of a declared type whose
// representation T is (B from bool with T = bool); beside such a type
// they are refused, and without one they run.
func TestAssertionToATypeParameter(t *testing.T) {
	s := newSession(t)
	for code, want := range map[string]string{
		"type B bool\nfunc is[T any](x any) bool {\n\t_, ok := x.(T)\n\treturn ok\n}\nfmt.Print(is[bool](B(true)))":                                              "3:14: not supported by the interpreter: the type assertion x.(T), of the type parameter T",
		"type I int\nfunc kind[T any](x any) string {\n\tswitch x.(type) {\n\tcase T:\n\t\treturn \"T\"\n\t}\n\treturn \"other\"\n}\nfmt.Print(kind[int](I(1)))": "4:7: not supported by the interpreter: case T: of a type switch, of the type parameter T",
	} {
		e := fails(t, s, code)
		if e.Name != "CompileError" || !strings.Contains(e.Value, want) {
			t.Errorf("cell %q: %s: %s; want %q", code, e.Name, e.Value, want)
		}
	}
	s = newSession(t)
	code := "type P struct{ A int }\nfunc is[T any](x any) bool {\n\t_, ok := x.(T)\n\treturn ok\n}\nfmt.Print(is[P](P{}), is[int](P{}), is[bool](true), is[bool](1))"
	if got := out(t, s, code); got != "true false true false" {
		t.Errorf("without a confusable type: %q, want %q", got, "true false true false")
	}
}
