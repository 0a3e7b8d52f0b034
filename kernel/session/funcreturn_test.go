package session

import "testing"

// TestReturnOfADeclaredFunction: return g, g a function of the cell and
// the result of a func type, gave the caller the interpreter's node
// ("reflect.Set: value of type *interp.node is not assignable to type
// func()", Go's fixedbugs/issue42703.go).
func TestReturnOfADeclaredFunction(t *testing.T) {
	s := newSession(t)
	code := `func g() { fmt.Println("g") }
func sq(x int) int { return x * x }

func f() func() { fmt.Println("f"); return g }
func h() (r func(int) int) { r = nil; return (sq) }
func k() func() { g := func() { fmt.Println("local") }; return g }

func run() {
	f()()
	fmt.Println(h()(3))
	k()()
	fn := func() func(int) int { return sq }
	fmt.Println(fn()(4))
}
run()`
	// The output of the compiled program.
	want := "f\ng\n9\nlocal\n16\n"
	if got := out(t, s, code); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
