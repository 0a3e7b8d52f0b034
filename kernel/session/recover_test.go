package session

import (
	"context"
	"strings"
	"testing"
)

func TestDeferRecoverIsRefused(t *testing.T) {
	s := newSession(t)
	// The interpreter calls a deferred recover at the defer statement:
	// the recover in the body found no panic (Go's test/recover1.go).
	code := "func f() (r string) {\n\tdefer func() {\n\t\tdefer recover()\n\t\tr = fmt.Sprint(recover())\n\t}()\n\tpanic(1)\n}\nfmt.Println(f())"
	e := fails(t, s, code)
	if e.Name != "CompileError" || !strings.Contains(e.Value, "3:3") || !strings.Contains(e.Value, "defer recover()") {
		t.Errorf("defer recover(): %s %s, want a CompileError at 3:3 naming it", e.Name, e.Value)
	}
}

func TestSwitchOnChannelsOfOtherDirection(t *testing.T) {
	s := newSession(t)
	// Go's test/fixedbugs/issue67190.go.
	code := "func f() {\n\tch1 := make(chan struct{})\n\tvar ch2 <-chan struct{} = ch1\n\tswitch ch1 {\n\tcase ch2:\n\t\tfmt.Print(\"a\")\n\tdefault:\n\t\tfmt.Print(\"b\")\n\t}\n\tswitch ch2 {\n\tcase nil, ch1:\n\t\tfmt.Print(\"c\")\n\tdefault:\n\t\tfmt.Print(\"d\")\n\t}\n}\nf()"
	if got := out(t, s, code); got != "ac" {
		t.Errorf("switch on a channel with a case of the other direction: %q, want ac", got)
	}
}

func TestOpAssignEvaluatesTheRightSideFirst(t *testing.T) {
	s := newSession(t)
	code := `func f() {
	one := map[int]int{0: 1}
	two := map[int]int{0: 2}
	x := one
	x[0] += func() int { x = two; return 10 }()
	a1, a2 := []int{1}, []int{2}
	y := a1
	y[0] += func() int { y = a2; return 10 }()
	p1, p2 := 1, 2
	p := &p1
	*p += func() int { p = &p2; return 10 }()
	type S struct{ f int }
	s1, s2 := &S{1}, &S{2}
	q := s1
	q.f += func() int { q = s2; return 10 }()
	i := 0
	s := []int{0, 0}
	s[i] += func() int { i = 1; return 10 }()
	fmt.Println(one[0], two[0], a1[0], a2[0], p1, p2, s1.f, s2.f, s)
}
f()`
	// Go's compiler calls the function before it evaluates the operand
	// on the left (Go's test/fixedbugs/issue21687.go).
	if got, want := out(t, s, code), "1 12 1 12 1 12 1 12 [0 10]\n"; got != want {
		t.Errorf("op= with a call changing the operand: %q, want %q", got, want)
	}
}

func TestUnhashableKeyMessage(t *testing.T) {
	s := newSession(t)
	// Go's test/recover2.go.
	code := "type T struct {\n\ta, b int\n\tc    []int\n}\nfunc g() (err error) {\n\tdefer func() { err = recover().(runtime.Error) }()\n\tm := map[any]int{}\n\tm[T{}] = 1\n\treturn\n}\nfmt.Println(g())"
	run(t, s, `import "runtime"`)
	if got, want := out(t, s, code), "runtime error: hash of unhashable type main.T\n"; got != want {
		t.Errorf("unhashable map key: %q, want %q", got, want)
	}
}

func TestRecoverAsALaterArgument(t *testing.T) {
	s := newSession(t)
	// recover() after a comma was taken for a declaration of recover, and
	// the cell's recovered values stayed the interpreter's reflect.Value
	// (Go's test/fixedbugs/issue43942.go).
	code := "func expect(want, have any) bool { return want == have }\nfunc f() (ok bool) {\n\tdefer func() { ok = expect(1, recover()) }()\n\tpanic(1)\n}\nfmt.Println(f())"
	if got := out(t, s, code); got != "true\n" {
		t.Errorf("expect(1, recover()) after panic(1): %q, want true", got)
	}
}

