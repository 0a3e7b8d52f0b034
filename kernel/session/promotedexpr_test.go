package session

import "testing"

// TestMethodExpressionOfAPromotedMethod: S.M or (*S).M with M a method of
// an embedded type made the interpreter fail ("reflect.Set: value of type
// func() is not assignable to type func(struct { *int })"; Go's
// fixedbugs/issue73917.go, issue73920.go, abi/method_wrapper.go).
func TestMethodExpressionOfAPromotedMethod(t *testing.T) {
	s := newSession(t)
	code := `type T int

func (t *T) M(a int, xs ...int) (int, int) { return int(*t) + a, len(xs) }
func (t T) V() string                      { return fmt.Sprint("V", int(t)) }

type S struct{ *T }
type U struct {
	n int
	S
}

var fn = S.M

func run() {
	x := T(3)
	fmt.Println(fn(S{&x}, 1, 2, 3))
	g := (*U).M
	fmt.Println(g(&U{S: S{&x}}, 4))
	v := U.V
	fmt.Println(v(U{S: S{&x}}))
	defer func() { fmt.Println("recovered:", recover() != nil) }()
	fmt.Println(v(U{}))
}
run()`
	// The output of the compiled program.
	want := "4 2\n7 0\nV3\nrecovered: true\n"
	if got := out(t, s, code); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
