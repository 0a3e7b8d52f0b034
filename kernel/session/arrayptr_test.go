package session

import "testing"

// TestNilArrayPointerLengthAndRange checks that len, cap and a range over
// the indices of a nil pointer to an array give the array's length without
// reading it, and that a call there is evaluated, as in Go.
func TestNilArrayPointerLengthAndRange(t *testing.T) {
	s := newSession(t)
	code := "var calls int\n\nfunc np() *[4]int { calls++; return nil }\nfunc t1() (s int) {\n\tvar arr *[10]int\n\tfor i := range arr {\n\t\ts += i\n\t}\n\tfor range np() {\n\t\ts++\n\t}\n\tfor i, _ := range arr {\n\t\ts += i\n\t}\n\tfor range *arr {\n\t\ts++\n\t}\n\treturn s + len(arr) + cap(np()) + len(np()) + len(*arr)\n}\nfmt.Print(t1(), calls)"
	if got := out(t, s, code); got != "132 3" {
		t.Errorf("got %q, want %q", got, "132 3")
	}
}
