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
	for _, code := range []string{
		"fmt.Println(any(A{1}) == any(B{1}))",
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
