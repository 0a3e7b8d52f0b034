package session

import (
	"context"
	"strings"
	"testing"
	"time"
)

// out runs a cell that must succeed and returns its standard output.
func out(t *testing.T, s *Session, code string) string {
	t.Helper()
	_, rec := run(t, s, code)
	return rec.text("stdout")
}

// fails runs a cell that must fail within 10 s and returns its error.
func fails(t *testing.T, s *Session, code string) *Error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r := s.Execute(ctx, code, &recorder{})
	if r.Err == nil {
		t.Fatalf("cell %q ran without error", code)
	}
	return r.Err
}

func TestBlockScopeAtTopLevel(t *testing.T) {
	s := newSession(t)
	if got := out(t, s, "x := 1\nif true {\n\tx := 2\n\t_ = x\n}\nfor i := 0; i < 2; i++ {\n\tx := 3\n\t_ = x\n}\n{\n\tx := 4\n\t_ = x\n}\nfmt.Println(x)"); got != "1\n" {
		t.Errorf("outer x after blocks defining their own: %q, want 1", got)
	}
	if got := out(t, s, "if true {\n\tx = 5\n}\nfmt.Println(x)"); got != "5\n" {
		t.Errorf("assignment in a block: %q, want 5", got)
	}
}

func TestPerIterationLoopVariables(t *testing.T) {
	s := newSession(t)
	cases := map[string]string{
		"var fs []func()\nfor i := range 3 {\n\tfs = append(fs, func() { fmt.Print(i, \" \") })\n}\nfor _, f := range fs {\n\tf()\n}":                                                                          "0 1 2 ",
		"var fs []func()\nfor i := 0; i < 3; i++ {\n\tfs = append(fs, func() { fmt.Print(i, \" \") })\n}\nfor _, f := range fs {\n\tf()\n}":                                                                    "0 1 2 ",
		"var ps []*int\nfor _, v := range []int{4, 5} {\n\tps = append(ps, &v)\n}\nfmt.Print(*ps[0], *ps[1])":                                                                                                  "4 5",
		"func g() {\n\tvar wg sync.WaitGroup\n\tres := make([]int, 3)\n\tfor i := 0; i < 3; i++ {\n\t\twg.Add(1)\n\t\tgo func() { defer wg.Done(); res[i] = i }()\n\t}\n\twg.Wait()\n\tfmt.Print(res)\n}\ng()": "[0 1 2]",
		"n := 0\nfor i := 0; i < 3; i++ {\n\ti := i\n\tn += i\n}\nfmt.Print(n)":                                                                                                                                "3",
	}
	run(t, s, `import "sync"`)
	for code, want := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		rec := &recorder{}
		r := s.Execute(ctx, code, rec)
		cancel()
		if r.Err != nil || rec.text("stdout") != want {
			t.Errorf("cell %q: output %q, error %v; want %q", code, rec.text("stdout"), r.Err, want)
		}
	}
	// A body that changes its variable hands the change to the post
	// statement, through an assignment, a pointer, continue and break.
	for code, want := range map[string]string{
		"for i := 0; i < 3; i++ {\n\tdefer func() { fmt.Print(i) }()\n\ti++\n}":                                                                                            "31",
		"func f() (s string) {\n\tfor i := 0; i < 10; i++ {\n\t\tp := &i\n\t\t*p += 4\n\t\tdefer func() { s += fmt.Sprint(i, \" \") }()\n\t}\n\treturn\n}\nfmt.Print(f())": "9 4 ",
		"func f() (out []int) {\n\tvar fs []func() int\nL:\n\tfor i := 0; i < 20; i++ {\n\t\tfs = append(fs, func() int { return i })\n\t\tswitch {\n\t\tcase i == 3:\n\t\t\ti += 2\n\t\t\tcontinue L\n\t\tcase i > 12:\n\t\t\tbreak L\n\t\t}\n\t\tif i%2 == 0 {\n\t\t\ti++\n\t\t\tcontinue\n\t\t}\n\t}\n\tfor _, g := range fs {\n\t\tout = append(out, g())\n\t}\n\treturn\n}\nfmt.Print(f())": "[1 3 5 7 9 11 13 14]",
		"func f() (out []int) {\n\tvar fs []func() int\n\tfor i := 0; i < 20; i++ {\n\t\tfs = append(fs, func() int { return i })\n\t\tif i > 6 {\n\t\t\tbreak\n\t\t}\n\t\ti++\n\t}\n\tfor _, g := range fs {\n\t\tout = append(out, g())\n\t}\n\treturn\n}\nfmt.Print(f())":                                                                                                                     "[1 3 5 7 8]",
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		rec := &recorder{}
		r := s.Execute(ctx, code, rec)
		cancel()
		if r.Err != nil || rec.text("stdout") != want {
			t.Errorf("cell %q: output %q, error %v; want %q", code, rec.text("stdout"), r.Err, want)
		}
	}
}

func TestBreakLabelOutOfSelect(t *testing.T) {
	s := newSession(t)
	code := "ch := make(chan int, 10)\nfor i := 0; i < 5; i++ {\n\tch <- i\n}\nn := 0\nL:\nfor {\n\tselect {\n\tcase v := <-ch:\n\t\tn += v\n\tdefault:\n\t\tbreak L\n\t}\n}\nfmt.Println(n)"
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rec := &recorder{}
	if r := s.Execute(ctx, code, rec); r.Err != nil || rec.text("stdout") != "10\n" {
		t.Errorf("break L in a select case: %q, %v", rec.text("stdout"), r.Err)
	}
	code = "func f() int {\n\tch := make(chan int)\n\tn := 0\nL:\n\tfor {\n\t\tselect {\n\t\tcase <-ch:\n\t\tdefault:\n\t\t\tn++\n\t\t\tif n < 3 {\n\t\t\t\tcontinue L\n\t\t\t}\n\t\t\tbreak L\n\t\t}\n\t}\n\treturn n\n}\nfmt.Println(f())"
	rec = &recorder{}
	if r := s.Execute(ctx, code, rec); r.Err != nil || rec.text("stdout") != "3\n" {
		t.Errorf("break L in a select case in a function: %q, %v", rec.text("stdout"), r.Err)
	}
}

func TestStringAndErrorMethodsOfCellTypes(t *testing.T) {
	s := newSession(t)
	run(t, s, "type V struct{ n int }\nfunc (v V) String() string { return fmt.Sprint(\"V\", v.n) }\ntype E struct{ c int }\nfunc (e *E) Error() string { return fmt.Sprint(\"error \", e.c) }")
	if got := out(t, s, "fmt.Printf(\"%v %s|\", V{1}, V{2})\nfmt.Print(fmt.Sprintf(\"%v|\", V{3}))\nfmt.Fprintf(os.Stdout, \"%v\", &E{4})"); got != "V1 V2|V3|error 4" {
		t.Errorf("Printf of cell Stringers and errors: %q", got)
	}
	r, _ := run(t, s, "var err error = &E{7}\nerr")
	if got := value(r); got != "error: error 7" {
		t.Errorf("an error as the last expression shows %q, want its Error text", got)
	}
}

func TestUnboundedRecursionIsAnError(t *testing.T) {
	s := newSession(t)
	start := time.Now()
	e := fails(t, s, "func rec(n int) int { return rec(n+1) + 1 }\nrec(0)")
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the error took %v", d)
	}
	if !strings.Contains(e.Value, "stack overflow") {
		t.Errorf("error %v", e)
	}
	if r, _ := run(t, s, "1 + 1"); value(r) != "2" {
		t.Errorf("next cell: %s", value(r))
	}
}

func TestMessagesNameTheCellLineAndGoWording(t *testing.T) {
	s := newSession(t)
	tb := func(e *Error) string { return strings.Join(e.Traceback, "\n") }
	if e := fails(t, s, "x := 1\n_ = x\npanic(\"boom\")"); !strings.Contains(tb(e), "line 3 of the cell") {
		t.Errorf("top-level panic: %q", tb(e))
	}
	run(t, s, "func f(n int) int {\n\tif n > 0 {\n\t\tpanic(\"deep\")\n\t}\n\treturn f(n + 1)\n}")
	if e := fails(t, s, "x := 2\n\nf(0)"); !strings.Contains(tb(e), "in f (declared at line 1 of cell [") || !strings.Contains(tb(e), "line 3 of the cell") || strings.Contains(tb(e), "2:5") {
		t.Errorf("panic in a function: %q", tb(e))
	}
	for code, want := range map[string]string{
		"type P struct{ X int }\nvar p *P\nfmt.Println(p.X)": "Panic: runtime error: invalid memory address or nil pointer dereference",
		"y := undefinedName + 1":                             "CompileError: 1:6: undefined: undefinedName",
		"func h(c context.Context) {}":                       `CompileError: 1:10: undefined: context (import "context")`,
		`import "github.com/foo/bar"`:                        "CompileError: 1:9: package github.com/foo/bar is not available",
		"a := 1\nb := a.X":                                   "CompileError: 2:8: undefined selector X",
		"var g func()\ng()":                                  "Panic: runtime error: invalid memory address or nil pointer dereference",
	} {
		e := fails(t, s, code)
		if !strings.HasPrefix(e.Error(), want) || strings.Contains(e.Error(), "GOPATH") {
			t.Errorf("cell %q: %q, want %q", code, e.Error(), want)
		}
	}
	e := fails(t, s, "import \"slices\"\nslices.Insert([]int{1, 2}, 9, 2)")
	if m := position.FindStringSubmatch(e.Value); m != nil {
		t.Errorf("a position outside a 2-line cell: %q", e.Value)
	}
}

func TestTypeRedefinedWithOtherFieldsIsRefused(t *testing.T) {
	s := newSession(t)
	run(t, s, "type T struct{ A int }")
	run(t, s, "type T struct {\n\tA int\n}") // the same type again
	e := fails(t, s, "type T struct{ A, B int }\nx := T{B: 1}")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "type T is already declared differently") {
		t.Errorf("redefined type: %v", e)
	}
	// A cell that compiled and then panicked declared its types too.
	fails(t, s, "type U struct{ a int }\npanic(\"x\")")
	if e := fails(t, s, "type U struct{ b string }\nfmt.Println(U{b: \"q\"})"); e.Name != "CompileError" || !strings.Contains(e.Value, "type U is already declared differently") {
		t.Errorf("type of a cell that panicked, redefined: %v", e)
	}
}

func TestPackageNameCannotBeShadowed(t *testing.T) {
	s := newSession(t)
	e := fails(t, s, `strings := "a,b"`)
	if e.Name != "CompileError" || !strings.Contains(e.Value, "strings already declared through import of package strings") {
		t.Errorf("shadowing a package: %v", e)
	}
	if r, _ := run(t, s, `strings.ToUpper("ok")`); value(r) != `"OK"` {
		t.Errorf("the package after the refusal: %s", value(r))
	}
	run(t, s, "func f() string {\n\tstrings := \"local\"\n\treturn strings\n}\nf()")
}