func TestRecoveredIndexErrorText(t *testing.T) {
	s := newSession(t)
	// Compared with nil, the recovered index error is fine.
	code := "func try(f func()) (failed bool) {\n\tdefer func() {\n\t\tif r := recover(); r != nil {\n\t\t\tfailed = true\n\t\t}\n\t}()\n\tf()\n\treturn\n}\nxs := []int{1}\ni := 3\nfmt.Println(try(func() { _ = xs[i] }))"
	if got := out(t, s, code); got != "true\n" {
		t.Errorf("recovered index error compared with nil: %q, want true", got)
	}
	// Its text lacks Go's "[3] with length 1": the cell stops, and what
	// its deferred calls print afterwards is dropped (Go's
	// test/fixedbugs/issue30116.go).
	code = "func text() (s string) {\n\tdefer func() { s = fmt.Sprint(recover()) }()\n\t_ = xs[i]\n\treturn\n}\nfunc g() {\n\tdefer fmt.Println(\"deferred\")\n\tfmt.Println(text())\n}\nfmt.Println(\"before\")\ng()"
	rec := &recorder{}
	r := s.Execute(context.Background(), code, rec)
	if r.Err == nil || r.Err.Name != "InterpreterError" || !strings.Contains(r.Err.Value, "index and the length") {
		t.Fatalf("text of a recovered index error: output %q, error %v; want an InterpreterError", rec.text("stdout"), r.Err)
	}
	if got := rec.text("stdout"); got != "before\n" {
		t.Errorf("output of the stopped cell: %q, want only before", got)
	}
	if got := out(t, s, "fmt.Println(\"next\")"); got != "next\n" {
		t.Errorf("the next cell: %q", got)
	}
}

func TestPanicInADeferredCallWithOthersPending(t *testing.T) {
	s := newSession(t)
	// The interpreter left the loop of deferred calls at the panic: the
	// first deferred function never ran (Go's test/fixedbugs/issue8047.go).
	code := "func f() {\n\tdefer func() { fmt.Println(\"recovered\", recover() != nil) }()\n\tdefer ((func())(nil))()\n\tfmt.Println(\"body\")\n}\nf()"
	rec := &recorder{}
	r := s.Execute(context.Background(), code, rec)
	if r.Err == nil || r.Err.Name != "InterpreterError" || !strings.Contains(r.Err.Value, "still to run") {
		t.Fatalf("deferred nil function before a deferred recover: output %q, error %v; want an InterpreterError", rec.text("stdout"), r.Err)
	}
	// Deferred calls that do not panic, recover in them and deferred
	// method values still run as in Go.
	code = "type T struct{ n int }\nfunc (t *T) M() { fmt.Println(\"M\", recover(), t.n) }\n" +
		"func a() (r int) {\n\tvar mu sync.Mutex\n\tmu.Lock()\n\tdefer mu.Unlock()\n\tdefer func() {\n\t\tif v := recover(); v != nil {\n\t\t\tr = v.(int)\n\t\t}\n\t}()\n\tpanic(7)\n}\n" +
		"func b() {\n\tdefer fmt.Println(\"last\")\n\tdefer (&T{3}).M()\n\tpanic(\"p\")\n}\n" +
		"func c() (n int) {\n\tfor i := 1; i <= 3; i++ {\n\t\tdefer func() { n++ }()\n\t}\n\treturn 10\n}\n" +
		"fmt.Println(a())\nb()\nfmt.Println(c())"
	run(t, s, `import "sync"`)
	if got, want := out(t, s, code), "7\nM p 3\nlast\n13\n"; got != want {
		t.Errorf("deferred calls: %q, want %q", got, want)
	}
}

// TestRecoveredInterpreterFailureText: a value method called through an
// interface holding a nil pointer panics in the interpreter with its own
// reflect error, where Go's text is "value method main.T.F called using
// nil *T pointer" (Go's test/fixedbugs/issue19040.go); a cell that reads
// the recovered text stops, one that compares it with nil runs.
func TestRecoveredInterpreterFailureText(t *testing.T) {
	s := newSession(t)
	run(t, s, "type T int\ntype I interface{ F() }\n\nfunc (t T) F() {}\n\nvar (\n\tt *T\n\ti I = t\n)")
	code := "func failed() (f bool) {\n\tdefer func() { f = recover() != nil }()\n\ti.F()\n\treturn\n}\nfmt.Println(failed())"
	if got := out(t, s, code); got != "true\n" {
		t.Errorf("recovered value compared with nil: %q, want true", got)
	}
	e := fails(t, s, "func text() (msg string) {\n\tdefer func() { msg = recover().(error).Error() }()\n\ti.F()\n\treturn\n}\nfmt.Println(text())")
	if e.Name != "InterpreterError" || !strings.Contains(e.Value, "the text of a recovered panic: the interpreter failed") {
		t.Errorf("text of the recovered value: %s: %s", e.Name, e.Value)
	}
}

