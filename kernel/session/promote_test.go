package session

import (
	"strings"
	"testing"
)

// TestPromotionFromTwoDepths: a name promoted through embedded fields
// from two depths, the deeper one first in the order of the fields,
// selects the shallower in Go (Go's fixedbugs/bug253.go, bug485.go,
// issue24547.go); the interpreter took the first it found. A selector of
// a field or of an unexported method no interface has is written as the
// explicit path and gives Go's result, also in a later cell and through
// an embedded pointer; an exported method (in the method set fmt sees),
// a method an interface type has and a method expression are refused,
// and the same fields in the other order work.
func TestPromotionFromTwoDepths(t *testing.T) {
	s := newSession(t)
	run(t, s, "type E string\nfunc (e E) val() string { return string(e) }\ntype A struct{ E }")
	if got := out(t, s, "type B struct {\n\tA\n\tE\n}\nfmt.Println(B{A{\"a\"}, \"b\"}.val())"); got != "b\n" {
		t.Errorf("method promoted from two depths: %q, want b", got)
	}
	if got := out(t, s, "b := &B{A{\"a\"}, \"c\"}\nb.E = \"d\"\nfmt.Println(b.val())"); got != "d\n" {
		t.Errorf("method promoted from two depths, in a later cell: %q, want d", got)
	}
	if got := out(t, s, "type X struct{ x int }\ntype A1 struct{ X }\ntype C struct{ x int }\ntype B1 struct {\n\tA1\n\t*C\n}\nb1 := B1{A1{X{1}}, &C{2}}\nb1.x++\nfmt.Println(b1.x, b1.C.x, b1.A1.x)"); got != "3 3 1\n" {
		t.Errorf("field promoted from two depths through a pointer: %q, want 3 3 1", got)
	}
	if got := out(t, s, "var n *B1\nfunc() {\n\tdefer func() { fmt.Println(recover() != nil) }()\n\t_ = n.x\n}()"); got != "true\n" {
		t.Errorf("field promoted from two depths through a nil pointer: %q, want true", got)
	}
	e := fails(t, s, "type V interface{ val() string }\nvar v V = B{A{\"a\"}, \"b\"}\nfmt.Println(v.val())")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "type B of an earlier cell has val") {
		t.Errorf("method promoted from two depths, of an interface: %v", e)
	}
	e = fails(t, s, "fmt.Println(B.val(B{A{\"a\"}, \"b\"}))")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "type B of an earlier cell has val") {
		t.Errorf("method expression promoted from two depths: %v", e)
	}
	e = fails(t, s, "import \"bytes\"\nfunc f() string {\n\ts := struct {\n\t\tA\n\t\t*bytes.Buffer\n\t}{A{\"a\"}, bytes.NewBufferString(\"ok\")}\n\treturn s.String()\n}\nfunc (e E) String() string { return \"FAIL\" }")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "3:") || !strings.Contains(e.Value, "has String") {
		t.Errorf("method of the standard library promoted from two depths: %v", e)
	}
	if got := out(t, s, "type B2 struct {\n\tE\n\tA\n}\nfmt.Println(B2{\"b\", A{\"a\"}}.val())"); got != "b\n" {
		t.Errorf("shallower field first: %q, want b", got)
	}
}
