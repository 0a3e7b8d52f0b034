package design_test

import (
	"context"
	"fmt"
	"log"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

func ExamplePMEvo() {
	// PMEvo's training design on a simulated machine: three singletons,
	// three pairs and the ratio pairs that balance the slow mul with the
	// fast add.
	m := portmap.MustMapping("toy", "p1", "p2")
	m.MustSetUsage("add", "1*[p1,p2]").MustSetUsage("mul", "2*[p1]").MustSetUsage("store", "1*[p2]")
	set, failures, err := design.PMEvo(context.Background(), oracle.Simulate(m, 0, 1), m.Instructions(), nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, x := range set.Measurements {
		fmt.Printf("%-28v %.2f cycles\n", x.Experiment, x.Cycles)
	}
	fmt.Println(len(failures), "failed")
	// Output:
	// {add ↦ 1}                    0.50 cycles
	// {mul ↦ 1}                    2.00 cycles
	// {store ↦ 1}                  1.00 cycles
	// {add ↦ 1, mul ↦ 1}           2.00 cycles
	// {add ↦ 1, store ↦ 1}         1.00 cycles
	// {mul ↦ 1, store ↦ 1}         2.00 cycles
	// {add ↦ 4, mul ↦ 1}           3.00 cycles
	// {mul ↦ 1, store ↦ 2}         2.00 cycles
	// {add ↦ 2, store ↦ 1}         1.50 cycles
	// 0 failed
}

func ExampleBuild() {
	insns := []string{"add", "mul", "store"}
	exps, err := design.Build(context.Background(), "random:4:3:7", insns, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(exps)
	// Output:
	// [{add ↦ 1, store ↦ 3} {add ↦ 1, mul ↦ 1, store ↦ 2} {add ↦ 1, mul ↦ 2, store ↦ 1}]
}

func ExampleLatency() {
	// The latency design: one experiment per register input and register
	// output of a form; a store has no register output.
	exps, none := design.Latency([]string{"vaddps W:XMM0..15, R:XMM0..15, R:XMM0..15", "imul RW:GPR:64, R:GPR:64", "mov qword ptr W:MEM(64), R:GPR:64"})
	for _, e := range exps {
		fmt.Println(e)
	}
	for _, f := range none {
		fmt.Println(f.Experiment, "—", f.Reason)
	}
	// Output:
	// {latency 1->0: vaddps W:XMM0..15, R:XMM0..15, R:XMM0..15 ↦ 1}
	// {latency 2->0: vaddps W:XMM0..15, R:XMM0..15, R:XMM0..15 ↦ 1}
	// {latency 0->0: imul RW:GPR:64, R:GPR:64 ↦ 1}
	// {latency 1->0: imul RW:GPR:64, R:GPR:64 ↦ 1}
	// {mov qword ptr W:MEM(64), R:GPR:64 ↦ 1} — no latency chain: no register input and register output of one register file
}
