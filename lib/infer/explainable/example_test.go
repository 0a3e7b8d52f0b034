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

// Stage 5 on thesis Example 6.4 (Fig. 6.2), without per-port counters: a
// blocks {p1,p2}, b blocks {p2,p3}, and c = u1 + u2 slows each of them
// down by one µop on their ports: (t₂ − t₁)·|Q| = 1.
func ExampleDecompose() {
	m := portmap.MustMapping("fig6.2", "p1", "p2", "p3")
	m.MustSetUsage("a", "1*[p1,p2]").MustSetUsage("b", "1*[p2,p3]").MustSetUsage("c", "1*[p1,p2]+1*[p2,p3]")
	blockers := portmap.MustMapping("blockers", "p1", "p2", "p3")
	blockers.MustSetUsage("a", "1*[p1,p2]").MustSetUsage("b", "1*[p2,p3]")
	decs, inferred, err := explainable.Decompose(context.Background(), oracle.Simulate(m, 0, 1), []string{"c"}, blockers, 0)
	if err != nil {
		log.Fatal(err)
	}
	for _, w := range decs[0].Witnesses {
		fmt.Printf("%d × %s: %v cycles, with c %v: %d µop on %v\n", w.Copies, w.Blocker, w.Blocked, w.WithInsn, w.Uops, blockers.Arch().PortNames(w.Ports))
	}
	fmt.Println("c:", inferred.Usage("c"), decs[0].Complete)
	// Output:
	// 10 × a: 5 cycles, with c 5.5: 1 µop on [p1 p2]
	// 10 × b: 5 cycles, with c 5.5: 1 µop on [p2 p3]
	// c: 1*p12+1*p23 true
}