func TestGenericLibraryFunctions(t *testing.T) {
	s := newSession(t)
	run(t, s, "import (\n\t\"maps\"\n\t\"slices\"\n)")
	if got := out(t, s, "xs := []int{3, 1, 2}\nslices.Sort(xs)\nfmt.Print(xs)\nfs := []float64{2, 1}\nslices.Sort(fs)\nslices.Reverse(fs)\nfmt.Print(fs)\ntype ID int32\nids := []ID{5, 4}\nslices.Sort(ids)\nfmt.Print(ids, slices.Contains(xs, 2))"); got != "[1 2 3][2 1][4 5] true" {
		t.Errorf("slices.Sort/Reverse: %q", got)
	}
	for code, want := range map[string]string{
		"slices.Max(xs)": "slices.Max is generic",
		"maps.Copy(map[string]int{}, map[string]int{\"a\": 1})": "maps.Copy is generic",
	} {
		if e := fails(t, s, code); e.Name != "CompileError" || !strings.Contains(e.Value, want) || !strings.Contains(e.Value, "write it out") {
			t.Errorf("cell %q: %v", code, e)
		}
	}
}

func TestBlankAssignmentsOfDifferentTypes(t *testing.T) {
	s := newSession(t)
	run(t, s, "import (\n\t\"bytes\"\n\t\"io\"\n)\n_ = bytes.NewBuffer(nil)\n_ = io.EOF")
}

// TestRedefinedNameSeenByEarlierFunctions: freeing the old value of a
// re-bound name must not leave functions compiled before with a zero
// value; with the same type they see the new one.
func TestRedefinedNameSeenByEarlierFunctions(t *testing.T) {
	s := newSession(t)
	run(t, s, "v := 1")
	run(t, s, "func f() int { return v }")
	run(t, s, "v := 2")
	if r, _ := run(t, s, "f()"); value(r) != "2" {
		t.Errorf("f() after v := 2: %s", value(r))
	}
}

// The arguments of a deferred call are evaluated at the defer statement,
// also inside functions and loops, and recover still works in the
// deferred function.
func TestDeferArgumentsEvaluatedAtTheStatement(t *testing.T) {
	s := newSession(t)
	code := "var acc string\n" +
		"func add(args ...any) { acc += fmt.Sprint(args...) + \" \" }\n" +
		"func f() {\n\tv := 0\n\tfor i := 0; i < 3; i++ {\n\t\tv += 10\n\t\tdefer add(v)\n\t}\n\tx := []int{1}\n\tdefer add(\"x\", x[0], len(x))\n\tx[0] = 5\n}\n" +
		"func handle(s string) {\n\tif r := recover(); r != nil {\n\t\tacc += s + fmt.Sprint(r)\n\t}\n}\n" +
		"func g() {\n\ts := \"a\"\n\tdefer handle(s)\n\ts = \"b\"\n\tpanic(\"!\")\n}\n" +
		"const c = 2.5\n" +
		"func h(x float64, n int) { acc += fmt.Sprint(x, n, \" \") }\n" +
		"func k() {\n\tn := 1\n\tdefer h(c, n)\n\tdefer func(m int) { acc += fmt.Sprint(m, recover(), \" \") }(n)\n\tn = 7\n\tpanic(\"p\")\n}\n" +
		"func r(s []int) {\n\tc := make(chan []int, 1)\n\tc <- []int{1}\n\tdefer copy(s, <-c)\n}\n" +
		"f()\ng()\nk()\nxs := make([]int, 1)\nr(xs)\nfmt.Print(acc, xs)"
	if got, want := out(t, s, code), "x1 1 30 20 10 a!1p 2.5 1 [1]"; got != want {
		t.Errorf("deferred calls: %q, want %q", got, want)
	}
}

// A comma-ok result assigned to a map element changes the map.
func TestCommaOkIntoMapElement(t *testing.T) {
	s := newSession(t)
	code := "func f() (map[string]string, bool) {\n\tdata := map[string]any{\"x\": \"y\"}\n\tret := map[string]string{}\n\tvar ok bool\n\tret[\"x\"], ok = data[\"x\"].(string)\n\treturn ret, ok\n}\n" +
		"m, ok := f()\nc := make(chan int, 1)\nc <- 4\nn := map[int]int{}\nn[1], ok = <-c\nfmt.Println(m, ok, n)"
	if got, want := out(t, s, code), "map[x:y] true map[1:4]\n"; got != want {
		t.Errorf("comma-ok into map elements: %q, want %q", got, want)
	}
	e := fails(t, s, "func g(i any) bool {\n\tm := map[int]int{}\n\tvar ok bool\n\tif m[0], ok = i.(int); ok {\n\t\treturn true\n\t}\n\treturn false\n}")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "4:5") || !strings.Contains(e.Value, "comma-ok") {
		t.Errorf("comma-ok into a map element in an if header: %v", e)
	}
}

// Constructs the interpreter runs with another result than Go are refused
// with the line and the construct.
func TestSilentlyWrongConstructsAreRefused(t *testing.T) {
	s := newSession(t)
	cases := []struct{ code, pos, says string }{
		{"func f[T any](i any) string {\n\tswitch i.(type) {\n\tcase interface{ bar() T }:\n\t\treturn \"T\"\n\t}\n\treturn \"other\"\n}", "3:7", "type parameter T"},
		{"func f() int { return 1 }\nvar (\n\t_ = d\n\td = f()\n)\nfmt.Println(d)\nvar e = d + undefinedName", "3:6", "declared after it"},
		{"import \"runtime\"\nvar st runtime.MemStats\nruntime.ReadMemStats(&st)", "3:1", "runtime.ReadMemStats"},
		{"m := map[int]int{1: 5}\nv, ok := m[1]", "2:1", "var v T; var ok bool"},
	}
	for _, c := range cases {
		e := fails(t, s, c.code)
		if e.Name != "CompileError" || !strings.Contains(e.Value, c.pos) || !strings.Contains(e.Value, c.says) {
			t.Errorf("cell %q: %s: %s; want a refusal at %s saying %q", c.code, e.Name, e.Value, c.pos, c.says)
		}
	}
	// new of a type still runs.
	if got := out(t, s, "type nt struct{ a int }\nfunc mk() *nt { return new(nt) }\nfmt.Println(*new(int), mk().a)"); got != "0 0\n" {
		t.Errorf("new of types: %q", got)
	}
	// Comma-ok definitions run inside functions and blocks.
	if got := out(t, s, "m := map[int]int{1: 5}\nif v, ok := m[1]; ok {\n\tfmt.Println(v)\n}"); got != "5\n" {
		t.Errorf("comma-ok in an if header: %q", got)
	}
	// Comparisons of two values of the type parameter still run.
	if got := out(t, s, "func eq[T comparable](a, b T) bool { return a == b }\nfunc eqAny[T comparable](i any) bool {\n\tvar t T\n\treturn i == t\n}\nfmt.Println(eq(1, 1), eq(\"a\", \"b\"), eqAny[int](0))"); got != "true false true\n" {
		t.Errorf("eq: %q", got)
	}
}

// The assignment form of a select's receive case works.
func TestSelectReceiveAssignment(t *testing.T) {
	s := newSession(t)
	code := "func f() string {\n\tc := make(chan int, 1)\n\tvar i any\n\tvar n int\n\tvar ok bool\n\tm := map[int]int{}\n\tc <- 1\n\tselect {\n\tcase i = <-c:\n\t}\n\tc <- 2\n\tselect {\n\tcase n, ok = <-c:\n\t}\n\tc <- 3\n\tselect {\n\tcase m[0], ok = <-c:\n\t}\n\tc <- 4\n\tselect {\n\tcase _ = <-c:\n\t\tn++\n\tdefault:\n\t}\n\treturn fmt.Sprint(i, n, ok, m)\n}\nfmt.Println(f())"
	if got, want := out(t, s, code), "1 3 true map[0:3]\n"; got != want {
		t.Errorf("select receive assignments: %q, want %q", got, want)
	}
}

// After func main is refused, main is undefined, not the interpreter's
// package.
func TestMainIsUndefined(t *testing.T) {
	s := newSession(t)
	fails(t, s, "func main() { fmt.Println(1) }")
	e := fails(t, s, "x := 1\nmain()")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "2:1: undefined: main") || !strings.Contains(e.Value, "run()") {
		t.Errorf("main() after func main was refused: %s: %s", e.Name, e.Value)
	}
	if got := out(t, s, "func f() int {\n\tmain := 2\n\treturn main\n}\nfmt.Println(f())"); got != "2\n" {
		t.Errorf("a local variable named main: %q", got)
	}
}

// A select evaluates its channel and value operands once, in source
// order, before choosing: a call in one case that closes the channel of
// another does not change which channel that case receives from.
func TestSelectOperandsEvaluatedFirst(t *testing.T) {
	s := newSession(t)
	code := "var ch chan int\nfunc f() int {\n\tclose(ch)\n\tch = nil\n\treturn 0\n}\nfunc g() string {\n\tvar nilch chan int\n\tch = make(chan int)\n\tselect {\n\tcase <-ch:\n\t\treturn \"closed\"\n\tcase nilch <- f():\n\t\treturn \"sent\"\n\t}\n}\nfmt.Println(g())"
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rec := &recorder{}
	if r := s.Execute(ctx, code, rec); r.Err != nil || rec.text("stdout") != "closed\n" {
		t.Errorf("select with a call among its operands: %q, %v", rec.text("stdout"), r.Err)
	}
}

// TestInterpreterFaultIsAnError checks that a panic from the interpreter's
// own use of reflect, on code compiled Go runs, is reported as the
// interpreter's failure (InterpreterError) and not as a panic of the cell.
func TestInterpreterFaultIsAnError(t *testing.T) {
	s := newSession(t)
	run(t, s, "type T []int\n\nfunc (t T) Len() int { return len(t) }\ntype P int\nfunc (*P) M() {}\ntype Q struct{ *P }")
	e := fails(t, s, "f := Q.M\nf(Q{new(P)})")
	if e.Name != "InterpreterError" || !strings.Contains(e.Value, "the interpreter failed") || !strings.Contains(e.Value, "reflect") {
		t.Errorf("method expression of a promoted method: %s: %s", e.Name, e.Value)
	}
	// A panic of the cell's own stays a panic.
	if e := fails(t, s, "var m map[string]int\nm[\"a\"] = 1"); e.Name != "Panic" {
		t.Errorf("assignment to a nil map: %s: %s", e.Name, e.Value)
	}
	if got := out(t, s, "fmt.Println(T{1}.Len())"); got != "1\n" {
		t.Errorf("after the interpreter's failure: %q", got)
	}
}