// TestSliceToArrayConversionPanic: the conversion of a slice to a longer
// array (or pointer to one) recovered as reflect's string, which is not
// an error as Go's runtime.Error is.
func TestSliceToArrayConversionPanic(t *testing.T) {
	s := newSession(t)
	code := "func try(f func()) {\n\tdefer func() {\n\t\terr := recover()\n\t\tfmt.Println(err.(error).Error())\n\t}()\n\tf()\n}\n" +
		"func run() {\n\ts := make([]byte, 8)\n\ttry(func() { _ = (*[9]byte)(s) })\n\ttry(func() { _ = [9]byte(s) })\n}\nrun()"
	want := "runtime error: cannot convert slice with length 8 to array or pointer to array with length 9\n" +
		"runtime error: cannot convert slice with length 8 to array or pointer to array with length 9\n"
	if got := out(t, s, code); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

func TestRecoveredBoundsErrorTextAsGo(t *testing.T) {
	s := newSession(t)
	// A cell that reads a recovered bounds error gets Go's text for the
	// index and slice expressions of its own slices, arrays, pointers to
	// arrays and strings (Go's test/fixedbugs/issue30116.go,
	// issue30116u.go, test/recover3.go).
	code := "func try(f func()) { defer func() { fmt.Println(recover()) }(); f() }\n" +
		"func run() {\n" +
		"\ts := []int{1, 2, 3}\n\tvar a [3]int\n\tstr := \"123\"\n\tp := new([3]int)\n\tvar np *[3]int\n" +
		"\ti, n, k, m := 5, -1, 2, 1\n\tvar u uint64 = 1<<64 - 1\n" +
		"\ttry(func() { _ = s[i] })\n" +
		"\ttry(func() { _ = a[n] })\n" +
		"\ttry(func() { _ = str[u] })\n" +
		"\ttry(func() { p[i] = 1 })\n" +
		"\ttry(func() { _ = np[k] })\n" +
		"\ttry(func() { _ = s[1:i] })\n" +
		"\ttry(func() { _ = s[i:] })\n" +
		"\ttry(func() { _ = a[k:m] })\n" +
		"\ttry(func() { _ = str[:i] })\n" +
		"\ttry(func() { _ = s[0:k:i] })\n" +
		"\ttry(func() { _ = s[k:1:k] })\n" +
		"\ttry(func() { _ = s[n:k] })\n" +
		"\ttry(func() { _ = s[k] + a[k] + int(str[k]) + p[k] })\n" +
		"}\nrun()"
	want := "runtime error: index out of range [5] with length 3\n" +
		"runtime error: index out of range [-1]\n" +
		"runtime error: index out of range [18446744073709551615] with length 3\n" +
		"runtime error: index out of range [5] with length 3\n" +
		"runtime error: invalid memory address or nil pointer dereference\n" +
		"runtime error: slice bounds out of range [:5] with capacity 3\n" +
		"runtime error: slice bounds out of range [5:3]\n" +
		"runtime error: slice bounds out of range [2:1]\n" +
		"runtime error: slice bounds out of range [:5] with length 3\n" +
		"runtime error: slice bounds out of range [::5] with capacity 3\n" +
		"runtime error: slice bounds out of range [2:1:]\n" +
		"runtime error: slice bounds out of range [-1:]\n" +
		"<nil>\n"
	if got := out(t, s, code); got != want {
		t.Errorf("recovered bounds errors:\n%s\nwant (compiled Go):\n%s", got, want)
	}
	// Constant bounds Go checks when it compiles stay compile errors.
	for _, code := range []string{
		"func g() (s string) { defer func() { s = fmt.Sprint(recover()) }(); var a [3]int; i := 1; _ = a[i:5]; return }",
		"func h() (s string) { defer func() { s = fmt.Sprint(recover()) }(); x := []int{1, 2, 3}; i := 0; _ = x[i:3:2]; return }",
	} {
		if e := fails(t, s, code); e.Name != "CompileError" {
			t.Errorf("cell %q: %s: %s; want a CompileError", code, e.Name, e.Value)
		}
	}
}
