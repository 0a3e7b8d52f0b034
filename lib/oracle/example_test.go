package oracle_test

import (
	"context"
	"fmt"
	"log"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

func ExampleFromMapping() {
	// The running example of the thesis (Fig. 3.1); "div" is not mapped.
	m := portmap.MustMapping("fig3.1", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]")
	exps := []portmap.Experiment{
		portmap.NewExperiment("add", "add", "mul", "store"),
		portmap.NewExperiment("store", "store", "add"),
		portmap.NewExperiment("div", "add"),
	}
	p := oracle.FromMapping(m)
	cycles, unsupported, err := oracle.Predict(context.Background(), p, exps)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Name(), cycles)
	for _, f := range unsupported {
		fmt.Println("unsupported:", f.Index, f.Insn)
	}

	// With a front end that issues at most two instructions per cycle.
	p.FrontEnd = throughput.FrontEnd{InstructionsPerCycle: 2}
	cycles, _ = p.Predict(context.Background(), exps[:2])
	fmt.Println(cycles)
	// Output:
	// fig3.1 [1.5 2 NaN]
	// unsupported: 2 div
	// [2 2]
}

func ExampleStored() {
	// Two measured experiments, one with a stored IACA prediction.
	arch, _ := portmap.NewArchitecture("toy", []string{"p1", "p2"}, []string{"add", "mul"})
	set := &portmap.ExperimentSet{Arch: arch, Measurements: []portmap.Measurement{
		{Experiment: portmap.NewExperiment("add", "mul"), Cycles: 1.02, Others: map[string]float64{"IACA": 1}},
		{Experiment: portmap.NewExperiment("mul", "mul"), Cycles: 2.01},
	}}
	p := oracle.Stored(set, "IACA")
	cycles, err := p.Predict(context.Background(), set.Experiments())
	fmt.Println(p.Name(), cycles)
	fmt.Println(err)
	// Output:
	// IACA (stored) [1 NaN]
	// IACA (stored): 1 of 2 experiments not supported: experiment 1 {mul ↦ 2}: no stored IACA prediction
}

