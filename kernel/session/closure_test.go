package session

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestDeferredClosures runs function literals deferred in loops and
// closures called from deferred calls: the interpreter alone gives the
// last iteration's values to the first and never returns from the second.
func TestDeferredClosures(t *testing.T) {
	s := newSession(t)
	cases := []struct{ code, want string }{
		{"func f() (s string) {\n\tfor i := 0; i < 3; i++ {\n\t\tdefer func() { s += fmt.Sprint(i) }()\n\t}\n\treturn\n}\nfmt.Print(f())", "210"},
		{"func f() {\n\tfor _, w := range []string{\"a\", \"b\"} {\n\t\tn := len(w)\n\t\tdefer func(k int) { fmt.Print(w, n, k, \" \") }(n + 1)\n\t}\n}\nf()", "b1 2 a1 2 "},
		{"func f() {\n\tc := func() { fmt.Print(\"cleanup\") }\n\tdefer c()\n\tfmt.Print(\"body \")\n}\nf()", "body cleanup"},
		{"func f() {\n\tx := 1\n\tc := func() { fmt.Print(x); x = 7 }\n\tdefer func() { c(); fmt.Print(x) }()\n\tx = 2\n}\nf()", "27"},
		{"func f() {\n\tvar fs []func()\n\tdefer func() {\n\t\tfor _, g := range fs {\n\t\t\tg()\n\t\t}\n\t}()\n\tfor i := range 3 {\n\t\tfs = append(fs, func() { fmt.Print(i) })\n\t}\n}\nf()", "012"},
		{"func f() (err error) {\n\tdefer func() {\n\t\tif r := recover(); r != nil {\n\t\t\terr = fmt.Errorf(\"recovered %v\", r)\n\t\t}\n\t}()\n\tg := func() { panic(\"x\") }\n\tg()\n\treturn nil\n}\nfmt.Print(f())", "recovered x"},
		{"type C struct{ n int }\nfunc (c *C) Inc(k int) { c.n += k }\nfunc g() (int, int) {\n\ta, b := &C{}, &C{}\n\tfunc() {\n\t\tfor i, c := range []*C{a, b} {\n\t\t\tdefer c.Inc(i + 1)\n\t\t}\n\t}()\n\treturn a.n, b.n\n}\nfmt.Print(g())", "1 2"},
		{"func() { fmt.Print(\"once \") }()\nn := 1", "once "},
		{"fmt.Print(n)", "1"},
	}
	for _, c := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		rec := &recorder{}
		r := s.Execute(ctx, c.code, rec)
		cancel()
		if r.Err != nil || rec.text("stdout") != c.want {
			t.Errorf("cell %q: output %q, error %v; want %q", c.code, rec.text("stdout"), r.Err, c.want)
		}
	}
	for code, want := range map[string]string{
		"func f() {\n\tfor i := 0; i < 2; i++ {\n\t\tdefer func() {\n\t\t\tif recover() != nil {\n\t\t\t\tfmt.Print(i)\n\t\t\t}\n\t\t}()\n\t}\n}": "3:3: " + "not supported by the interpreter: a deferred function literal that calls recover and uses i",
		"func f() {\n\th := func() { recover() }\n\tdefer h()\n}":                                                                                 "2:16: not supported by the interpreter: a function literal that calls recover and is kept as a value",
	} {
		e := fails(t, s, code)
		if e.Name != "CompileError" || !strings.Contains(e.Value, want) {
			t.Errorf("cell %q: %s: %s; want a CompileError with %q", code, e.Name, e.Value, want)
		}
	}
}

// TestGoAndDeferConstantArguments: a constant argument of a go statement
// or a top-level defer takes its type from the parameter, as in Go (the
// rewrite that evaluates the arguments first gave it type int).
func TestGoAndDeferConstantArguments(t *testing.T) {
	s := newSession(t)
	code := "import \"time\"\ntype S struct{}\nfunc (S) Serve(p int64, f float64) { fmt.Print(p, f, \" \") }\n" +
		"done := make(chan bool)\na := new(S)\ngo func() { a.Serve(1, 2); done <- true }()\n<-done\n" +
		"go a.Serve(1<<40, 3)\ndefer a.Serve(7, 1.5)"
	if got := out(t, s, code+"\ntime.Sleep(100 * time.Millisecond)"); got != "1 2 1099511627776 3 7 1.5 " {
		t.Errorf("output %q, want %q", got, "1 2 1099511627776 3 7 1.5 ")
	}
}
