package predict_test

import (
	"context"
	"fmt"
	"log"

	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/predict"
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
	p := predict.FromMapping(m)
	cycles, unsupported, err := predict.Run(context.Background(), p, exps)
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
	p := predict.Stored(set, "IACA")
	cycles, err := p.Predict(context.Background(), set.Experiments())
	fmt.Println(p.Name(), cycles)
	fmt.Println(err)
	// Output:
	// IACA (stored) [1 NaN]
	// IACA (stored): 1 of 2 experiments not supported: experiment 1 {mul ↦ 2}: no stored IACA prediction
}

func ExampleLLVMMCA() {
	// llvm-mca 14 on Skylake: four independent 64-bit adds run in about
	// one cycle, on the four ALU ports; an imul takes one cycle on port 1.
	mca := predict.NewLLVMMCA("skylake")
	mca.Progress = func(done, total int) { /* update a progress bar */ }
	exps := []portmap.Experiment{
		portmap.NewExperiment("add RW:GPR:64, R:GPR:64", "add RW:GPR:64, R:GPR:64", "add RW:GPR:64, R:GPR:64", "add RW:GPR:64, R:GPR:64"),
		portmap.NewExperiment("IMUL_((REG:RW:G:64)),_((REG:R:G:64))"), // a PMEvo name
	}
	cycles, unsupported, err := predict.Run(context.Background(), mca, exps)
	if err != nil {
		log.Fatal(err) // e.g. llvm-mca is not installed
	}
	fmt.Printf("%.2f %v\n", cycles, unsupported)
}
