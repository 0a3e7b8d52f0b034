package session

import (
	"strings"
	"testing"
)

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

// TestSwitchOnTwoInterfaceVariables: switch x { case y: } with x and y
// interface variables holding equal values of a cell's type made in two
// places took default in the interpreter, which compared its wrappers;
// Go compares the values. Where the interpreter cannot compare them, the
// cell stops with an InterpreterError, not a panic Go would not have.
func TestSwitchOnTwoInterfaceVariables(t *testing.T) {
	s := newSession(t)
	run(t, s, "type A interface{ M() }\ntype B interface {\n\tM()\n\tN()\n}\ntype U struct{ v int }\n\nfunc (U) M() {}\nfunc (U) N() {}\n\ntype S struct{}\n\nfunc (S) String() string { return \"s\" }")
	code := "func s1(x A, y B) string {\n\tswitch x {\n\tcase y:\n\t\treturn \"match\"\n\t}\n\treturn \"default\"\n}\n" +
		"func s2() string {\n\tvar a any = U{1}\n\tvar b any = U{1}\n\tswitch a {\n\tcase b:\n\t\treturn \"match\"\n\tdefault:\n\t\treturn \"default\"\n\t}\n}\n" +
		"fmt.Print(s1(U{1}, U{1}), \" \", s1(U{1}, U{2}), \" \", s2())"
	if got, want := out(t, s, code), "match default match"; got != want {
		t.Errorf("variables declared in the function: %q, want %q", got, want)
	}
	code = "func s3(x, y A) string {\n\tswitch x {\n\tcase nil:\n\t\treturn \"nil\"\n\tcase y:\n\t\treturn \"match\"\n\t}\n\treturn \"default\"\n}\nfmt.Print(s3(U{3}, U{3}), \" \", s3(nil, U{3}))"
	if got, want := out(t, s, code), "match nil"; got != want {
		t.Errorf("parameters and nil: %q, want %q", got, want)
	}
	// Fields, calls and variables defined from calls, in a cell that
	// declares the types too; the tag is read once.
	code = "type C interface{ M() }\ntype V struct{ n int }\n\nfunc (V) M() {}\n\ntype H struct{ c C }\n\nvar calls int\n\nfunc mk() C {\n\tcalls++\n\treturn V{1}\n}\n" +
		"func s5() string {\n\th := H{V{1}}\n\tvar y C = V{1}\n\tswitch h.c {\n\tcase y:\n\t\treturn \"match\"\n\t}\n\treturn \"default\"\n}\n" +
		"func s6() string {\n\tx := mk()\n\tswitch x {\n\tcase nil:\n\t\treturn \"nil\"\n\tcase mk():\n\t\treturn \"match\"\n\t}\n\treturn \"default\"\n}\n" +
		"func s7() string {\n\tvar y C = V{2}\n\tswitch mk() {\n\tcase y, mk():\n\t\treturn \"match\"\n\t}\n\treturn \"default\"\n}\n" +
		"fmt.Print(s5(), \" \", s6(), \" \", s7(), \" \", calls)"
	if got, want := out(t, s, code), "match match match 4"; got != want {
		t.Errorf("fields and calls: %q, want %q", got, want)
	}
	// Two compiled interfaces holding a value of a cell's type: the
	// interpreter compares its wrappers, which cannot be compared (or the
	// struct's last field, which the comparison of Equal stops on).
	e := fails(t, s, "func s4() bool {\n\tvar a fmt.Stringer = S{}\n\tvar b any = a\n\treturn a == b\n}\ns4()")
	if e.Name != "InterpreterError" || !strings.Contains(e.Value, "comparing uncomparable type stdlib._fmt_Stringer") && !strings.Contains(e.Value, "went through a compiled interface") {
		t.Errorf("compiled interfaces compared: %s: %s", e.Name, e.Value)
	}
}

// TestNilInterfaceAssertedToACompiledInterface: a comma-ok assertion or a
// type switch of a nil interface to a compiled interface type with methods
// (fmt.Stringer, error) gives false and takes case nil or default, as in
// Go; the interpreter panicked ("call of reflect.Value.Type on zero
// Value").
func TestNilInterfaceAssertedToACompiledInterface(t *testing.T) {
	s := newSession(t)
	code := "import \"time\"\n" +
		"func c5(v any) string { if _, ok := v.(fmt.Stringer); ok { return \"s\" }; return \"o\" }\n" +
		"func c4(v any) string { switch v.(type) { case nil: return \"nil\"; case error: return \"error\"; default: return \"other\" } }\n" +
		"func c6(v any) string { switch x := v.(type) { case fmt.Stringer: return x.String(); default: return fmt.Sprint(\"other \", x) } }\n" +
		"var e error\nvar ok bool\n_, ok = e.(fmt.Stringer)\n" +
		"fmt.Println(c5(nil), c5(1), c5(time.Second), c4(nil), c4(1), c6(nil), c6(time.Second), ok)"
	if got, want := out(t, s, code), "o o s nil other other <nil> 1s false\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}
