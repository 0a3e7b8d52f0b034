package session

import "testing"

// TestPointerMethodsNotInValueMethodSet: a value of type T lacks the
// methods declared on *T, so that asserting it to an interface with such
// a method fails, as in Go (Go's interface/receiver.go).
func TestPointerMethodsNotInValueMethodSet(t *testing.T) {
	s := newSession(t)
	run(t, s, "type I interface{ M() }\ntype B struct{ x int }\nfunc (b *B) M() {}\ntype S struct{ B }")
	cases := []struct{ code, want string }{
		{"func g(v any) bool { _, ok := v.(I); return ok }\nfmt.Println(g(B{5}), g(&B{5}), g(S{}))", "false true false\n"},
		{"func h(v any) string { if _, ok := v.(I); ok { return \"yes\" }; return \"no\" }\nfmt.Println(h(B{5}), h(&B{5}))", "no yes\n"},
		{"func k(v any) bool { _, ok := v.(interface{ M() }); return ok }\nfmt.Println(k(B{5}), k(&B{5}))", "false true\n"},
		{"type J interface{ I }\nfunc j(v any) bool { _, ok := v.(J); return ok }\nfmt.Println(j(B{5}), j(&B{5}))", "false true\n"},
		{"func sw(v any) string { switch x := v.(type) { case I: _ = x; return \"I\"; default: return \"other\" } }\nfmt.Println(sw(B{5}), sw(&B{5}))", "other I\n"},
		{"type K interface{ M() }\nfunc one(v any) (r string) { defer func() { r = fmt.Sprint(recover()) }(); k := v.(K); _ = k; return }\nfmt.Println(one(B{5}))",
			"interface conversion: main.B is not main.K: missing method M\n"},
		{"var y any = B{5}\nvar ok bool\n_, ok = y.(I)\nfmt.Println(ok)", "false\n"},
	}
	for _, c := range cases {
		if got := out(t, s, c.code); got != c.want {
			t.Errorf("cell %q printed %q, want %q", c.code, got, c.want)
		}
	}
}

// TestCommaOkAssertionInSwitchInit: switch _, ok := x.(I); … gave ok for
// a value of T when I's method has a pointer receiver (the interpreter
// adds *T's methods to T); the init is corrected as in if statements.
func TestCommaOkAssertionInSwitchInit(t *testing.T) {
	s := newSession(t)
	run(t, s, "type I interface{ M() }\ntype T struct{}\nfunc (*T) M() {}")
	code := "func f(x any) string {\n\tswitch _, ok := x.(I); ok {\n\tcase true:\n\t\treturn \"I\"\n\t}\n\treturn \"not I\"\n}\n" +
		"func g(x any) string {\nL:\n\tswitch _, ok := x.(I); {\n\tcase ok:\n\t\tbreak L\n\tdefault:\n\t\treturn \"not I\"\n\t}\n\treturn \"I\"\n}\n" +
		"fmt.Println(f(T{}), f(&T{}), g(T{}), g(&T{}))"
	if got := out(t, s, code); got != "not I I not I I\n" {
		t.Errorf("comma-ok assertions in switch inits printed %q", got)
	}
}