func ExampleMeasureAll() {
	// A simulated machine with 2 % measurement noise, asked for three
	// experiments, one of which names an instruction it does not know.
	m := portmap.MustMapping("fig3.1", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]")
	o := oracle.Simulate(m, 0.02, 1)
	exps := []portmap.Experiment{
		portmap.NewExperiment("add", "add", "mul", "store"),
		portmap.NewExperiment("div"),
		portmap.NewExperiment("store", "store"),
	}
	set, failures, err := oracle.MeasureAll(context.Background(), o, exps, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, x := range set.Measurements {
		fmt.Printf("%v: %.2f cycles, %v µops\n", x.Experiment, x.Cycles, x.Uops)
	}
	fmt.Println(failures[0])
	// Output:
	// {add ↦ 2, mul ↦ 1, store ↦ 1}: 1.52 cycles, 4 µops
	// {store ↦ 2}: 1.95 cycles, 2 µops
	// experiment 1 {div ↦ 1}: instruction "div": portmap: experiment {div ↦ 1}: unknown instruction "div" (not in architecture "fig3.1")
}

func ExampleSimulateWithPortCounters() {
	// Per-port µop counters of a simulated machine, as uops.info reads them
	// on Intel cores: the adds share p1 and p2 with the mul so that both
	// ports are busy 1.5 cycles.
	m := portmap.MustMapping("fig3.1", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]")
	o := oracle.SimulateWithPortCounters(m, 0, 1)
	x, err := o.Measure(context.Background(), portmap.NewExperiment("add", "add", "mul", "store"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(x.Cycles, "cycles,", x.Uops, "µops")
	for k, n := range x.PortUops {
		fmt.Printf("%s: %v µops\n", m.Ports()[k], n)
	}
	// Output:
	// 1.5 cycles, 4 µops
	// p1: 1.5 µops
	// p2: 1.5 µops
	// p3: 1 µops
}

func ExampleRepeat() {
	// The median of 11 samples of a machine with 5 % noise: closer to the
	// true 1.5 cycles than one sample. All 11 are asked as one batch.
	m := portmap.MustMapping("fig3.1", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]")
	e := portmap.NewExperiment("add", "add", "mul", "store")
	one, _ := oracle.Simulate(m, 0.05, 1).Measure(context.Background(), e)
	o, err := oracle.Repeat(oracle.Simulate(m, 0.05, 1), 11)
	if err != nil {
		log.Fatal(err)
	}
	med, _ := o.Measure(context.Background(), e)
	fmt.Printf("one sample: %.3f cycles; median of 11: %.3f cycles\n", one.Cycles, med.Cycles)

	// Stored measurements are the same every time: no median of them.
	stored := oracle.NewReplay("train.jsonl", &portmap.ExperimentSet{Measurements: []portmap.Measurement{{Experiment: e, Cycles: 1.52}}})
	_, err = oracle.Repeat(stored, 11)
	fmt.Println(err)
	// Output:
	// one sample: 1.561 cycles; median of 11: 1.505 cycles
	// oracle: cannot take the median of 11 measurements from train.jsonl: it answers a repeated experiment from memory, so all 11 would be the same value (repeat the oracle it measures with instead)
}

func ExampleCount() {
	m := portmap.MustMapping("fig3.1", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]")
	c := oracle.Count(oracle.Simulate(m, 0, 1))
	exps := []portmap.Experiment{portmap.NewExperiment("add"), portmap.NewExperiment("mul"), portmap.NewExperiment("add")}
	if _, _, err := oracle.MeasureAll(context.Background(), c, exps, nil); err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.Queries(), "queries,", c.Distinct(), "distinct")
	// Output:
	// 3 queries, 2 distinct
}

func ExampleCorrectUops() {
	// A counter that misses one µop of every store (as AMD's macro-op
	// counter misses those of memory operands: explainable.Postulate65).
	m := portmap.MustMapping("fig3.1", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "2*[p3]")
	sim := oracle.Simulate(m, 0, 1)
	sim.Counted = map[string]int{"store": 1}
	o := oracle.CorrectUops(sim, func(insn string) (int, error) {
		if insn == "store" {
			return 1, nil
		}
		return 0, nil
	})
	e := portmap.NewExperiment("store", "store", "add")
	raw, _ := sim.Measure(context.Background(), e)
	fixed, _ := o.Measure(context.Background(), e)
	fmt.Println(raw.Uops, "counted,", fixed.Uops, "µops")
	// Output:
	// 3 counted, 5 µops
}

// batches is a benchmarker that measures batches, as the host's does, and
// prints their sizes.
type batches struct{ oracle.Oracle }

func (b batches) MeasureBatch(ctx context.Context, exps []portmap.Experiment, done func(int, portmap.Measurement, error)) error {
	fmt.Println("a batch of", len(exps))
	for i, e := range exps {
		m, err := b.Measure(ctx, e)
		done(i, m, err)
	}
	return nil
}

func ExampleWrap() {
	// An adapter that reports core cycles as reference cycles of a clock
	// 1.25 times slower. Built on Middleware, it passes batches (and the
	// other capabilities) on to the oracle it wraps.
	m := portmap.MustMapping("fig3.1", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]")
	ref := oracle.Wrap(batches{oracle.Simulate(m, 0, 1)}, oracle.Hooks{
		Keep: func(_ context.Context, _ portmap.Experiment, x portmap.Measurement, err error) (portmap.Measurement, error) {
			x.Cycles /= 1.25
			return x, err
		},
	})
	exps := []portmap.Experiment{portmap.NewExperiment("add"), portmap.NewExperiment("mul"), portmap.NewExperiment("store", "store")}
	set, _, err := oracle.MeasureAll(context.Background(), ref, exps, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, x := range set.Measurements {
		fmt.Println(x.Experiment, x.Cycles)
	}
	// Output:
	// a batch of 3
	// {add ↦ 1} 0.4
	// {mul ↦ 1} 0.8
	// {store ↦ 2} 1.6
}