// TestReceiveAmongDefinedValues checks definitions of several variables
// one of whose values is a receive: the interpreter sets the others to
// zero; the kernel evaluates the operands in order first.
func TestReceiveAmongDefinedValues(t *testing.T) {
	s := newSession(t)
	run(t, s, "func seven() int { return 7 }\n\nfunc times10(x int) int { return x * 10 }")
	cases := map[string]string{
		"ch := make(chan int, 1)\nch <- 3\na, b := <-ch, seven()\nfmt.Println(a, b)":                                           "3 7\n",
		"func g() {\n\tch := make(chan int, 1)\n\tch <- 3\n\ta, b := seven(), <-ch\n\tfmt.Println(a, b)\n}\ng()":               "7 3\n",
		"func g2() {\n\tch := make(chan int, 2)\n\tch <- 5\n\tvar a, b, c = <-ch, 1, seven()\n\tfmt.Println(a, b, c)\n}\ng2()": "5 1 7\n",
		"ch := make(chan int, 2)\nch <- 1\nch <- 2\nx, y := <-ch, times10(<-ch)\nfmt.Println(x, y)":                            "1 20\n",
	}
	for code, want := range cases {
		if got := out(t, s, code); got != want {
			t.Errorf("cell %q: %q, want %q", code, got, want)
		}
	}
	// In a header: evaluated in a block opened before the statement.
	headers := map[string]string{
		"ch := make(chan int, 1)\nch <- 3\nif a, b := <-ch, seven(); a < b {\n\tfmt.Println(a, b)\n}":                                                                                                                                              "3 7\n",
		"func h() {\n\tch := make(chan int, 4)\n\tfor i := 0; i < 2; i++ {\n\t\tch <- i + 1\n\t\tch <- 10 * (i + 1)\n\t\tswitch a, b := <-ch, <-ch; {\n\t\tcase a < b:\n\t\t\tfmt.Println(a, b, a|b)\n\t\t}\n\t}\n}\nh()":                          "1 10 11\n2 20 22\n",
		"func k() int {\n\tch := make(chan int, 3)\n\tch <- 4\n\tfor n, m := <-ch, seven(); n < m; n++ {\n\t\tfmt.Println(n, m)\n\t}\n\tgoto L\n\tif a, b := <-ch, 1; a > b {\n\t\tfmt.Println(a)\n\t}\nL:\n\treturn len(ch)\n}\nfmt.Println(k())": "4 7\n5 7\n6 7\n0\n",
	}
	for code, want := range headers {
		if got := out(t, s, code); got != want {
			t.Errorf("cell %q: %q, want %q", code, got, want)
		}
	}
	// An else if is no statement of a list: refused.
	e := fails(t, s, "ch := make(chan int, 1)\nch <- 3\nif false {\n} else if a, b := <-ch, seven(); a < b {\n\tfmt.Println(a, b)\n}")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "4:") || !strings.Contains(e.Value, "v := <-c") {
		t.Errorf("receive among values in an else if header: %s: %s", e.Name, e.Value)
	}
}

// TestRangeAssigningExistingVariables checks `for i = range x`: after the
// loop the variables hold the last iteration's values (the interpreter
// left them unchanged; over an integer, i ended at n).
func TestRangeAssigningExistingVariables(t *testing.T) {
	s := newSession(t)
	code := "func h() {\n\ti, j := -1, -1\n\tfor i = range [5]struct{}{} {\n\t}\n\tfor j = range \"abc\" {\n\t}\n\tfmt.Println(i, j)\n}\nh()\n" +
		"k, v := 0, 0\nfor k, v = range []int{4, 5, 6} {\n}\nfmt.Println(k, v)\n" +
		"for _, v = range []int{8, 9} {\n}\nfmt.Println(v)\n" +
		"for k = range 3 {\n}\nfmt.Println(k)\nfor q := range 2 {\n\tfmt.Print(q)\n}\n"
	if got, want := out(t, s, code), "4 2\n2 6\n9\n2\n01"; got != want {
		t.Errorf("range assigning to existing variables: %q, want %q", got, want)
	}
}

// TestAssignmentIndexesEvaluatedFirst checks `i, m[i] = 1, 2`: Go
// evaluates the index before assigning i; the interpreter used the new i.
func TestAssignmentIndexesEvaluatedFirst(t *testing.T) {
	s := newSession(t)
	code := "func h() {\n\tm := map[int]int{0: 1}\n\ti := 0\n\ti, m[i] = 1, 2\n\tfmt.Println(m, i)\n\tfm := map[float64]int{}\n\tj := 0\n\tj, fm[1] = 5, 3\n\tfmt.Println(fm, j)\n}\nh()\n" +
		"a := []int{1, 2, 3}\nk := 2\nk, a[k], a[0] = 0, 9, 8\nfmt.Println(a, k)\n"
	if got, want := out(t, s, code), "map[0:2] 1\nmap[1:3] 5\n[8 2 9] 0\n"; got != want {
		t.Errorf("indexes on the left of an assignment of several values: %q, want %q", got, want)
	}
	e := fails(t, s, "x := []int{1}\ny := []int{2}\nx, x[0] = y, 5")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "3:4") || !strings.Contains(e.Value, "old := x") {
		t.Errorf("an indexed operand the statement assigns: %s: %s", e.Name, e.Value)
	}
}

// TestReceiveIntoElement checks x[i] = <-c, s.f = <-c, *p = <-c and
// several receives at once: the interpreter dropped the received value.
func TestReceiveIntoElement(t *testing.T) {
	s := newSession(t)
	code := "type rs struct{ a int }\n\nfunc h() {\n\tc := make(chan int, 9)\n\tfor i := 1; i <= 6; i++ {\n\t\tc <- i\n\t}\n" +
		"\txs := []int{0, 0}\n\txs[1] = <-c\n\tvar s rs\n\ts.a = (<-c)\n\tp := new(int)\n\t*p = <-c\n\tvar arr [2]int\n\tarr[0], arr[1] = <-c, 7\n\tvar q int\n\tq, xs[0] = <-c, <-c\n" +
		"\tfmt.Println(xs, s, *p, arr, q)\n}\nh()\n" +
		"c := make(chan int, 1)\nc <- 8\nys := []int{0}\nys[0] = <-c\nfmt.Println(ys)\n"
	if got, want := out(t, s, code), "[6 1] {2} 3 [4 7] 5\n[8]\n"; got != want {
		t.Errorf("receives into elements: %q, want %q", got, want)
	}
	e := fails(t, s, "func idx() int { return 0 }\nc := make(chan int, 1)\nc <- 1\nzs := []int{0}\nzs[idx()] = <-c")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "5:1") || !strings.Contains(e.Value, "operands") {
		t.Errorf("receive into an element whose index calls a function: %s: %s", e.Name, e.Value)
	}
}

// TestRangeOverStrings checks range loops with a key over strings: the
// interpreter counted runes for `for i := range s`, gave other offsets
// after an invalid byte, and took time quadratic in the string's length.
func TestRangeOverStrings(t *testing.T) {
	s := newSession(t)
	code := "func offs(s string) {\n\tfor i := range s {\n\t\tfmt.Print(i, \" \")\n\t}\n\tfmt.Println()\n}\noffs(\"héllo\")\n" +
		"w := \"añb\"\nfor i, c := range w {\n\tfmt.Print(i, string(c), \" \")\n}\nfor i := range \"abc\" {\n\tfmt.Print(i)\n}\nfor range \"a\\xffb\" {\n\tfmt.Print(\".\")\n}\n" +
		"for i, v := range []int{5, 6} {\n\tfmt.Print(i, v)\n}\n" +
		"func smile() string { return \"ab☺c\" }\n\nfunc sm() {\n\tfor i := range smile() {\n\t\tfmt.Print(i)\n\t}\n}\nsm()\nfor _, c := range \"a\\xffb\" {\n\tfmt.Print(\" \", c)\n}\n"
	if got, want := out(t, s, code), "0 1 3 4 5 \n0a 1ñ 3b 012...0 51 60125 97 65533 98"; got != want {
		t.Errorf("range over strings: %q, want %q", got, want)
	}
	// With the type of the range expression known, the loop runs over
	// byte offsets and gives Go's offsets and runes for invalid UTF-8 too
	// (Go's stringrange.go); the outputs are those of the same program
	// compiled.
	body := "var fs []func() int\nvar i int\nvar c rune\nL:\nfor i, c = range S(\"\\xef\\xbf\\xbdé\\xe2\\x82x\\U0010FFFF\\xf0\\x9f\") {\n" +
		"\tfor k, v := range \"ab\" {\n\t\tif k == 1 && c == 'x' {\n\t\t\tcontinue L\n\t\t}\n\t\tfmt.Print(\" \", k, v, c)\n\t}\n" +
		"\ti := i * 10\n\tfs = append(fs, func() int { return i })\n}\nfmt.Println(i, c)\nfor _, f := range fs {\n\tfmt.Print(f(), \" \")\n}\nfmt.Println()\n" +
		"i, c = 7, 8\nfor i, c = range \"\" {\n}\nfmt.Println(i, c)\nfor k, _ := range \"日本\\x80語\" {\n\tif k == 6 {\n\t\tbreak\n\t}\n\tfmt.Print(k, \" \")\n}\nfmt.Println()\n"
	want := "01\n0 971 655332 98\n" +
		" 0 97 65533 1 98 65533 0 97 233 1 98 233 0 97 65533 1 98 65533 0 97 65533 1 98 65533 0 97 120 0 97 1114111 1 98 1114111 0 97 65533 1 98 65533 0 97 65533 1 98 6553313 65533\n" +
		"0 30 50 60 80 120 130 \n7 8\n0 3 \n"
	head := "var a any = \"x\"\nb := fmt.Sprint(a) + \"ü\"\nfor i := range b {\n\tfmt.Print(i)\n}\nfmt.Println()\n" +
		"for i, c := range bad() {\n\tfmt.Print(i, c)\n}\nfmt.Println()\n"
	run(t, s, "type S string\n\nfunc bad() string { return \"a\\xffb\" }")
	if got := out(t, s, head+body); got != want {
		t.Errorf("range over strings at the top level:\n%q\nwant\n%q", got, want)
	}
	indented := "\t" + strings.ReplaceAll(strings.TrimSuffix(head+body, "\n"), "\n", "\n\t")
	indented = strings.ReplaceAll(indented, "\tL:", "L:")
	if got := out(t, s, "func ranges() {\n"+indented+"\n}\nranges()"); got != want {
		t.Errorf("range over strings in a function:\n%q\nwant\n%q", got, want)
	}
}

// TestAssertionToInterfacePanics checks x.(I) where the value lacks a
// method of I: the interpreter gave a nil I; Go panics with a
// runtime.Error.
func TestAssertionToInterfacePanics(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"runtime\"")
	code := "type AI interface{ Foo() }\ntype AS struct{}\n\nfunc (*AS) Bar() {}\n\nfunc (*AS) String() string { return \"as\" }\n\n" +
		"func try(e any, n int) {\n\tdefer func() {\n\t\tr := recover()\n\t\t_, isRuntime := r.(runtime.Error)\n\t\tfmt.Print(isRuntime, \" \")\n\t}()\n" +
		"\tswitch n {\n\tcase 0:\n\t\ti := e.(AI)\n\t\t_ = i\n\tcase 1:\n\t\tvar st fmt.Stringer = e.(fmt.Stringer)\n\t\t_ = st\n\tcase 2:\n\t\tvar b interface{ Baz() } = e.(interface{ Baz() })\n\t\t_ = b\n\t}\n}\n" +
		"for n := range 3 {\n\ttry(&AS{}, n)\n}\ntry(nil, 0)\n"
	if got, want := out(t, s, code), "true false true true "; got != want {
		t.Errorf("assertions to interfaces: %q, want %q", got, want)
	}
	e := fails(t, s, "func conv(x any) AI {\n\treturn x.(AI)\n}\nconv(3)")
	if e.Name != "Panic" || !strings.Contains(e.Value, "interface conversion: int is not main.AI: missing method") {
		t.Errorf("failed assertion: %s: %s", e.Name, e.Value)
	}
}

// TestSelectCaseVariablesPerRun checks case x := <-c: each run of the
// select has its own x (the interpreter shared one, so pointers taken in
// a loop all saw the last value).
func TestSelectCaseVariablesPerRun(t *testing.T) {
	s := newSession(t)
	code := "func h() {\n\tch := make(chan int, 1)\n\tvar ptrs [2]*int\n\tfor i := range ptrs {\n\t\tch <- i\n\t\tselect {\n\t\tcase x := <-ch:\n\t\t\tptrs[i] = &x\n\t\t}\n\t}\n\tfmt.Println(*ptrs[0], *ptrs[1])\n}\nh()"
	if got, want := out(t, s, code), "0 1\n"; got != want {
		t.Errorf("pointers to select case variables: %q, want %q", got, want)
	}
}

