package session

import "testing"

// TestUntypedConstantShifts checks that the untyped constant of a shift by
// a count computed at run time takes the type Go gives it: the other
// operand's, the parameter's, the element's, uint in a shift count.
func TestUntypedConstantShifts(t *testing.T) {
	s := newSession(t)
	for code, want := range map[string]string{
		"func r(b byte, bit int32) uint32 { return uint32(b) | 1<<(bit&31) }\nfmt.Print(r(1, 35))":                "9",
		"func f(w uint64) uint64 { return w }\nfunc g(i int) uint64 { return f(1 << uint(i)) }\nfmt.Print(g(63))": "9223372036854775808",
		"func h(x int) int { return 1 << (1 << (1 << uint(x))) }\nfmt.Print(h(2))":                                "65536",
		"func k(v uint) uint { return v >> ((1 >> v) + (1 >> v)) }\nfmt.Print(k(48), k(0), k(9))":                 "48 0 9",
		"func m(n uint) []uint64 { return []uint64{1 << n, 3: 1 << n} }\nfmt.Print(m(63))":                        "[9223372036854775808 0 0 9223372036854775808]",
		"func q(x uint64, n uint) uint64 { return x + 1<<n }\nfmt.Print(q(1, 63))":                                "9223372036854775809",
		"func c(x uint64, n uint) bool { return uint64(x) == 1<<n }\nfmt.Print(c(1<<63, 63), c(1, 63))":           "true false",
		"var n uint = 3\nfmt.Printf(\"%T %v %T\", uint8(1)|1<<n, uint8(1)|1<<n, 1<<n)":                            "uint8 9 int",
		"func w(x uint16, n uint) uint16 { x |= 1 << n; return x ^ 0x8000>>(n-3) }\nfmt.Print(w(1, 3))":           "32777",
	} {
		if got := out(t, s, code); got != want {
			t.Errorf("cell %q: %q, want %q", code, got, want)
		}
	}
}

// TestShiftCountTypes: a constant operation in the count of a shift that
// is an operand of another operation or of an assignment operation
// (a3 *= a4 << (u & (1 - 0))), which the interpreter refused, and a shift
// of a constant by a count computed at run time inside the count of
// another shift, a uint in Go (the interpreter failed on reflect's Uint;
// Go's fixedbugs/issue15175.go); the output is Go's.
func TestShiftCountTypes(t *testing.T) {
	s := newSession(t)
	code := "func sf(a1 uint8, v1 uint) uint8 { return a1 >> (((2 ^ 2) >> (v1 | 2)) + 0) }\n" +
		"func sg(a3, a4 int8, u uint16, a5 uint8) int8 {\n\ta3 *= a4 << (u & (1 - 0)) << (uint16(1) << a5 << 3)\n\treturn a3\n}\n" +
		"func sh(a uint8, v uint) uint8 { return a >> ((2 >> v) - 3) }\n" +
		"func sk(a int8, v uint) int8 {\n\ta <<= (4 >> v) + 1\n\treturn a\n}\n" +
		"fmt.Println(sf(250, 2), sf(250, 0), sg(3, 5, 3, 13), sg(3, 5, 2, 13), sg(3, 5, 3, 0), sh(200, 5), sk(3, 1), sk(3, 9))"
	if got, want := out(t, s, code), "250 250 30 15 0 0 24 6\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}
