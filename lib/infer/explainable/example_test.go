package explainable_test

import (
	"context"
	"fmt"
	"log"

	"github.com/portlab/portlab/lib/infer/explainable"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// Stages 0–2 of the explainable method on a simulated machine that counts
// only cycles and µops: b and e share ports 0 and 1 ({b, e} takes 1 cycle,
// 0.5 + 0.5), c has two other ports ({b, c} takes 0.5 cycles), and f has
// two µops, so it blocks nothing.
func ExampleFindBlocking() {
	m := portmap.MustMapping("toy", "0", "1", "2", "3")
	m.MustSetUsage("a", "1*p0").MustSetUsage("b", "1*p01").MustSetUsage("c", "1*p23")
	m.MustSetUsage("e", "1*p01").MustSetUsage("f", "1*p0+1*p23")
	b, err := explainable.FindBlocking(context.Background(), oracle.Simulate(m, 0, 1), m.Instructions(), 0, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(b)
	for _, p := range b.Pairs {
		fmt.Printf("{%s, %s}: %v cycles, alone %v: same ports %v\n", p.A, p.B, p.Cycles, p.Sum, p.Same)
	}
	for _, x := range b.Excluded {
		fmt.Printf("%s excluded: %s\n", x.Insn, x.Reason)
	}
	// Output:
	// 3 blocking classes from 4 single-µop candidates (2 pair experiments, ε = 0.02 CPI); 1 instruction excluded
	//   1 port: a
	//   2 ports: b (and 1 more)
	//   2 ports: c
	// {b, c}: 0.5 cycles, alone 1: same ports false
	// {b, e}: 1 cycles, alone 1: same ports true
	// f excluded: 2 µops
}