// TestBlankOfNilDereferencePanics checks _ = *p and _ = p.f with a nil p
// inside a function: Go panics; the interpreter did not evaluate them.
func TestBlankOfNilDereferencePanics(t *testing.T) {
	s := newSession(t)
	code := "type bp struct{ f int }\n\nfunc try(f func()) {\n\tdefer func() { fmt.Print(recover() != nil, \" \") }()\n\tf()\n}\n\nfunc h() {\n\tvar m [2]*int\n\tvar p *bp\n" +
		"\ttry(func() { _ = *m[1] })\n\ttry(func() { _ = p.f })\n\tq := &bp{3}\n\ttry(func() { _ = q.f })\n}\nh()"
	if got, want := out(t, s, code), "true true false "; got != want {
		t.Errorf("blank assignments of nil dereferences: %q, want %q", got, want)
	}
}

// TestAssignedValuesEvaluatedFirst checks a, b = f(), g() where the calls
// read the variables, and return b, a with named results: Go evaluates
// every value before assigning; the interpreter assigned each in turn.
func TestAssignedValuesEvaluatedFirst(t *testing.T) {
	s := newSession(t)
	code := "func h() {\n\tvar a, b, c int\n\tf := func() int { b--; return -b }\n\ta, b, c = f(), f(), f()\n\tfmt.Println(a, b, c)\n}\nh()\n" +
		"func swap() (a, b int) {\n\ta, b = 1, 2\n\treturn b, a\n}\nfmt.Println(swap())\n"
	if got, want := out(t, s, code), "1 2 3\n2 1\n"; got != want {
		t.Errorf("values of an assignment and a return: %q, want %q", got, want)
	}
}

// TestTypeSwitchOnFunctionTypes checks a type switch with a case of a
// function type: a function returned as interface{} is the interpreter's
// internal node, which matched no case, and any in a case type matched no
// function returning interface{}; the cell stops with a message or runs
// as in Go.
func TestTypeSwitchOnFunctionTypes(t *testing.T) {
	s := newSession(t)
	run(t, s, "func ff(i int) any {\n\tif i == 0 {\n\t\treturn ff\n\t}\n\treturn i\n}\n\nfunc kind(x any) string {\n\tswitch x.(type) {\n\tcase func(int) any:\n\t\treturn \"func\"\n\tcase int:\n\t\treturn \"int\"\n\t}\n\treturn \"other\"\n}")
	if got := out(t, s, "var v any = ff\nfmt.Println(kind(v), kind(ff(1)))"); got != "func int\n" {
		t.Errorf("type switch on a function converted in place and an int: %q", got)
	}
	// A function returned as interface{} is held in a variable of that
	// type first (anyReturnEdits).
	if got := out(t, s, "fmt.Println(kind(ff(0)))"); got != "func\n" {
		t.Errorf("function returned as interface{}: %q", got)
	}
}

// TestDeclarationsFailingInTheInterpreter checks a cell of declarations
// only, which runs none of its code in Go, on which the interpreter
// panics (here in its instantiation of generic types): an
// InterpreterError, not a panic of the cell.
func TestDeclarationsFailingInTheInterpreter(t *testing.T) {
	s := newSession(t)
	// The generic types are declared in a cell before, whose
	// instantiations the kernel does not follow (a conversion to one in
	// the same cell runs).
	run(t, s, "type Iterator[T any] interface {\n\tIterate()\n}\n\ntype IteratorFunc[T any] func(fn func(T) bool)\n\nfunc (f IteratorFunc[T]) Iterate() {\n}\n")
	code := "func FromIterator[T any](it Iterator[T]) {\n\tit.Iterate()\n}\n\nfunc Foo[T, R any]() {\n\tFromIterator[R](IteratorFunc[R](nil))\n}\n\nfunc useFoo() {\n\tFoo[int, int]()\n}\n"
	e := fails(t, s, code)
	if e.Name != "InterpreterError" || !strings.Contains(e.Value, "declarations of the cell") {
		t.Errorf("declarations the interpreter fails on: %s: %s", e.Name, e.Value)
	}
	if e := fails(t, s, "var zz []int\nvar vv = zz[3]"); e.Name != "Panic" {
		t.Errorf("a var initializer's panic: %s: %s", e.Name, e.Value)
	}
}

// TestNegatedConstantZeroIsZero checks -c for a constant c of 0.0: Go's
// constants have no negative zero; the interpreter negated at run time.
func TestNegatedConstantZeroIsZero(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"math\"")
	code := "const zero = 0.0\n\nfunc h() (bool, bool, bool) {\n\tx := -zero\n\ty := -float64(zero)\n\tv := 0.0\n\treturn math.Signbit(x), math.Signbit(y), math.Signbit(-v)\n}\nfmt.Println(h())\nfmt.Println(-2.5 * -zero, -3)"
	if got, want := out(t, s, code), "false false true\n0 -3\n"; got != want {
		t.Errorf("negated constant zero: %q, want %q", got, want)
	}
}

// TestAppendValuesReadFirst checks append(s[:i], x, s[i]) into the same
// array: Go reads every value before storing; the interpreter stored x
// before it read s[i].
func TestAppendValuesReadFirst(t *testing.T) {
	s := newSession(t)
	code := "func h() string {\n\ts := make([]byte, 5, 6)\n\tcopy(s, \"12346\")\n\ts = append(s[:len(s)-1], '5', s[len(s)-1])\n\treturn string(s)\n}\nfmt.Println(h())"
	if got, want := out(t, s, code), "123456\n"; got != want {
		t.Errorf("append of values read from the same array: %q, want %q", got, want)
	}
}

// TestRecoveredNilArrayPointerAndAssertion checks the values recovered
// from p[0] with a nil *[10]int and from a failed assertion to an
// interface: runtime.Errors with Go's words.
func TestRecoveredNilArrayPointerAndAssertion(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"runtime\"")
	code := "type mi interface{ m() }\n\nfunc check(f func()) {\n\tdefer func() {\n\t\tr, ok := recover().(runtime.Error)\n\t\tif ok {\n\t\t\tfmt.Println(r.Error())\n\t\t}\n\t}()\n\tf()\n}\n\n" +
		"func h() {\n\tvar p *[10]int\n\tcheck(func() { println(p[0]) })\n\tvar inter interface{} = 1\n\tcheck(func() { println(inter.(mi)) })\n}\nh()"
	got := out(t, s, code)
	if !strings.Contains(got, "nil pointer dereference") || !strings.Contains(got, "interface conversion: int is not main.mi: missing method m\n") {
		t.Errorf("recovered runtime errors: %q", got)
	}
}

// TestTypeSwitchOnInterfaceTypeParameter checks case T: in a generic
// function instantiated with an interface type: the interpreter matched
// other values than Go; the cell stops with a message. With a concrete T
// it runs.
func TestTypeSwitchOnInterfaceTypeParameter(t *testing.T) {
	s := newSession(t)
	run(t, s, "func tsw[T any](i interface{}) string {\n\tswitch i.(type) {\n\tcase T:\n\t\treturn \"T\"\n\tcase int:\n\t\treturn \"int\"\n\t}\n\treturn \"other\"\n}")
	if got := out(t, s, "fmt.Println(tsw[string](\"a\"), tsw[string](6))"); got != "T int\n" {
		t.Errorf("case T with concrete types: %q", got)
	}
	// Refused where it is instantiated so (IfaceCopyEdits); where that
	// is not seen, the switch stops at run time.
	e := fails(t, s, "fmt.Println(tsw[interface{}](6))")
	if !(e.Name == "InterpreterError" && strings.Contains(e.Value, "case T for the type parameter T") ||
		e.Name == "CompileError" && strings.Contains(e.Value, "tsw instantiated with the interface type")) {
		t.Errorf("case T with an interface type: %s: %s", e.Name, e.Value)
	}
}

// TestCallResultsIntoMapElement checks m[k], err = f(): the interpreter
// left the map unchanged.
func TestCallResultsIntoMapElement(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"strconv\"")
	code := "func two() (int, int) { return 3, 4 }\n\nfunc h() {\n\tm := map[string]int{}\n\tvar err error\n\tm[\"a\"], err = strconv.Atoi(\"5\")\n\tm[\"b\"], m[\"c\"] = two()\n\tfmt.Println(m, err)\n}\nh()\n" +
		"top := map[string]int{}\nvar x int\nx, top[\"d\"] = two()\nfmt.Println(x, top)"
	if got, want := out(t, s, code), "map[a:5 b:3 c:4] <nil>\n3 map[d:4]\n"; got != want {
		t.Errorf("call results into map elements: %q, want %q", got, want)
	}
	e := fails(t, s, "func key() string { return \"k\" }\nmm := map[string]int{}\nmm[key()], _ = two()")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "3:1") || !strings.Contains(e.Value, "operands") {
		t.Errorf("call results into an element whose key calls a function: %s: %s", e.Name, e.Value)
	}
}

// TestAssertionOfAStructFromReflect checks an assertion to an interface of
// a cell struct value that came back from reflect: the interpreter lost
// its methods, so the assertion failed where Go's succeeds; the cell
// stops with a message.
func TestAssertionOfAStructFromReflect(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"reflect\"")
	code := "type Rnd interface{ Render() error }\ntype Zs struct{}\n\nfunc (Zs) Render() error { return nil }\n\ntype Ctr struct {\n\tZs\n\tN int\n}\n\n" +
		"func render(iface any) {\n\t_ = reflect.ValueOf(iface).Field(0).Interface().(Rnd).Render()\n}\nrender(Ctr{})"
	e := fails(t, s, code)
	if e.Name != "InterpreterError" || !strings.Contains(e.Value, "lost its methods") {
		t.Errorf("assertion of a struct from reflect: %s: %s", e.Name, e.Value)
	}
}

// TestReflectOnCellStructsWithUnexportedFields checks reflect.TypeOf and
// ValueOf of a cell struct with unexported fields, whose field names the
// interpreter renames (f is Xf): the cell stops with a message; structs
// with exported fields only still work.
func TestReflectOnCellStructsWithUnexportedFields(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"reflect\"")
	if got := out(t, s, "type ExpS struct{ A, B int }\nfmt.Println(reflect.TypeOf(ExpS{}).Field(1).Name, reflect.ValueOf(ExpS{3, 4}).Field(0).Int())"); got != "B 3\n" {
		t.Errorf("reflect on exported fields: %q", got)
	}
	for _, code := range []string{"type unS struct{ f int }\nfmt.Println(reflect.TypeOf(unS{}).Field(0).Name)", "type unT struct{ A int; _ int }\nfmt.Println(reflect.ValueOf([]unT{}).Len())"} {
		e := fails(t, s, code)
		if e.Name != "InterpreterError" || !strings.Contains(e.Value, "renamed X") {
			t.Errorf("cell %q: %s: %s", code, e.Name, e.Value)
		}
	}
}

