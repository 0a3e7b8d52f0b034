package session

import "testing"

// TestOperationsStoredInInterfaces checks that the result of an operation
// on a type assertion, and a comparison, stored where the destination is
// an interface keep the value and type Go gives them.
func TestOperationsStoredInInterfaces(t *testing.T) {
	s := newSession(t)
	for code, want := range map[string]string{
		"func t1(x, y any) any { return x.(float64) > y.(float64) }\nfmt.Printf(\"%T %v\", t1(1.0, 2.0), t1(3.0, 2.0))":                                                   "bool true",
		"func t2() any { a := any(false); a = !a.(bool); return a }\nfmt.Printf(\"%T %v\", t2(), t2())":                                                                   "bool true",
		"func t3() any { a := any(uint8(255)); a = a.(uint8) + 2; return a }\nfmt.Printf(\"%T %v\", t3(), t3())":                                                          "uint8 1",
		"func t4() int { n := 0\nf := func() (r [4]int) { n++; return }\n_ = f() == f()\nreturn n }\nfmt.Print(t4())":                                                     "2",
		"var n5 int\nfunc f5() [2]string { n5++; return [2]string{\"a\", \"b\"} }\nfunc t5() { var e any = [2]string{\"a\", \"b\"}; _ = e == f5() }\nt5()\nfmt.Print(n5)": "1",
		"func t6(a any) []any { return []any{-a.(int8), a.(int8) << 1, a.(int8) * 3} }\nfmt.Print(t6(int8(100)))":                                                         "[-100 -56 44]",
	} {
		if got := out(t, s, code); got != want {
			t.Errorf("cell %q: %q, want %q", code, got, want)
		}
	}
}
