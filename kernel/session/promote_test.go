package session

import (
	"strings"
	"testing"
)

// TestPromotionFromTwoDepthsIsRefused: a name promoted through embedded
// fields from two depths, the deeper one first in the order of the
// fields, selects the shallower in Go (Go's fixedbugs/bug485.go,
// issue24547.go); the interpreter took the first it found, so the type is
// refused, and the same fields in the other order work.
func TestPromotionFromTwoDepthsIsRefused(t *testing.T) {
	s := newSession(t)
	run(t, s, "type E string\nfunc (e E) val() string { return string(e) }\ntype A struct{ E }")
	e := fails(t, s, "type B struct {\n\tA\n\tE\n}\nB{A{\"a\"}, \"b\"}.val()")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "1:") || !strings.Contains(e.Value, "type B has val") || !strings.Contains(e.Value, "E.val") {
		t.Errorf("method promoted from two depths: %v", e)
	}
	e = fails(t, s, "type X struct{ x int }\ntype A1 struct{ X }\ntype C struct{ x int }\ntype B1 struct {\n\tA1\n\tC\n}\nfmt.Println(B1{A1{X{1}}, C{2}}.x)")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "4:") || !strings.Contains(e.Value, "type B1 has x") {
		t.Errorf("field promoted from two depths: %v", e)
	}
	e = fails(t, s, "import \"bytes\"\nfunc f() string {\n\ts := struct {\n\t\tA\n\t\t*bytes.Buffer\n\t}{A{\"a\"}, bytes.NewBufferString(\"ok\")}\n\treturn s.String()\n}\nfunc (e E) String() string { return \"FAIL\" }")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "3:") || !strings.Contains(e.Value, "has String") {
		t.Errorf("method of the standard library promoted from two depths: %v", e)
	}
	if got := out(t, s, "type B2 struct {\n\tE\n\tA\n}\nfmt.Println(B2{\"b\", A{\"a\"}}.val())"); got != "b\n" {
		t.Errorf("shallower field first: %q, want b", got)
	}
}