// TestSwitchCaseLists checks case a, b: where b is an expression (or, in
// a switch without a tag, anything): the interpreter tested a only.
func TestSwitchCaseLists(t *testing.T) {
	s := newSession(t)
	code := "func cls(b byte) string {\n\tswitch {\n\tcase '0' <= b && b <= '9',\n\t\t'A' <= b && b <= 'Z':\n\t\treturn \"ok\"\n\t}\n\treturn \"bad\"\n}\n\n" +
		"func tagged(x, y int) string {\n\tswitch x {\n\tcase y + 0, y + 2:\n\t\treturn \"in\"\n\t}\n\treturn \"out\"\n}\n" +
		"fmt.Println(cls('5'), cls('A'), cls('#'), tagged(1, 1), tagged(3, 1), tagged(2, 1))\nb := true\nswitch {\ncase false, b:\n\tfmt.Println(\"b\")\n}"
	if got, want := out(t, s, code), "ok ok bad in in out\nb\n"; got != want {
		t.Errorf("case lists: %q, want %q", got, want)
	}
}

// TestNilDereferenceAssignedPanics checks values read through a nil
// pointer: m[k] = *p deleted m[k] instead of panicking, ok, _ = true, *p
// did not read *p, and return true, *p left true in the first result for
// a deferred recover to see.
func TestNilDereferenceAssignedPanics(t *testing.T) {
	s := newSession(t)
	code := "func h() (n int, r bool) {\n\tm := map[int]int{0: 1}\n\tvar p *int\n\tdefer func() { r = recover() != nil; n = len(m) }()\n\tm[0] = *p\n\treturn\n}\n" +
		"func f() (bad bool) {\n\tdefer func() { recover() }()\n\tvar p *int\n\tbad, _ = true, *p\n\treturn\n}\n" +
		"func g() (bool, int) {\n\tdefer func() { recover() }()\n\tvar p *int\n\treturn true, *p\n}\n" +
		"fmt.Println(h())\nfmt.Println(f())\nfmt.Println(g())"
	if got, want := out(t, s, code), "1 true\nfalse\nfalse 0\n"; got != want {
		t.Errorf("nil dereferences assigned: %q, want %q", got, want)
	}
	fails(t, s, "m := map[int]int{0: 1}\nvar p *int\nm[0] = *p")
}

// TestInitOrderThroughCalls checks package-level variables whose
// initializers reach a variable declared after them through a function or
// method, or from a blank variable: Go initializes that variable first,
// the interpreter did not (0 where Go has 1); the declarations are
// written in Go's order, and where they cannot be (two blank variables)
// the cell is refused.
func TestInitOrderThroughCalls(t *testing.T) {
	s := newSession(t)
	for code, want := range map[string]string{
		"type T int\nfunc (T) M() int { return a1 }\nvar d1 = T(0).M()\nvar a1 = id1(1)\nfunc id1(x int) int { return x }\nfmt.Println(d1, a1)": "1 1\n",
		"func f() int { return a2 }\nvar d2 = f()\nvar a2 = id2(1)\nfunc id2(x int) int { return x }\nfmt.Println(d2, a2)":                      "1 1\n",
		"var _ = func() int { a3 = false; return 0 }()\nvar a3 = true\nvar b3 = a3\nfmt.Println(a3, b3)":                                        "false false\n",
	} {
		if got := out(t, s, code); got != want {
			t.Errorf("cell %q: %q, want %q", code, got, want)
		}
	}
	e := fails(t, s, "var _ = func() int { a = false; return 0 }()\nvar _ = 1\nvar a = true\nvar b = a")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "declare a before") {
		t.Errorf("two blank variables: %v", e)
	}
	// What the interpreter orders itself still runs.
	code := "var x = y + 1\nvar y = id(2)\nvar z = func() int { return w }()\nvar w = id(5)\nfunc id(a int) int { return a }\n" +
		"var fa = func() int { return 1 }\nvar _ = fa() + gb()\nvar gb = func() int { return 2 }\nfmt.Println(x, y, z, w)"
	if got, want := out(t, s, code), "3 2 5 5\n"; got != want {
		t.Errorf("initialization in dependency order: %q, want %q", got, want)
	}
}

// TestNegatedTinyLiteralIsZero checks -1e-10000, which rounds to 0 in Go
// and was negative zero.
func TestNegatedTinyLiteralIsZero(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"math\"")
	if got, want := out(t, s, "var m = -1e-10000\nfmt.Println(math.Signbit(m), -1e-10000*1e10000)"), "false -1\n"; got != want {
		t.Errorf("negated literal below float64's range: %q, want %q", got, want)
	}
}

// TestNegativeShiftPanics checks shifts by a negative count: Go panics,
// the interpreter shifted by a huge count (1 << -1 was 0).
func TestNegativeShiftPanics(t *testing.T) {
	s := newSession(t)
	code := "func f(s int) (r any) {\n\tdefer func() {\n\t\tif e := recover(); e != nil {\n\t\t\tr = e.(error).Error()\n\t\t}\n\t}()\n\tx := 1 << s\n\ty := uint(6)\n\ty >>= s\n\tfor i := 0; i>>s < 1; i++ {\n\t\tx += i\n\t}\n\treturn x + int(y)\n}\n" +
		"func g(s int8) (r any) {\n\tdefer func() { r = recover() }()\n\tfor i := 0; i>>s < 1; i++ {\n\t}\n\treturn 0\n}\n" +
		"const n = 3\nconst m = 1 << n\nvar arr [1 << n]int\nfmt.Println(f(1), f(-1), g(-1), m, len(arr))"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rec := &recorder{}
	r := s.Execute(ctx, code, rec) // the loops never ended without the panics
	if got, want := rec.text("stdout"), "6 runtime error: negative shift amount runtime error: negative shift amount 8 8\n"; r.Err != nil || got != want {
		t.Errorf("shifts by negative counts: %q, %v; want %q", got, r.Err, want)
	}
	if e := fails(t, s, "v := -2\nw := 8 >> v\n_ = w"); !strings.Contains(e.Value, "negative shift amount") {
		t.Errorf("top-level shift by -2: %v", e)
	}
}

// TestNegativeZeroArgumentStops checks a call of a cell's function with
// negative zero for a float parameter: the interpreter passed +0 (Go's
// 1/id(n) is -Inf, it gave +Inf), so the cell stops with a message.
func TestNegativeZeroArgumentStops(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"math\"")
	code := "func id(x float64) float64 { return x }\nfunc inv(x float32) float32 { return 1 / x }\nfmt.Println(id(2.5), id(0), inv(0.5))\n" +
		"func h() float64 {\n\tn := math.Copysign(0, -1)\n\treturn 1 / id(n)\n}\nfmt.Println(h())"
	e := fails(t, s, code)
	if e.Name != "InterpreterError" || !strings.Contains(e.Value, "argument 1 of id is negative zero") {
		t.Errorf("negative zero passed to id: %v", e)
	}
	if got, want := out(t, s, "fmt.Println(id(2.5), id(0), inv(0.5))"), "2.5 0 2\n"; got != want {
		t.Errorf("calls with other values: %q, want %q", got, want)
	}
}

// TestBlankCommaOkIndexPanics checks _, _ = m[k] with a key of an
// unhashable type: Go panics, the interpreter did not index at all.
func TestBlankCommaOkIndexPanics(t *testing.T) {
	s := newSession(t)
	code := "func h() (r bool) {\n\tdefer func() { r = recover() != nil }()\n\tm := map[any]int{}\n\tk := []int{}\n\t_, _ = m[k]\n\treturn\n}\nfmt.Println(h())"
	if got, want := out(t, s, code), "true\n"; got != want {
		t.Errorf("_, _ = m[k] with an unhashable key panicked: %q, want %q", got, want)
	}
}

// TestHeaderAssignments checks an assignment of several values with a
// call in the init of an if, switch or for statement: the interpreter
// left the values before the call unassigned (if want, got = a+1, f(a)
// gave want 0), also in a loop's post statement.
func TestHeaderAssignments(t *testing.T) {
	s := newSession(t)
	code := "func f(x int) int { return x + 1 }\nfunc h() {\n\ta := 5\n\tvar want, got int\n\tif want, got = a+1, f(a); got != want {\n\t\tfmt.Println(\"if\", want, got)\n\t}\n" +
		"\tswitch want, got = a+2, f(a); {\n\tdefault:\n\t\tfmt.Println(\"switch\", want, got)\n\t}\n\tfor want, got = a+3, f(a); want > 0; want = 0 {\n\t\tfmt.Println(\"for\", want, got)\n\t}\n}\nh()"
	if got, want := out(t, s, code), "switch 7 6\nfor 8 6\n"; got != want {
		t.Errorf("assignments in headers: %q, want %q", got, want)
	}
	code = "n := 0\nfor a, b := 0, 0; n < 3; b, a = f(b), n+10 {\n\tn++\n\tfmt.Print(a, b, \" \")\n}"
	if got, want := out(t, s, code), "0 0 11 1 12 2 "; got != want {
		t.Errorf("assignment with a call in a post statement: %q, want %q", got, want)
	}
}

// TestFloatCaseInIntegerSwitch checks case 1e16: in a switch on a uint64:
// the interpreter compared as floats, so that 1e16+1 matched.
func TestFloatCaseInIntegerSwitch(t *testing.T) {
	s := newSession(t)
	code := "func pow10(x uint64) bool {\n\tswitch x {\n\tcase 1e15, 1e16:\n\t\treturn true\n\t}\n\treturn false\n}\n" +
		"var n uint64 = 1e16\nfmt.Println(pow10(n), pow10(n+1), pow10(1e15), pow10(3))\nvar v any = 2.0\nswitch v {\ncase 1e0:\n\tfmt.Println(\"one\")\ncase 2e0:\n\tfmt.Println(\"two\")\n}"
	if got, want := out(t, s, code), "true false true false\ntwo\n"; got != want {
		t.Errorf("float cases: %q, want %q", got, want)
	}
}

// TestConcreteAssertionsOfTypesAlike checks assertions and type switch
// cases to types the interpreter represents alike: it matched x.(int) for
// a MyInt, x.(B) for an A with the same fields and x.(time.Duration) for
// a type declared from it (Go's fixedbugs/bug148.go, bug201.go), silently.
func TestConcreteAssertionsOfTypesAlike(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"time\"")
	run(t, s, "type MyInt int")
	for _, c := range []struct{ code, want string }{
		{"func f(x any) bool { _, ok := x.(int); return ok }\nf(MyInt(1))", "cannot tell int from MyInt"},
		{"func f(x any) string {\n\tswitch x.(type) {\n\tcase int:\n\t\treturn \"int\"\n\t}\n\treturn \"other\"\n}", "3:7: not supported by the interpreter: case int: of a type switch: the interpreter cannot tell int from MyInt"},
		{"var y any = 1\nvar ok bool\n_, ok = y.(MyInt)", "cannot tell MyInt from int"},
		{"type A struct{ a, b int }\ntype B struct{ a, b int }\nfunc g(x any) B { return x.(B) }", "cannot tell B from A"},
		{"type MyDur time.Duration\nfunc d(x any) bool { _, ok := x.([]time.Duration); return ok }", "cannot tell time.Duration from MyDur"},
		{"type T struct{ a, b int }\nfunc p(x any) T {\n\ttype T struct{ a, b int }\n\treturn x.(T)\n}", "4:12: not supported by the interpreter: the type assertion x.(T): the interpreter cannot tell T from another T"},
		{"func h() bool {\n\ttype L string\n\tvar x any = L(\"a\")\n\t_, ok := x.(string)\n\treturn ok\n}", "cannot tell string from L"},
	} {
		e := fails(t, s, c.code)
		if e.Name != "CompileError" || !strings.Contains(strings.ToLower(e.Value), strings.ToLower(c.want)) {
			t.Errorf("%q: %s: %s", c.code, e.Name, e.Value)
		}
	}
	// Types the interpreter tells apart run as in Go.
	code := "type Node struct{ next *Node; v int }\ntype Other struct{ v string }\nfunc kind(x any) string {\n\tswitch v := x.(type) {\n\tcase *Node:\n\t\treturn \"node\"\n\tcase Other:\n\t\treturn v.v\n\t}\n\treturn \"other\"\n}\n" +
		"func is(x any) (bool, bool) { _, isNode := x.(*Node); _, isOther := x.(Other); return isNode, isOther }\n" +
		"var n any = &Node{v: 1}\nisNode, isOther := is(n)\nfmt.Println(kind(n), kind(Other{\"o\"}), kind(1.5), isNode, isOther)"
	if got, want := out(t, s, code), "node o other true false\n"; got != want {
		t.Errorf("assertions to types told apart: %q, want %q", got, want)
	}
}

