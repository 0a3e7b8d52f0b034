package session

import "testing"

// TestSwitchOnInterfaceVariable checks that an expression switch on a
// variable of interface type compares it with each case value as Go does,
// and that one in a cell that declares a non-interface type still stops
// with an error rather than compare a value of that type as the type it
// is declared from.
func TestSwitchOnInterfaceVariable(t *testing.T) {
	s := newSession(t)
	for code, want := range map[string]string{
		"func k(x any) string {\n\tswitch x {\n\tcase nil:\n\t\treturn \"nil\"\n\tcase (*int)(nil):\n\t\treturn \"*int\"\n\tcase 1, uint8(1):\n\t\treturn \"one\"\n\tcase 1.0:\n\t\treturn \"float\"\n\tcase \"hello\":\n\t\treturn \"hello\"\n\t}\n\treturn \"none\"\n}\nfmt.Print(k(nil), k((*int)(nil)), k(1), k(uint8(1)), k(1.0), k(\"hello\"), k(int8(1)))": "nil*intoneonefloathellonone",
		"func b() bool {\n\tswitch i := interface{}(true); {\n\tcase i:\n\t\treturn true\n\t}\n\treturn false\n}\nfmt.Print(b())": "true",
	} {
		if got := out(t, s, code); got != want {
			t.Errorf("cell %q: %q, want %q", code, got, want)
		}
	}
	if err := fails(t, s, "func c() string {\n\ttype F float64\n\t_ = F(0)\n\tswitch x := any(1.0); x {\n\tcase 1.0:\n\t\treturn \"float\"\n\t}\n\treturn \"none\"\n}\nc()"); err == nil {
		t.Error("a switch beside a declared type ran")
	}
}
