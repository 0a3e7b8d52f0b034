package throughput_test

import (
	"context"
	"fmt"

	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// The running example of the thesis (Fig. 3.1, Example 3.8).
func toy() *portmap.Mapping {
	m := portmap.MustMapping("fig3.1", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]")
	return m
}

func ExampleBottleneck() {
	m := toy()
	e, _ := portmap.ExperimentOf(map[string]int{"add": 2, "mul": 1, "store": 1})
	r, _ := throughput.Bottleneck(m, e)
	fmt.Printf("%v cycles = %d µops / %d ports %v\n", r.Cycles, r.Num, r.Den, m.Arch().PortNames(r.Bottleneck))
	// Output: 1.5 cycles = 3 µops / 2 ports [p1 p2]
}

func ExampleLP() {
	m := toy()
	e, _ := portmap.ExperimentOf(map[string]int{"add": 2, "mul": 1, "store": 1})
	s, _ := throughput.LP(m, e)
	fmt.Println("t* =", s.Cycles)
	for k, p := range s.Pressure {
		fmt.Printf("%s: %.2f\n", s.Ports[k], p)
	}
	// Output:
	// t* = 1.5
	// p1: 1.50
	// p2: 1.50
	// p3: 1.00
}

func ExampleModel_WithFrontEnd() {
	// Thesis Fig. 3.8: four adds and two loads fit Skylake's ports in one
	// cycle, but it retires only four instructions per cycle.
	m := portmap.MustMapping("SKL", "0", "1", "2", "3", "4", "5", "6", "7")
	m.MustSetUsage("add", "1*p0156").MustSetUsage("load", "1*p23")
	e, _ := portmap.ExperimentOf(map[string]int{"add": 4, "load": 2})
	md := throughput.NewModel(m).WithFrontEnd(throughput.FrontEnd{InstructionsPerCycle: 4})
	r, _ := md.InvThroughput(e)
	fmt.Printf("%.2f cycles, bound by %v (ports alone: %.2f)\n", r.Cycles, r.Bound, r.PortCycles())
	// Output: 1.50 cycles, bound by instructions per cycle (ports alone: 1.00)
}

func ExamplePredict() {
	exps := []portmap.Experiment{
		portmap.NewExperiment("add"),
		portmap.NewExperiment("add", "add", "mul", "store"),
		portmap.NewExperiment("mul", "mul", "store"),
	}
	cycles, err := throughput.Predict(context.Background(), toy(), exps)
	fmt.Println(cycles, err)
	// Output: [0.5 1.5 2] <nil>
}

func ExampleBalanced() {
	// Thesis Fig. 3.1 with {add ↦ 1, store ↦ 1}: the LP may put the add on
	// p1 or p2 or split it; the balanced schedule splits it evenly.
	m := toy()
	e, _ := portmap.ExperimentOf(map[string]int{"add": 1, "store": 1})
	s, _ := throughput.Balanced(m, e)
	fmt.Println("t* =", s.Cycles, "pressure", s.Pressure)
	// Output: t* = 1 pressure [0.5 0.5 1]
}