// TestTypeSwitchOnCellTypes checks type switches with cases of a cell's
// types: without a bound variable the interpreter matched no value of a
// cell type, and with one no value of a cell type with methods, silently.
func TestTypeSwitchOnCellTypes(t *testing.T) {
	s := newSession(t)
	run(t, s, "type A struct{ x int }\ntype P struct{ s string }\n\nfunc (P) String() string { return \"p\" }\n\ntype N struct{ next *N }\n\nfunc kind(x any) string {\n\tswitch x.(type) {\n\tcase A:\n\t\treturn \"A\"\n\tcase *N, P:\n\t\treturn \"N or P\"\n\tcase nil:\n\t\treturn \"nil\"\n\tcase int:\n\t\treturn \"int\"\n\t}\n\treturn \"other\"\n}\n\nfunc bound(x any) string {\n\tout := \"\"\nL:\n\tswitch v := x.(type) {\n\tcase P:\n\t\tout = v.s\n\t\tif v.s == \"stop\" {\n\t\t\tbreak L\n\t\t}\n\t\tout += \"!\"\n\tcase A, nil:\n\t\tout = fmt.Sprint(v)\n\tdefault:\n\t\tout = fmt.Sprintf(\"%v\", v)\n\t}\n\treturn out\n}")
	if got, want := out(t, s, "for _, x := range []any{A{1}, &N{}, P{\"q\"}, nil, 3, \"s\"} {\n\tfmt.Print(kind(x), \" \")\n}"), "A N or P N or P nil int other "; got != want {
		t.Errorf("type switch without a variable: %q, want %q", got, want)
	}
	if got, want := out(t, s, "for _, x := range []any{P{\"stop\"}, P{\"go\"}, A{2}, nil, 1.5} {\n\tfmt.Print(bound(x), \" \")\n}"), "stop go! {2} <nil> 1.5 "; got != want {
		t.Errorf("labeled type switch with a variable: %q, want %q", got, want)
	}
	// Cases of interfaces of the cell and of the standard library.
	run(t, s, "import \"errors\"")
	run(t, s, "type I interface{ M() string }\ntype B struct{ y int }\n\nfunc (b B) M() string { return fmt.Sprint(\"B\", b.y) }\n\n"+
		"func what(x any) string {\n\tswitch v := x.(type) {\n\tcase A:\n\t\treturn fmt.Sprint(\"A\", v.x)\n\tcase I:\n\t\treturn v.M()\n\tcase error:\n\t\treturn v.Error()\n\t}\n\treturn \"none\"\n}")
	if got, want := out(t, s, "for _, x := range []any{A{1}, B{2}, errors.New(\"e\"), 4} {\n\tfmt.Print(what(x), \" \")\n}"), "A1 B2 e none "; got != want {
		t.Errorf("type switch with interface cases: %q, want %q", got, want)
	}
}

// TestCommaOkAssertionWithCallsOnTheLeft: in *f(), ok = g().(T) Go calls f
// first; the interpreter called g first (Go's fixedbugs/bug242.go), so the
// statement is refused.
func TestCommaOkAssertionWithCallsOnTheLeft(t *testing.T) {
	s := newSession(t)
	code := "var order string\nvar x int\nfunc f() *int { order += \"f\"; return &x }\nfunc g() any { order += \"g\"; return 3 }\nfunc h() bool {\n\tvar ok bool\n\t*f(), ok = g().(int)\n\treturn ok\n}"
	e := fails(t, s, code)
	if e.Name != "CompileError" || !strings.Contains(e.Value, "7:2: not supported by the interpreter: a comma-ok assertion") {
		t.Errorf("%s: %s", e.Name, e.Value)
	}
}

// TestCommaOkIntoExistingVariables: i, ok = m[k] with k missing, and i,
// ok = x.(T) failing, set i to zero in Go; the interpreter left it
// unchanged.
func TestCommaOkIntoExistingVariables(t *testing.T) {
	s := newSession(t)
	code := "func f() {\n\tm := map[string]int{\"y\": 5}\n\ti := 42\n\tvar ok bool\n\ti, ok = m[\"x\"]\n\tfmt.Print(i, ok, \" \")\n\ti, ok = m[\"y\"]\n\tfmt.Print(i, ok, \" \")\n\tvar u any = \"s\"\n\tj := 7\n\tj, ok = u.(int)\n\tfmt.Print(j, ok, \" \")\n}\nf()\nk := 3\nvar found bool\nk, found = map[int]int{}[1]\nfmt.Print(k, found)"
	if got := out(t, s, code); got != "0 false 5 true 0 false 0 false" {
		t.Errorf("output %q, want %q", got, "0 false 5 true 0 false 0 false")
	}
	e := fails(t, s, "func g(u any) int {\n\tj := 7\n\tvar ok bool\n\tif j, ok = u.(int); !ok {\n\t\treturn -1\n\t}\n\treturn j\n}")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "4:5: not supported by the interpreter: a comma-ok result assigned to existing variables") {
		t.Errorf("%s: %s", e.Name, e.Value)
	}
}

// TestTypedNilPointerReturnedAsError: Go's error holding a nil pointer is
// not nil; the interpreter made it nil, so such returns are refused unless
// a nil check guards them.
func TestTypedNilPointerReturnedAsError(t *testing.T) {
	s := newSession(t)
	run(t, s, "type E struct{}\nfunc (e *E) Error() string { return \"E\" }")
	e := fails(t, s, "func y() error {\n\tvar q *E\n\treturn q\n}")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "3:9: not supported by the interpreter: return q, a pointer, as an error") {
		t.Errorf("%s: %s", e.Name, e.Value)
	}
	code := "func z(p *E) error {\n\tif p == nil {\n\t\treturn nil\n\t}\n\treturn p\n}\nfunc w(p *E) error {\n\tif p != nil {\n\t\treturn p\n\t}\n\treturn nil\n}\nfmt.Print(z(nil) != nil, z(&E{}) != nil, w(nil) != nil, w(&E{}) != nil)"
	if got := out(t, s, code); got != "false true false true" {
		t.Errorf("guarded returns: %q, want %q", got, "false true false true")
	}
}

// TestConstantComparisons: the interpreter gives a constant whose value
// compares the value false (const ok = 1 == 1). The kernel writes out the
// values it can compute (the cell's constants) and refuses the others.
func TestConstantComparisons(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"math\"\nconst c0 = 1")
	for code, want := range map[string]string{
		"const ok = math.MaxInt8 > 1\nfmt.Println(ok)":                 "1:12: not supported by the interpreter: a constant whose value uses >",
		"func f() bool {\n\tconst k = c0 == 1 || false\n\treturn k\n}": "2:12: not supported by the interpreter: a constant whose value uses ||",
	} {
		e := fails(t, s, code)
		if e.Name != "CompileError" || !strings.Contains(e.Value, want) {
			t.Errorf("cell %q: %s: %s; want %q", code, e.Name, e.Value, want)
		}
	}
	for code, want := range map[string]string{
		"const x, y = 1 << 3, \"a\" + \"b\"\nvar ok = 1 == 1\nfmt.Print(x, y, ok)":                                 "8abtrue",
		"const ok = 1 == 1\nfmt.Print(ok)":                                                                         "true",
		"func f() bool {\n\tconst k = 2 > 1 || false\n\treturn k\n}\nfmt.Print(f())":                               "true",
		"type B bool\nconst (\n\tm B = iota == 0\n\tn\n)\nfmt.Print(m, n)":                                         "true false",
		"const (\n\ts = string(iota + 'a')\n\tt\n\tu = 1.0 / (iota + 1)\n\tw = u*3 == 1\n)\nfmt.Print(s, t, u, w)": "ab0.3333333333333333 true",
	} {
		if got := out(t, s, code); got != want {
			t.Errorf("cell %q: %q, want %q", code, got, want)
		}
	}
}

// TestHugeConstantOperations: the interpreter computed operations on
// untyped integer constants in an int64 and failed on those beyond it
// ("constant 9223372036854775808 overflows int64"; Go's test/const.go,
// fixedbugs/issue4752.go).
func TestHugeConstantOperations(t *testing.T) {
	s := newSession(t)
	// In order: the last cell uses big of the second.
	for _, c := range []struct{ code, want string }{
		{"func g() {\n\tvar x, y uint64 = 0, 1 << 63\n\tfmt.Print(x, y)\n}\ng()", "0 9223372036854775808"},
		{"const big = 1 << 100\nfunc h() {\n\tvar f float64 = big - 1\n\tfmt.Print(big > big-1, big-1+1 == big, f, uint64(1<<64-1), -(big>>40)/3)\n}\nh()", "true true 1.2676506002282294e+30 18446744073709551615 -384307168202282325"},
		{"const h uint64 = 1<<64 - 1\nfmt.Printf(\"%T %v %v\", h, h, big>>90 == 1024 && !(big < 0))", "uint64 18446744073709551615 true"},
	} {
		if got := out(t, s, c.code); got != c.want {
			t.Errorf("cell %q: %q, want %q", c.code, got, c.want)
		}
	}
}

// TestBlankTypeDeclarations: the interpreter failed on type _ B with
// "cannot use _ as value" (Go's test/fixedbugs/bug295.go); it declares
// nothing.
func TestBlankTypeDeclarations(t *testing.T) {
	s := newSession(t)
	for code, want := range map[string]string{
		"type _ int":                           "",
		"type _ struct{ a int }\nfmt.Print(1)": "1",
		"type (\n\t_ []int\n\tK int\n\t_ K\n)\nfunc f() K {\n\ttype _ string\n\treturn 3\n}\nfmt.Print(f())": "3",
	} {
		if got := out(t, s, code); got != want {
			t.Errorf("cell %q: %q, want %q", code, got, want)
		}
	}
	if e := fails(t, s, "type _ int\nfmt.Print(y)"); !strings.HasPrefix(e.Value, "2:") || !strings.Contains(e.Value, "undefined: y") {
		t.Errorf("an error after a blank type: %s, want it on line 2", e.Value)
	}
}

