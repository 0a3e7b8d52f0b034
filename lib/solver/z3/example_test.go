package z3_test

import (
	"context"
	"fmt"

	"github.com/portlab/portlab/lib/solver/z3"
)

// Two scopes: the inner one makes the formula unsatisfiable; after Pop the
// model of the outer one is read.
func Example() {
	ctx := context.Background()
	s, err := z3.Start(ctx, z3.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	s.Assert(ctx, "(declare-const x Int)", "(declare-const y Int)", "(assert (= (+ x y) 10))", "(assert (= (- x y) 4))")
	s.Push(ctx)
	s.Assert(ctx, "(assert (> y 3))")
	st, _ := s.Check(ctx)
	fmt.Println("with y > 3:", st)
	s.Pop(ctx)
	st, _ = s.Check(ctx)
	v, _ := s.Values(ctx, "x", "y")
	fmt.Println("without:", st, "x =", v[0], "y =", v[1])
	// Output:
	// with y > 3: unsat
	// without: sat x = 7 y = 3
}
