package session

import (
	"strings"
	"testing"
)

// TestInterfaceEqualityOfCellTypes: interfaces holding values of a cell's
// type with methods compare as in Go, with each other and with the value
// (Go's convT2X.go, fixedbugs/issue18595.go, typeparam/eface.go), and
// error values of a cell's type can be compared (sentinel errors).
func TestInterfaceEqualityOfCellTypes(t *testing.T) {
	s := newSession(t)
	run(t, s, "type J interface{ Method() }\ntype U16 uint16\nfunc (U16) Method() {}\ntype T struct{}\nfunc (*T) M() {}")
	cases := []struct{ code, want string }{
		{"u := U16(1)\nvar iu interface{} = u\nvar ju J = u\nfmt.Println(u == iu, u == ju, iu == ju, iu != ju, iu == U16(2))", "true true true false false\n"},
		{"func f() bool { t := new(T); var i1, i2 interface{ M() }; i1 = t; var j interface{ M() } = t; i2 = j; return i1 == i2 }\nfmt.Println(f())", "true\n"},
		{"type myErr struct{ s string }\nfunc (e myErr) Error() string { return e.s }\nfunc mk(s string) error { return myErr{s} }\nvar ErrX = mk(\"x\")\nfunc g() error { return ErrX }\nfmt.Println(g() == ErrX, g() == mk(\"y\"), g() != ErrX)", "true false false\n"},
		{"x := 2.5\nconst c = 2\nfmt.Println(x == c, x != c)", "false true\n"},
	}
	for _, c := range cases {
		if got := out(t, s, c.code); got != c.want {
			t.Errorf("cell %q printed %q, want %q", c.code, got, c.want)
		}
	}
	// Variables of an earlier cell.
	run(t, s, "var e1 error = myErr{\"a\"}\nvar e2 error = myErr{\"a\"}\nvar j1 J = U16(1)\nvar i1 any = U16(1)\nu1 := U16(1)\nn := 3")
	if got := out(t, s, "fmt.Println(g() == ErrX, e1 == e2, j1 == i1, u1 == i1, u1 == j1, n == 3)"); got != "true true true true true true\n" {
		t.Errorf("comparisons with variables of an earlier cell printed %q", got)
	}
}

// TestEqualityOfADeclaredTypeAndItsRepresentation: a value of type U16
// uint16 in an interface is the interpreter's uint16, so any(U16(1)) ==
// any(uint16(1)) was true (false in Go); the cell stops instead, and
// comparisons that differ or hold values of one cell type only work.
func TestEqualityOfADeclaredTypeAndItsRepresentation(t *testing.T) {
	s := newSession(t)
	run(t, s, "type U16 uint16")
	e := fails(t, s, "var a any = uint16(1)\nvar b any = U16(1)\nfmt.Println(a == b)")
	if e.Name != "InterpreterError" || !strings.Contains(e.Value, "U16") {
		t.Errorf("any(uint16(1)) == any(U16(1)): %v", e)
	}
	if got := out(t, s, "var c any = U16(2)\nvar d any = 3\nfmt.Println(c == d, c != d, d == any(3))"); got != "false true true\n" {
		t.Errorf("comparisons that Go and the interpreter agree on: %q", got)
	}
}

// TestComparisonWithACompositeLiteralOfAConcreteType: t != (T{}) with t
// of an array type T the cell declares compares two arrays, not
// interfaces: it is left to the interpreter, which gets it right, where it
// used to stop as a comparison of interfaces holding values of T's
// representation.
func TestComparisonWithACompositeLiteralOfAConcreteType(t *testing.T) {
	cell := "type T [2]*int\n" +
		"func g(t T) bool { return t != (T{}) }\n" +
		"n := 1\n" +
		"fmt.Println(g(T{}), g(T{&n}), T{} == T{})"
	if got := out(t, newSession(t), cell); got != "false true true\n" {
		t.Errorf("output %q, want %q", got, "false true true\n")
	}
}

// TestComparisonsOfValuesOfDeclaredTypesRun: comparisons whose operands
// are plainly of a declared type that is no interface (a conversion to
// it, a field of a struct variable, a parameter of an earlier cell's type)
// are left to the interpreter: they used to stop as comparisons of
// interfaces holding values of the type's representation, a common idiom
// (enumerations) that Go runs.
func TestComparisonsOfValuesOfDeclaredTypesRun(t *testing.T) {
	s := newSession(t)
	run(t, s, "type Kind int\ntype Node struct{ kind Kind; Name string }")
	for code, want := range map[string]string{
		"var k Kind = 3\nfmt.Println(k == Kind(3), k != Kind(4))":                                                        "true true",
		"func same(a, b Kind) bool { return a == b }\nfmt.Println(same(1, 1), same(1, 2))":                               "true false",
		"func sameKind(a, b Node) bool { return a.kind == b.kind }\nfmt.Println(sameKind(Node{kind: 1}, Node{kind: 1}))": "true",
		"n := &Node{kind: 2}\nm := Node{kind: 2}\nfmt.Println(n.kind == m.kind, n.kind == Kind(2))":                      "true true",
	} {
		if got := out(t, s, code); got != want+"\n" {
			t.Errorf("cell %q: output %q, want %q", code, got, want+"\n")
		}
	}
	// A variable of an earlier cell, and its field.
	run(t, s, "g := Node{kind: 5}")
	if got := out(t, s, "fmt.Println(g.kind == Kind(5), g.kind == g.kind)"); got != "true true\n" {
		t.Errorf("fields of an earlier cell's variable: %q", got)
	}
	// What cannot be told apart still stops.
	e := fails(t, s, "var a any = 1\nvar b any = Kind(1)\nfmt.Println(a == b)")
	if e.Name != "InterpreterError" || !strings.Contains(e.Value, "Kind") {
		t.Errorf("any(1) == any(Kind(1)): %v", e)
	}
}