// TestMultiValueVarBeforeItsUses: var c = b; var a, b = foo() failed with
// "assignment mismatch: 1 variables but foo returns 2 values" (Go's
// test/fixedbugs/bug436.go); the order of initialization stays Go's.
func TestMultiValueVarBeforeItsUses(t *testing.T) {
	s := newSession(t)
	code := "var trace []string\nfunc f(s string) int { trace = append(trace, s); return 0 }\n" +
		"func two() (int, int) { trace = append(trace, \"two\"); return 1, 2 }\n" +
		"var (\n\tp    = f(\"p\")\n\tq    = y + f(\"q\")\n\tx, y = two()\n\tr    = f(\"r\")\n)\n" +
		"func foo() (int, int) { return 1, 2 }\nvar c = b\nvar a, b = foo()\nvar d = b + 1\n" +
		"fmt.Print(trace, q, a, b, c, d)"
	if got, want := out(t, s, code), "[p two q r] 2 1 2 2 3"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	// A declaration in between that does not use them: Go initializes it
	// first, the move would not; the cell stays an error.
	if e := fails(t, s, "func g() (int, int) { return 3, 4 }\nvar k = j\nvar e = f(\"e\")\nvar i, j = g()"); e.Name != "CompileError" {
		t.Errorf("not moved: %s %s, want the interpreter's error", e.Name, e.Value)
	}
}

// TestBuiltinsOfACallOfTwoResults: copy(f(a)) and delete(h(m)) made the
// interpreter panic ("index out of range [2] with length 2"; Go's
// test/fixedbugs/issue15992.go).
func TestBuiltinsOfACallOfTwoResults(t *testing.T) {
	s := newSession(t)
	code := "func f(a []byte) ([]byte, []byte) { return a, []byte(\"abc\") }\nfunc h(m map[int]int) (map[int]int, int) { return m, 0 }\n" +
		"a := []byte{1, 2, 3}\nn := copy(f(a))\nm := map[int]int{0: 0, 1: 1}\ndelete(h(m))\n" +
		"func g() (s string) {\n\tb := make([]byte, 2)\n\tdelete(h(m))\n\treturn fmt.Sprint(copy(b, \"xyz\"), b, len(m))\n}\nfmt.Print(n, a, len(m), g())"
	if got, want := out(t, s, code), "3 [97 98 99] 12 [120 121] 1"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	r, _ := run(t, s, "copy(f(make([]byte, 2)))")
	if got := value(r); got != "2" {
		t.Errorf("value of the cell: %s, want 2", got)
	}
}

// TestImportEndedBySemicolon: import "strings"; left its semicolon at the
// top of the cell's declarations, and the function after it failed to
// parse ("expected '(', found g"; Go's test/fixedbugs/bug206.go).
func TestImportEndedBySemicolon(t *testing.T) {
	s := newSession(t)
	r, _ := run(t, s, "import \"strings\";\n\nfunc g() int { return len(strings.Repeat(\"a\", 2)) };\ng()")
	if got := value(r); got != "2" {
		t.Errorf("value %s, want 2", got)
	}
	if got := out(t, s, "import \"unicode\" ; var u = unicode.IsUpper('A')\nfmt.Print(u)"); got != "true" {
		t.Errorf("output %q, want true", got)
	}
}

// TestRealAndImagOfConstants: real and imag of a constant failed to
// compile ("reflect: call of reflect.Value.Complex on int64 Value").
func TestRealAndImagOfConstants(t *testing.T) {
	s := newSession(t)
	code := "const (\n\tx = 0.01i\n\ty = complex(0, 2) / 3\n\tz = imag(1i + complex(0, 2)/3 - 5i/3)\n)\n" +
		"func f() {\n\tconst c complex64 = 3 + 1.5i\n\tvar i int = real(1)\n\tfmt.Print(imag(x) == 0.01, real(y), imag(y), z, i, imag(c), real(c))\n\tfmt.Printf(\" %T %T\", imag(c), real(2))\n}\nf()"
	if got, want := out(t, s, code), "true 0 0.6666666666666666 0 1 1.5 3 float32 float64"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestIotaAfterALineOfSeveralNames: the interpreter counted iota per name
// (c, d = iota, … gave 2 after a, b = …; Go gives 1). The kernel writes
// out the values of the cell's constants and refuses the others.
func TestIotaAfterALineOfSeveralNames(t *testing.T) {
	s := newSession(t)
	run(t, s, "const c0 = 1")
	e := fails(t, s, "const (\n\ta, b = iota, iota * c0\n\tc, d\n)")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "3:2: not supported by the interpreter: iota in a constant group after a line that declares several names") {
		t.Errorf("%s: %s", e.Name, e.Value)
	}
	if got := out(t, s, "const (\n\tp = iota\n\tq, r = iota, iota * 10\n)\nfmt.Print(p, q, r)"); got != "0 1 10" {
		t.Errorf("output %q, want %q", got, "0 1 10")
	}
	if got := out(t, s, "type T int8\nconst (\n\ta, b T = iota, iota * 10 // first\n\tc, d\n\n\te, f\n)\nfmt.Print(c, d, e, f)"); got != "1 10 2 20" {
		t.Errorf("output %q, want %q", got, "1 10 2 20")
	}
	// The values keep their type.
	if e := fails(t, s, "var i int = f"); e.Name != "CompileError" {
		t.Errorf("int from a constant of type T: %s: %s", e.Name, e.Value)
	}
}

// TestMethodExpressionsOfInterfaceTypes: I.M(x) was "too many arguments",
// error.Error(err) a panic of the compiler.
func TestMethodExpressionsOfInterfaceTypes(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"time\"")
	code := "type I interface{ m(a int, b ...string) string }\ntype J interface {\n\tI\n\tn() int\n}\n" +
		"type T struct{ x int }\nfunc (t T) m(a int, b ...string) string { return fmt.Sprint(\"m\", t.x, a, b) }\nfunc (T) n() int { return 7 }\n" +
		"var t T\nvar r = I.m(t, 1, \"a\", \"b\")\nfmt.Println(r, J.n(T{2}), (J).m(T{3}, 4))\n" +
		"f, g := I.m, J.n\nfmt.Println(f(T{5}, 6, \"c\"), g(t))\n" +
		"var err error = fmt.Errorf(\"boom\")\nh := error.Error\nfmt.Println(error.Error(err), h(err))\n" +
		"fmt.Println(interface{ n() int }.n(t), fmt.Stringer.String(time.Second))"
	want := "m0 1 [a b] 7 m3 4 []\nm5 6 [c] 7\nboom boom\n7 1s\n"
	if got := out(t, s, code); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	// An interface type of an earlier cell, called.
	if got := out(t, s, "fmt.Println(J.n(T{}), I.m(T{8}, 9))"); got != "7 m8 9 []\n" {
		t.Errorf("earlier cell's types: %q", got)
	}
	// A nil receiver panics with Go's runtime error, in both forms.
	code = "func nilCall(f func()) {\n\tdefer func() {\n\t\tr := recover()\n\t\tfmt.Print(r.(error).Error(), \"; \")\n\t}()\n\tf()\n}\n" +
		"var e error\nnilCall(func() { _ = error.Error(e) })\nnilCall(func() { _ = h(e) })\nnilCall(func() { _ = interface{ n() int }.n(nil) })"
	want = strings.Repeat("runtime error: invalid memory address or nil pointer dereference; ", 3)
	if got := out(t, s, code); got != want {
		t.Errorf("nil receivers: %q, want %q", got, want)
	}
	// A method expression of an interface literal is no method value
	// (methodValueRefusals refused it as one).
	if got := out(t, s, "k := interface{ n() int }.n\nfmt.Println(k(t))"); got != "7\n" {
		t.Errorf("method expression of an interface literal: %q", got)
	}
	// Of an interface type of the standard library, not called: the
	// signature comes from reflect.
	run(t, s, "import (\n\t\"io\"\n\t\"strings\"\n)")
	code = "read := io.Reader.Read\nbuf := make([]byte, 3)\nn, err := read(strings.NewReader(\"hello\"), buf)\n" +
		"fmt.Print(n, err, string(buf))\nfmt.Printf(\" %T\\n\", read)\nnilCall(func() { read(nil, buf) })"
	want = "3 <nil>hel func(io.Reader, []uint8) (int, error)\nruntime error: invalid memory address or nil pointer dereference; "
	if got := out(t, s, code); got != want {
		t.Errorf("io.Reader.Read: %q, want %q", got, want)
	}
}

// TestReflectMethodExpressionsAreRefused: reflect.Type.Method as a value
// compiled (see TestMethodExpressionsOfInterfaceTypes), but reflect sees
// no methods on the cells' types, and the result would differ from Go's
// (Go's reflectmethod5.go, reflectmethod6.go).
func TestReflectMethodExpressionsAreRefused(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"reflect\"\ntype foo struct{}\nfunc (foo) X() {}")
	for code, want := range map[string]string{
		"var h = reflect.Type.MethodByName":                  "1:9: not supported by the interpreter: MethodByName of reflect",
		"m := reflect.Type.Method(reflect.TypeOf(foo{}), 0)": "1:6: not supported by the interpreter: Method of reflect",
	} {
		e := fails(t, s, code)
		if e.Name != "CompileError" || !strings.HasPrefix(e.Value, want) {
			t.Errorf("%q: %s %s, want %q", code, e.Name, e.Value, want)
		}
	}
}

