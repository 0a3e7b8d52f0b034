package session

import (
	"strings"
	"testing"
)

// TestTypedNilPointerConvertedToInterface: a nil pointer converted to
// error (or another compiled interface type), or by an explicit
// conversion to any interface type, is a nil interface in the interpreter
// and a non-nil one in Go; such conversions are refused unless a nil
// check guards them, and the implicit ones the interpreter gets right are
// left alone.
func TestTypedNilPointerConvertedToInterface(t *testing.T) {
	s := newSession(t)
	run(t, s, "type E struct{}\nfunc (e *E) Error() string { return \"E\" }")
	for code, want := range map[string]string{
		"var p *E\nvar err error = p\nfmt.Println(err != nil)":                                                  "2:17: not supported by the interpreter: the value p, a pointer, as an interface",
		"func f() bool {\n\tvar p *E\n\tvar err error\n\terr = p\n\treturn err != nil\n}":                       "4:8: not supported by the interpreter: the value p",
		"func take(err error) bool { return err != nil }\nfunc f() bool {\n\tvar p *E\n\treturn take(p)\n}":     "4:14: not supported by the interpreter: the argument p",
		"func f() bool {\n\tvar p *E\n\terrs := []error{p}\n\treturn errs[0] != nil\n}":                         "3:18: not supported by the interpreter: the element p",
		"func f() bool {\n\tvar p *E\n\treturn any(p) == nil\n}":                                                "3:13: not supported by the interpreter: the conversion of p",
		"func f() bool {\n\tvar p *E\n\tvar errs []error\n\terrs = append(errs, p)\n\treturn errs[0] != nil\n}": "4:22: not supported by the interpreter: the element p",
		"func f() bool {\n\tvar p *E\n\tm := map[string]error{}\n\tm[\"a\"] = p\n\treturn m[\"a\"] != nil\n}":   "4:11: not supported by the interpreter: the element p",
		"func f(p *E) bool {\n\treturn errors.Is(p, nil)\n}":                                                    "2:19: not supported by the interpreter: the argument p",
	} {
		e := fails(t, s, code)
		if e.Name != "CompileError" || !strings.Contains(e.Value, want) {
			t.Errorf("cell %q: %s: %s; want %q", code, e.Name, e.Value, want)
		}
	}
	// A pointer variable of an earlier cell.
	run(t, s, "var q *E")
	if e := fails(t, s, "var e2 error = q"); e.Name != "CompileError" || !strings.Contains(e.Value, "1:16: not supported by the interpreter: the value q") {
		t.Errorf("a pointer of an earlier cell: %s: %s", e.Name, e.Value)
	}
	// Guarded, non-nil and implicit conversions to any run as in Go.
	code := "func g(p *E) (err error) {\n\tif p != nil {\n\t\terr = p\n\t}\n\treturn\n}\nfunc h() bool {\n\tp := &E{}\n\tvar err error = p\n\treturn err != nil\n}\n" +
		"func k() bool {\n\tvar p *E\n\tvar a any = p\n\treturn a == nil\n}\nfmt.Print(g(nil) != nil, g(&E{}) != nil, h(), k())"
	if got := out(t, s, code); got != "false true true false" {
		t.Errorf("conversions left alone: %q, want %q", got, "false true true false")
	}
}