// TestEqualityOfStructTypesDeclaredAlike: values of two struct types
// declared with the same fields, which the interpreter represents by one
// type, are not equal as interface values in Go; the kernel stops where
// it cannot tell them apart, and compares values of one type.
func TestEqualityOfStructTypesDeclaredAlike(t *testing.T) {
	s := newSession(t)
	out(t, s, "type A struct{ v int }\ntype B struct{ v int }")
	// Conversions of values of known types compare as Go's do.
	if got := out(t, s, "fmt.Println(any(A{1}) == any(B{1}), any(A{1}) == any(A{1}))"); got != "false true\n" {
		t.Errorf("any(A{1}) == any(B{1}): %q", got)
	}
	for _, code := range []string{
		"func run() { var x, y any = A{1}, B{1}; fmt.Println(x == y) }\nrun()",
	} {
		if e := fails(t, s, code); e.Name != "InterpreterError" || !strings.Contains(e.Value, "A or B") {
			t.Errorf("%s: %v, want a stop naming A and B", code, e)
		}
	}
	if got := out(t, s, "func run2() { var x any = A{1}; fmt.Println(x != any(A{2})) }\nrun2()"); got != "true\n" {
		t.Errorf("values of one type that differ: %q", got)
	}
}

// TestEqualityOfATypeWithMethodsAndItsRepresentation: a value of a type M
// int with methods in an empty interface is the interpreter's int too, so
// any(3) == any(M(3)) was true (Go: false). Where the static types of the
// operands say which types they can hold, the comparison is answered as
// Go does; where they cannot tell M from int, the cell stops. The outputs
// are those of the same code compiled.
func TestEqualityOfATypeWithMethodsAndItsRepresentation(t *testing.T) {
	s := newSession(t)
	run(t, s, "type I interface{ foo() }\ntype M int\n\nfunc (M) foo() {}\n\ntype C interface {\n\tcomparable\n\tI\n}")
	for _, code := range []string{
		"fmt.Println(any(3) == any(M(3)))",
		"func g(t int, i any) bool { return t == i }\nfmt.Println(g(3, M(3)))",
		"func eq[T comparable](t T, i any) bool { return t == i }\nfmt.Println(eq(3, M(3)))",
		"xs := []any{M(3), 3}\nfmt.Println(xs[0] == xs[1])",
		"ys := []any{M(3)}\nfmt.Println(ys[0] == 3)",
	} {
		// Go prints false; the interpreter may have kept M in the
		// interface, which tells the types apart.
		rec := &recorder{}
		r := s.Execute(t.Context(), code, rec)
		if r.Err == nil {
			if got := rec.text("stdout"); got != "false\n" {
				t.Errorf("%s: %q", code, got)
			}
			continue
		}
		if e := r.Err; e.Name != "InterpreterError" || !strings.Contains(e.Value, "M or int") {
			t.Errorf("%s: %v, want a stop naming int and M", code, e)
		}
	}
	code := "func h[T C](t T, i I) bool { return t == i }\nfunc h2[T C](t T, i I) bool { return i != t }\n" +
		"var j I = M(1)\nvar x int = 1\nm := M(1)\n" +
		"fmt.Println(h(M(3), M(3)), h(M(3), M(5)), h[I](M(3), M(3)), h2(M(3), M(3)), m == j, j == I(M(2)), x == any(m), any(x) == any(5))"
	if got, want := out(t, s, code), "true false true false true false false false\n"; got != want {
		t.Errorf("comparisons the static types decide: %q, want %q", got, want)
	}
}

// TestSwitchOnATypeParameterWithAnInterfaceCase: switch v { case x: }
// with v of a type parameter and x of an interface type (or the other way
// round) matched other values than Go's in the interpreter (same(T(3), 3)
// did, same(T(3), T(3)) did not, with x of type any); the cases are
// compared as == of the same operands is, and stop where the types cannot
// be told apart. The output is that of the same code compiled.
func TestSwitchOnATypeParameterWithAnInterfaceCase(t *testing.T) {
	s := newSession(t)
	run(t, s, "type I interface{ M() }\ntype T int\n\nfunc (T) M() {}")
	code := "func same[V interface{ comparable; M() }](v V, x I) string {\n\tswitch v {\n\tcase x:\n\t\treturn \"x\"\n\tcase v:\n\t\treturn \"v\"\n\t}\n\treturn \"none\"\n}\n\n" +
		"func rev[V interface{ comparable; M() }](v V, x I) string {\n\tswitch y := x; y {\n\tcase v:\n\t\treturn \"v\"\n\t}\n\treturn \"none\"\n}\n" +
		"fmt.Println(same(T(3), T(3)), same(T(3), T(4)), rev(T(2), T(2)), rev(T(2), nil))"
	if got, want := out(t, s, code), "x v v none\n"; got != want {
		t.Errorf("switch with a type parameter and an interface: %q, want %q", got, want)
	}
	e := fails(t, s, "func anyCase[V comparable](v V, x any) bool {\n\tswitch v {\n\tcase x:\n\t\treturn true\n\t}\n\treturn false\n}\nfmt.Println(anyCase(T(3), 3))")
	if e.Name != "InterpreterError" || !strings.Contains(e.Value, "T or int") {
		t.Errorf("a case of type any: %s: %s", e.Name, e.Value)
	}
}
