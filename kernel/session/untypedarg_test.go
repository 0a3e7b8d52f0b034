package session

import "testing"

// TestUntypedConstantTypeArguments: untyped constant arguments of a
// generic function of the cell give its type parameter their default
// type, as in Go (the interpreter alone failed with "untyped float does
// not implement main.Ordered").
func TestUntypedConstantTypeArguments(t *testing.T) {
	decl := "type Ordered interface{ ~int | ~int32 | ~float64 | ~complex128 | ~string }\n" +
		"func first[T Ordered](a, b T) T { if a == b { return b }; return a }\n" +
		"func fact[T interface{ ~int | ~int64 | ~float64 }](n T) T { if n == 1 { return 1 }; return n * fact(n-1) }\n"
	for code, want := range map[string]string{
		"x := first(3.5, 2.0)":  "float64 3.5",
		"x := first(-1, (2.5))": "float64 -1",
		"x := first(1, 2i)":     "complex128 (1+0i)",
		"x := fact(5.0)":        "float64 120",
		"x := first('a', 1)":    "int32 97",
		"x := first(4, 5)":      "int 4",
	} {
		cell := decl + "func run() {\n\t" + code + "\n\tfmt.Printf(\"%T %v\", x, x)\n}\nrun()"
		if got := out(t, newSession(t), cell); got != want {
			t.Errorf("cell %q: output %q, want %q", code, got, want)
		}
	}
}
