package session

import (
	"strings"
	"testing"
)

// TestSwitchOnInterfaceWithCaseOfAnotherType: a switch whose tag is an
// interface and a case is not (or the other way round, or a case of an
// interface type without a tag) made the interpreter fail ("cannot be
// converted to type int", "Bool on interface Value"; Go's switch.go,
// typeparam/issue51522b.go); the cases are compared as Go compares them,
// and a comparison the interpreter cannot make right (a type without
// methods, a value of a type parameter) stops the cell.
// A range over *p of a nil pointer to an array runs too (issue73476.go).
func TestSwitchOnInterfaceWithCaseOfAnotherType(t *testing.T) {
	s := newSession(t)
	code := `type I interface{ M() }
type T float32

func (T) M() {}

func kind(x any) string {
	switch x {
	case 1:
		return "int 1"
	case int8(1):
		return "int8 1"
	case "a", 2.5:
		return "a or 2.5"
	case nil:
		return "nil"
	}
	return "other"
}

func tagless(x any) string {
	switch {
	case x:
		return "true"
	}
	return "not true"
}

func withInit() string {
	switch i := any(int8(2)); i {
	case int8(2):
		return "int8 2"
	}
	return "other"
}

func run() {
	fmt.Println(kind(1), kind(int8(1)), kind("a"), kind(2.5), kind(nil), kind(int16(1)))
		fmt.Println(tagless(true), tagless(1), tagless(false))
	fmt.Println(withInit())
	var p *[4]int
	for i := range *p {
		fmt.Print(i)
	}
	fmt.Println()
}
run()`
	// The output of the compiled program.
	want := "int 1 int8 1 a or 2.5 a or 2.5 nil other\ntrue not true not true\nint8 2\n0123\n"
	if got := out(t, s, code); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// At the top level of a cell.
	if got := out(t, s, "var v any = 2.5\nswitch v {\ncase 2:\n\tfmt.Println(\"int\")\ncase 2.5:\n\tfmt.Println(\"float\")\n}"); got != "float\n" {
		t.Errorf("top level: got %q, want %q", got, "float\n")
	}
	// A type without methods the interpreter represents by int: the cell
	// stops rather than match case 1.
	e := fails(t, s, "type U int\nfunc f() string {\n\tvar u any = U(1)\n\tswitch u {\n\tcase 1:\n\t\treturn \"int\"\n\t}\n\treturn \"U\"\n}\nf()")
	if !strings.Contains(e.Value, "by which the interpreter also represents the type U") {
		t.Errorf("a type without methods: %s: %s", e.Name, e.Value)
	}
	// So does ==.
	e = fails(t, s, "func g() bool {\n\tvar a, b any = U(1), 1\n\treturn a == b\n}\ng()")
	if !strings.Contains(e.Value, "U") || !strings.Contains(e.Value, "cannot tell") {
		t.Errorf("== with a type without methods: %s: %s", e.Name, e.Value)
	}
}