// TestAddressOfAnElementThroughAnArrayPointer: &p[i] of p of type *[N]T
// was "cannot take address of int [kind: indexExpr]".
func TestAddressOfAnElementThroughAnArrayPointer(t *testing.T) {
	s := newSession(t)
	code := "type T [4]int\nfunc f(t *T, i int) *int { return &t[i] }\n" +
		"func g() (ok bool) {\n\tdefer func() { ok = recover() != nil }()\n\tvar p *[2]byte\n\t_ = &p[1]\n\treturn false\n}\n" +
		"var t T\nfunc run() {\n\tq := f(&t, 2)\n\t*q = 7\n\ts := []int{1, 2, 3}\n\tp := (*[3]int)(s)\n\tfmt.Println(t, &p[1] == &s[1], (&t)[2], g())\n}\nrun()"
	if got, want := out(t, s, code), "[0 0 7 0] true 7 true\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestArrayLengthOfAnUntypedFloatConstant: [1e1]int failed to compile
// ("10 not an Int").
func TestArrayLengthOfAnUntypedFloatConstant(t *testing.T) {
	s := newSession(t)
	code := "const n = 2.0\nvar b [1e1]int\nfunc f(x int) int {\n\tvar c [n + 0i]string\n\treturn len(b) + len(c) + x<<n + x>>1.0\n}\nfmt.Println(f(4))"
	if got, want := out(t, s, code), "30\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	// A non-constant shift of an untyped float constant takes the
	// integer type of its context.
	code = "func g(x int, s uint) (int, int64) {\n\tvar y int64 = 2.0 << s\n\treturn x << (1. << s), y\n}\nfmt.Println(g(1, 2))"
	if got, want := out(t, s, code), "16 8\n"; got != want {
		t.Errorf("shifts of float constants: %q, want %q", got, want)
	}
}

// TestPointersStoredAsInterfacesStayApart: values appended, sent or stored
// as interfaces in a loop keep their own values, as in Go; the interpreter
// kept a reference to the slot of the call or &T{…} that made them, so that
// all became the last one ([3 3 3], Go's chan/powser2.go).
func TestPointersStoredAsInterfacesStayApart(t *testing.T) {
	s := newSession(t)
	code := "type rat struct{ num int }\nfunc mk(i int) *rat { return &rat{i} }\ntype item interface{ pr() int }\nfunc (u *rat) pr() int { return u.num }\n" +
		"func show(s []item) (r []int) { for _, x := range s { r = append(r, x.pr()) }; return }\n" +
		"var reg []item\nfunc register(name string, it item) { reg = append(reg, it) }\nvar one []item\nfunc add(it item) { one = append(one, it) }\n" +
		"func h() []int {\n\tvar s, t []item\n\tm := map[int]item{}\n\tc := make(chan item, 3)\n" +
		"\tvar x *rat\n\tfor i := 1; i <= 3; i++ {\n\t\tx = mk(i)\n\t\ts = append(s, x)\n\t\tt = append(t, &rat{i})\n\t\tm[i] = mk(i)\n\t\tc <- mk(i)\n\t\tregister(\"r\", mk(i))\n\t\tadd(mk(i))\n\t\tadd(&rat{i})\n\t}\n" +
		"\tclose(c)\n\tvar u []item\n\tfor x := range c {\n\t\tu = append(u, x)\n\t}\n" +
		"\tr := append(show(s), show(t)...)\n\tr = append(r, m[1].pr(), m[3].pr())\n\treturn append(append(append(r, show(u)...), show(reg)...), show(one)...)\n}\n" +
		"fmt.Println(h())\nvar s2 []item\nfor i := 1; i <= 3; i++ { s2 = append(s2, &rat{i}) }\nfmt.Println(show(s2))"
	if got, want := out(t, s, code), "[1 2 3 1 2 3 1 3 1 2 3 1 2 3 1 1 2 2 3 3]\n[1 2 3]\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestReturnOfAReceive: the interpreter failed on return <-c in a
// function of one result ("reflect: reflect.Value.Set using unaddressable
// value"; Go's test/closedchan.go).
func TestReturnOfAReceive(t *testing.T) {
	s := newSession(t)
	code := "type XChan chan int\nfunc (c XChan) Recv() int {\n\treturn <-c\n}\n" +
		"func recv(c chan int) any {\n\treturn <-c\n}\n" +
		"c := make(XChan, 2)\nc <- 3\nc <- 4\nd := make(chan int, 1)\nd <- 5\nfmt.Print(c.Recv(), c.Recv(), recv(d))"
	if got := out(t, s, code); got != "3 4 5" {
		t.Errorf("output %q, want %q", got, "3 4 5")
	}
}

// TestRangeOverASliceOfChannels: the interpreter took the value variable
// of for i, c := range cs, a channel, for the ranged expression and
// ranged as over a channel ("reflect: call of reflect.Value.Len on int
// Value"; Go's test/chanlinear.go).
func TestRangeOverASliceOfChannels(t *testing.T) {
	s := newSession(t)
	code := "func run() (n int) {\n\tvar cs []chan int\n\tfor i := 0; i < 3; i++ {\n\t\tcs = append(cs, make(chan int, 1))\n\t}\n" +
		"\tfor i, c := range cs {\n\t\tc <- i\n\t\tc := 10\n\t\tn += c\n\t}\n" +
		"\tfor _, c := range cs {\n\t\tn += <-c\n\t}\n\treturn\n}\nfmt.Print(run())"
	if got := out(t, s, code); got != "33" {
		t.Errorf("output %q, want %q", got, "33")
	}
}

// TestVariablesStoredAsInterfacesStayApart: a pointer variable passed to a
// function that keeps it as an interface, or assigned to an interface
// variable, and then assigned again, leaves the interface as it was, as in
// Go; the interpreter's interface followed the variable.
func TestVariablesStoredAsInterfacesStayApart(t *testing.T) {
	s := newSession(t)
	code := "type rat struct{ num int }\ntype item interface{ pr() int }\nfunc (u *rat) pr() int { return u.num }\n" +
		"var reg []item\nfunc register(it item) { reg = append(reg, it) }\n" +
		"func h() { var cur *rat; for i := 1; i <= 3; i++ { cur = &rat{i}; register(cur) } }\n" +
		"func h2() (int, int) { x := &rat{1}; var it item = x; x = &rat{2}; var j item; j = x; x = &rat{3}; return it.pr(), j.pr() }\n" +
		"h()\nfor _, it := range reg { fmt.Print(it.pr(), \" \") }\nfmt.Println(h2())"
	if got, want := out(t, s, code), "1 2 3 1 2\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestTopLevelVariablesStoredAsInterfacesStayApart: at the top level of
// cells, an interface made from a pointer variable (appended, stored in a
// map, assigned, declared from it) keeps its value when the variable is
// assigned or defined again, as in Go; it followed the variable.
func TestTopLevelVariablesStoredAsInterfacesStayApart(t *testing.T) {
	s := newSession(t)
	run(t, s, "type rat struct{ num int }\ntype item interface{ pr() int }\nfunc (u *rat) pr() int { return u.num }")
	run(t, s, "var shapes []item\nc := &rat{1}\nshapes = append(shapes, c)\nm := map[string]item{}\nm[\"a\"] = c")
	run(t, s, "c = &rat{2}")
	run(t, s, "d := &rat{5}\nvar it item = d")
	run(t, s, "d := &rat{6}")
	if got, want := out(t, s, "fmt.Println(shapes[0].pr(), m[\"a\"].pr(), c.pr(), it.pr(), d.pr())"), "1 1 2 5 6\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	// Beside a top-level blank assignment of another type (the cell's
	// blank assignments share one variable).
	code := "type Cfg struct{ P item; N []int }\nfunc mk(i int) *rat { return &rat{i} }\nvar cfg Cfg\n_ = []int{1}\ncfg.P = mk(3)\ncfg.N = []int{4}\n_ = 5\nfmt.Println(cfg.P.pr(), cfg.N)"
	if got, want := out(t, s, code), "3 [4]\n"; got != want {
		t.Errorf("beside blank assignments: %q, want %q", got, want)
	}
}

// TestCallsOfAllResults: F(g()), g with several results, for append,
// complex, copy and a generic F: the interpreter appended the first of
// the values only, panicked for complex and copy, and failed to infer the
// type argument (Go's fixedbugs/issue5793.go, typeparam/issue45722.go).
func TestCallsOfAllResults(t *testing.T) {
	s := newSession(t)
	code := "import \"strconv\"\nfunc parts() (float64, float64) { return 5, 7 }\nfunc words() ([]string, string, string) { return []string{\"a\"}, \"b\", \"c\" }\n" +
		"func bufs() ([]byte, []byte) { return make([]byte, 3), []byte(\"xy\") }\nfunc first[T any](v T, err error) T { return v }\nvar pv = append(words())\n" +
		"func run() {\n\tif c := complex(parts()); c != 5+7i {\n\t\tpanic(c)\n\t}\n\ts := append(words())\n\tvar n int\n\tn = copy(bufs())\n" +
		"\tv := first(strconv.Atoi(\"42\"))\n\tfmt.Println(s, len(s), n, v)\n\tfmt.Println(len(append(words())), copy(bufs()), len(pv))\n\tf := func() []string { return append(words()) }\n\tfmt.Println(len(f()))\n}\nrun()"
	if got, want := out(t, s, code), "[a b c] 3 2 42\n3 2 3\n3\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	// At the cell's top level.
	code = "w := append(words())\nvar n2 int\nn2 = copy(bufs())\nfmt.Println(len(w), n2)\nlen(w)"
	r, rec := run(t, s, code)
	if got, want := rec.text("stdout"), "3 2\n"; got != want {
		t.Errorf("top level: output %q, want %q", got, want)
	}
	if got := value(r); got != "3" {
		t.Errorf("top level: value %q, want 3", got)
	}
}

// TestNewWithAValue: new(expr) of Go 1.26 gives a pointer to a variable
// holding expr (the interpreter, of Go 1.22's language, gave a pointer to
// a zero value), typed as Go types it.
func TestNewWithAValue(t *testing.T) {
	s := newSession(t)
	code := "p := new(1 + 2)\nx := 42\nv := new(x > 0)\narr := [2]int{1, 2}\nr := new(arr)\narr[0] = 9\n" +
		"func nv() *int {\n\ty := 42\n\treturn new(y)\n}\nvar gx = new(0.5)\nfmt.Printf(\"%v %v %v %v %v %T\\n\", *p, *nv(), *v, *r, *gx, *gx)"
	if got := out(t, s, code); got != "3 42 true [1 2] 0.5 float64\n" {
		t.Errorf("new with values: %q", got)
	}
}

// TestAnyIsInterface: any and interface{} are one type in Go; the
// interpreter took *any and *interface{} for different types (Go's
// fixedbugs/issue49665.go did not compile).
func TestAnyIsInterface(t *testing.T) {
	s := newSession(t)
	code := "var x any\nvar y interface{}\n\nvar _ = &x == &y\n\nfunc same() bool { return &x == &y }\nfmt.Printf(\"%T %T %v\\n\", &x, &y, same())"
	if got, want := out(t, s, code), "*interface {} *interface {} false\n"; got != want {
		t.Errorf("any and interface{}: %q, want %q", got, want)
	}
}

// Package-level variables are initialized in Go's order, also where an
// initializer reaches a variable declared after it through a function or
// method it calls, or is that of a blank variable (Go's const4.go,
// fixedbugs/bug446.go, issue51913.go); where two blank variables are to
// be initialized (the interpreter makes the first wait for the
// second; Go's fixedbugs/issue22326.go), the cell is refused.
func TestInitOrderOfPackageVars(t *testing.T) {
	s := newSession(t)
	code := "type T int\nfunc (r T) Method1() int { return a }\nvar dummy1 = T(0).Method1()\nvar (\n\t_ = f(\"_\", c, b)\n\ta = f(\"a\")\n\tb, c = f(\"b\"), f(\"c\")\n\td = f(\"d\")\n)\n" +
		"var x, y = g()\nvar z int\nfunc g() (int, int) { z++; return a + 1, z }\nfunc f(s string, rest ...int) int {\n\tfmt.Print(s)\n\treturn len(s)\n}\n"
	if got, want := out(t, s, code+"fmt.Println(\"\", dummy1, x, y, z, d)"), "abc_d 1 2 1 1 1\n"; got != want {
		t.Errorf("package-level initialization order: %q, want %q", got, want)
	}
	code = "var _ = func() int {\n\tcalled = true\n\treturn 0\n}()\nvar called = false\nvar seen = called\nfmt.Println(called, seen)"
	if got, want := out(t, s, code), "true true\n"; got != want {
		t.Errorf("blank variable initialized after the variable it sets: %q, want %q", got, want)
	}
	e := fails(t, s, "func k(s string, rest ...int) int { return 0 }\nvar (\n\t_ = p\n\t_ = k(\"_\", q)\n\tq = k(\"q\")\n\tp = k(\"p\")\n)")
	if e.Name != "CompileError" || !strings.Contains(e.Value, "3:6") || !strings.Contains(e.Value, "declared after it") {
		t.Errorf("two blank variables: %s: %s", e.Name, e.Value)
	}
}

// len and cap of an array, or of a pointer to one, in a constant
// declaration are constants, and their operand is not evaluated (Go's
// const4.go).
func TestConstantLenOfArray(t *testing.T) {
	s := newSession(t)
	if got, want := out(t, s, "var s [][30]int\nvar p *[4]int\nconst (\n\tn = len(s[10])\n\tm = cap(*p)\n)\nfmt.Println(n, m)"), "30 4\n"; got != want {
		t.Errorf("constant len of an array: %q, want %q", got, want)
	}
}
