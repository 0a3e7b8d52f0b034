package session

import (
	"context"
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

// TestAssertionToATypeParameterFromAnInterfaceWithMethods: x.(T), x of an
// interface type with methods, failed to compile for a type argument
// without those methods ("impossible type assertion", seen as a CFG
// post-order panic at the call; Go's typeparam/issue51700.go), where Go's
// assertion fails when it runs.
func TestAssertionToATypeParameterFromAnInterfaceWithMethods(t *testing.T) {
	s := newSession(t)
	code := "type Shape interface{ Area() int }\ntype Sq struct{ s int }\nfunc (q Sq) Area() int { return q.s * q.s }\ntype Pt struct{ x, y int }\n" +
		"func as[T any](s Shape) (T, bool) {\n\tt, ok := s.(T)\n\treturn t, ok\n}\n" +
		"func must[T any](s Shape) (t T, err string) {\n\tdefer func() {\n\t\tif r := recover(); r != nil {\n\t\t\terr = \"panic\"\n\t\t}\n\t}()\n\treturn s.(T), \"\"\n}\n" +
		"func check[T any](err error) bool {\n\tif e, ok := err.(interface{ Timeout() bool }); ok {\n\t\t_, ok := e.(T)\n\t\treturn ok\n\t}\n\treturn false\n}\n" +
		"fmt.Println(as[Sq](Sq{2}))\nfmt.Println(as[Pt](Sq{2}))\nfmt.Println(as[Pt](nil))\nfmt.Println(must[Sq](Sq{3}))\nfmt.Println(must[Pt](Sq{3}))\nfmt.Println(check[Pt](fmt.Errorf(\"x\")))"
	want := "{2} true\n{0 0} false\n{0 0} false\n{3} \n{0 0} panic\nfalse\n"
	if got := out(t, s, code); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestFailedInstantiationIsNamed: the interpreter drops the error of its
// compilation of a generic function for explicit type arguments (here a
// type switch whose cases int32 makes alike, which Go accepts) and panics
// at the call; the error names the call, on the cell's line.
func TestFailedInstantiationIsNamed(t *testing.T) {
	s := newSession(t)
	code := "func kind[T any](x any) string {\n\tswitch x.(type) {\n\tcase T:\n\t\treturn \"T\"\n\tcase int32:\n\t\treturn \"int32\"\n\t}\n\treturn \"other\"\n}\n" +
		"func run() {\n\tfmt.Println(kind[int8](int32(1)))\n\tfmt.Println(kind[int32](int32(1)))\n}\nrun()"
	e := fails(t, s, code)
	if want := "12:14: CFG post-order panic: runtime error: invalid memory address or nil pointer dereference (at the call of kind[int32]:"; e.Name != "CompileError" || !strings.Contains(e.Value, want) {
		t.Errorf("%s: %s; want %q", e.Name, e.Value, want)
	}
}

// TestGenericCellThatFailedRunsAgain: a cell with generics that fails to
// compile, run again, fails again: the instantiations of the failed
// compilation are dropped (with them, the cell compiled the second time
// and panicked where Go runs, Go's typeparam/issue53087.go).
func TestGenericCellThatFailedRunsAgain(t *testing.T) {
	s := newSession(t)
	code := "type CM[K comparable, V any] struct{ inner map[K]V }\n" +
		"func (cm CM[K, V]) With(key K, value V) CM[K, V] {\n\tresult := Clone(cm.inner)\n\tresult[key] = value\n\treturn CM[K, V]{result}\n}\n" +
		"func Clone[M ~map[K]V, K comparable, V any](m M) M {\n\tr := make(M, len(m))\n\tfor k, v := range m {\n\t\tr[k] = v\n\t}\n\treturn r\n}\n" +
		"func run() {\n\tm := CM[string, int]{inner: map[string]int{}}\n\tm = m.With(\"a\", 1)\n\tfmt.Println(len(m.inner))\n}\nrun()"
	first := s.Execute(context.Background(), code, &recorder{})
	if first.Err == nil {
		t.Skip("the interpreter compiles the cell now")
	}
	rec := &recorder{}
	second := s.Execute(context.Background(), code, rec)
	if second.Err == nil && rec.text("stdout") != "1\n" || second.Err != nil && second.Err.Name != first.Err.Name {
		t.Errorf("run again: %q, %v; first: %v", rec.text("stdout"), second.Err, first.Err)
	}
}
