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
// and panicked where Go runs, Go's typeparam/issue53087.go). The variable
// V hides the type parameter V where Clone is called, so that the type
// arguments the interpreter does not infer cannot be written there
// (inferredEdits) and the cell fails.
func TestGenericCellThatFailedRunsAgain(t *testing.T) {
	s := newSession(t)
	code := "type CM[K comparable, V any] struct{ inner map[K]V }\n" +
		"func (cm CM[K, V]) With(key K, value V) CM[K, V] {\n\tvar result map[K]V\n\t{\n\t\tV := 0\n\t\t_ = V\n\t\tresult = Clone(cm.inner)\n\t}\n\tresult[key] = value\n\treturn CM[K, V]{result}\n}\n" +
		"func Clone[M ~map[K]V, K comparable, V any](m M) M {\n\tr := make(M, len(m))\n\tfor k, v := range m {\n\t\tr[k] = v\n\t}\n\treturn r\n}\n" +
		"func run() {\n\tm := CM[string, int]{inner: map[string]int{}}\n\tm = m.With(\"a\", 1)\n\tfmt.Println(len(m.inner))\n}\nrun()"
	first := s.Execute(context.Background(), code, &recorder{})
	if first.Err == nil {
		t.Skip("the interpreter compiles the cell now")
	}
	if !strings.Contains(first.Err.Value, "undefined type for K") {
		t.Errorf("first run: %v", first.Err)
	}
	rec := &recorder{}
	second := s.Execute(context.Background(), code, rec)
	if second.Err == nil && rec.text("stdout") != "1\n" || second.Err != nil && second.Err.Name != first.Err.Name {
		t.Errorf("run again: %q, %v; first: %v", rec.text("stdout"), second.Err, first.Err)
	}
}

// TestInferredTypeArgumentsWrittenOut: type arguments that Go infers from
// the target of a generic function value (f1 = g1), from a function-typed
// argument or through a core type (Clone in a method of a generic type),
// and a generic function of two type parameters as a value, which the
// interpreter refused; the output is Go's. A local type is written where
// it is in scope.
func TestInferredTypeArgumentsWrittenOut(t *testing.T) {
	s := newSession(t)
	code := "func g1[P any](x P) P { return x }\nfunc g2[P, Q any](x P) Q {\n\tvar q Q\n\treturn q\n}\n" +
		"func g3(f1 func(int) int, x int) int { return f1(x) }\nfunc sum[T any](xs ...T) int { return len(xs) }\n" +
		"func Clone[M ~map[K]V, K comparable, V any](m M) M {\n\tr := make(M, len(m))\n\tfor k, v := range m {\n\t\tr[k] = v\n\t}\n\treturn r\n}\n" +
		"type CM[K comparable, V any] struct{ inner map[K]V }\n" +
		"func (c CM[K, V]) With(k K, v V) CM[K, V] {\n\tr := Clone(c.inner)\n\tr[k] = v\n\treturn CM[K, V]{r}\n}\n" +
		"func Map[T, U any](s []T, f func(T) U) []U {\n\tvar r []U\n\tfor _, x := range s {\n\t\tr = append(r, f(x))\n\t}\n\treturn r\n}\n" +
		"func local() string {\n\ttype L struct{ n int }\n\tvar f func(L) L = g1\n\treturn fmt.Sprint(f(L{7}), Map([]L{{1}}, func(l L) string { return fmt.Sprint(l.n) }))\n}\n" +
		"var f1 func(int) int\nf1 = g1\nvar f2 func(int) string = g2\nvar f3 func(...string) int = sum\nf4 := g2[int, float64]\n" +
		"fmt.Println(f1(1), g3(g1, 3), f2(2) == \"\", f3(\"a\", \"b\"), f4(1), f1 != nil)\n" +
		"m := CM[string, int]{map[string]int{}}.With(\"a\", 1).With(\"b\", 2)\nfmt.Println(len(m.inner), m.inner[\"b\"])\n" +
		"fmt.Println(Map([]int{1, 2}, func(i int) string { return fmt.Sprint(i * 2) }), local())"
	want := "1 3 true 2 0 true\n2 2\n[2 4] {7} [1]\n"
	if got := out(t, s, code); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestMapsClone: maps.Clone, generic, which the interpreter cannot run,
// is written out for the map's type: a shallow copy of the same type, nil
// for a nil map, the entries of NaN keys each once; the output is Go's.
func TestMapsClone(t *testing.T) {
	s := newSession(t)
	code := "import (\n\t\"maps\"\n\t\"math\"\n)\ntype M map[string][]int\n" +
		"func local() string {\n\ttype L map[int]string\n\treturn fmt.Sprint(maps.Clone(L{1: \"x\"}))\n}\n" +
		"m := M{\"a\": {1}, \"b\": {2, 3}}\nc := maps.Clone(m)\nc[\"a\"][0] = 9\nc[\"z\"] = nil\n" +
		"var _ M = c\nfmt.Printf(\"%v %v %d\\n\", len(m), m[\"a\"], len(c))\nvar n map[int]bool\ncn := maps.Clone(n)\nfmt.Println(cn == nil, len(cn))\n" +
		"f := map[float64]int{math.NaN(): 1, math.NaN(): 2, 1: 3}\nfmt.Println(len(maps.Clone(f)), local())"
	want := "2 [9] 3\ntrue 0\n3 map[1:x]\n"
	if got := out(t, s, code); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}
