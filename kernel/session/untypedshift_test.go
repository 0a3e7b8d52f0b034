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
