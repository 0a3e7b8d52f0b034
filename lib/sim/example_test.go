package sim_test

import (
	"context"
	"fmt"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/sim"
	"github.com/portlab/portlab/lib/throughput"
)

// A loop accumulating with FMA runs at the FMA's latency, far above what
// its ports allow.
func ExampleSimulator_Simulate() {
	m := sim.TestMachine()
	s, err := sim.New(m, sim.Options{})
	if err != nil {
		panic(err)
	}
	b, err := block.Parse(".L1:\n vfmadd231ps ymm0, ymm1, ymm2\n dec rcx\n jne .L1", block.Intel)
	if err != nil {
		panic(err)
	}
	r, err := s.Simulate(b)
	if err != nil {
		panic(err)
	}
	bound, _ := throughput.Bottleneck(m.Mapping, b.Experiment())
	fmt.Printf("simulated: %.2f cycles/iteration (converged: %v, period %d)\n", r.Cycles, r.Converged, r.Period)
	fmt.Printf("port bound: %.2f cycles/iteration\n", bound.PortCycles())
	// Output:
	// simulated: 4.00 cycles/iteration (converged: true, period 1)
	// port bound: 0.75 cycles/iteration
}

// Halving the FMA's latency halves the time; doubling the load ports'
// throughput changes nothing: Gus's sensitivity analysis.
func ExampleSimulator_Sensitivities() {
	s, err := sim.New(sim.TestMachine(), sim.Options{})
	if err != nil {
		panic(err)
	}
	b, err := block.Parse("vfmadd231ps ymm0, ymm1, ymm2", block.Intel)
	if err != nil {
		panic(err)
	}
	fma := b.Insns[0].Form.Key()
	xs, err := s.Sensitivities(context.Background(), b, []sim.Change{
		{Form: fma, Latency: 0.5},
		{Form: fma, LatencyAdd: 1},
		{Resources: []string{"load"}, Throughput: 2},
	})
	if err != nil {
		panic(err)
	}
	for _, x := range xs {
		fmt.Println(x)
	}
	// Output:
	// latency ×0.5 of vfmadd231ps RW:YMM0..15, R:YMM0..15, R:YMM0..15: 4 → 2 cycles/iteration, speed-up 2
	// latency +1 of vfmadd231ps RW:YMM0..15, R:YMM0..15, R:YMM0..15: 4 → 5 cycles/iteration, speed-up 0.8
	// throughput ×2 of load: 4 → 4 cycles/iteration, speed-up 1
}

// The critical path of a chain through memory: the load's latency takes
// two thirds of the time.
func ExampleSimulator_Critical() {
	s, err := sim.New(sim.TestMachine(), sim.Options{})
	if err != nil {
		panic(err)
	}
	b, err := block.Parse("mov rax, [rdi]\nadd rax, 1\nmov [rdi], rax", block.Intel)
	if err != nil {
		panic(err)
	}
	shares, r, err := s.Critical(b)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.0f cycles/iteration\n", r.Cycles)
	for _, c := range shares {
		fmt.Printf("%-16s %-12s %3.0f%% (latency %3.0f%%)\n", c.Text, c.Resources, 100*c.Share, 100*c.Latency)
	}
	// Output:
	// 6 cycles/iteration
	// mov rax, [rdi]   1*p23         67% (latency  67%)
	// add rax, 1       1*p0156       17% (latency  17%)
	// mov [rdi], rax   1*p4+1*p237   17% (latency  17%)
}

// Blocks with measured cycles are compared with the simulator's
// predictions as experiments are with metrics.Evaluate.
func ExampleEvaluate() {
	s, err := sim.New(sim.TestMachine(), sim.Options{})
	if err != nil {
		panic(err)
	}
	set := &sim.BlockSet{Name: "two loops"}
	for _, x := range []struct {
		src      string
		measured float64
	}{{"vfmadd231ps ymm0, ymm1, ymm2", 4.2}, {"imul rax, rax", 3}} {
		b, err := block.Parse(x.src, block.Intel)
		if err != nil {
			panic(err)
		}
		set.Add(b, x.measured)
	}
	ev := sim.Evaluate(context.Background(), s, set)
	fmt.Printf("%d blocks, predicted %v, MAPE %.2f%%\n", ev.Len(), ev.Predicted, ev.Summary.MAPE)
	// Output:
	// 2 blocks, predicted [4 3], MAPE 2.38%
}

// A sensitivity curve: the FMA loop's speed-up as its latency is scaled
// follows the latency (1/factor); scaling the load ports changes nothing.
func ExampleScaledChanges() {
	s, err := sim.New(sim.TestMachine(), sim.Options{})
	if err != nil {
		panic(err)
	}
	b, err := block.Parse("vfmadd231ps ymm0, ymm1, ymm2", block.Intel)
	if err != nil {
		panic(err)
	}
	factors := []float64{0.5, 1, 2}
	lat, err := s.Sensitivities(context.Background(), b, sim.ScaledChanges(sim.Change{Form: b.Insns[0].Form.Key()}, factors))
	if err != nil {
		panic(err)
	}
	load, err := s.Sensitivities(context.Background(), b, sim.ScaledChanges(sim.Change{Resources: []string{"load"}}, factors))
	if err != nil {
		panic(err)
	}
	fmt.Println("FMA latency:", sim.Speedups(lat))
	fmt.Println("load ports: ", sim.Speedups(load))
	// Output:
	// FMA latency: [2 1 0.5]
	// load ports:  [1 1 1]
}
