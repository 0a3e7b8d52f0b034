package dataset_test

import (
	"fmt"
	"log"

	"github.com/portlab/portlab/lib/dataset"
)

func ExamplePMEvoExperiments() {
	s, err := dataset.PMEvoExperiments("SKL", "eval_small_annotated")
	if err != nil {
		log.Fatal(err)
	}
	m := s.Measurements[0]
	fmt.Println(s.Len(), "experiments of", m.Experiment.Len(), "instructions")
	fmt.Println("stored predictions:", s.OtherIDs())
	fmt.Printf("first: measured %.3f cycles, IACA %.1f\n", m.Cycles, m.Others["IACA"])
	// Output:
	// 2000 experiments of 5 instructions
	// stored predictions: [IACA Ithemal llvm-mca]
	// first: measured 3.014 cycles, IACA 2.0
}

func ExampleUopsInfo() {
	m, err := dataset.UopsInfo("ICL")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Name(), "ports:", m.Ports())
	fmt.Println(m.Usage("add RW:GPR:64, R:GPR:64"))
	fmt.Println(m.Usage("vaddps W:YMM0..15, R:YMM0..15, R:YMM0..15"))
	zen, err := dataset.UopsInfo("ZEN+")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(zen.Name(), "ports:", zen.Ports())
	// Output:
	// ICL ports: [0 1 2 3 4 5 6 7 8 9]
	// 1*p0156
	// 1*p01
	// ZEN+ ports: [FP0 FP1 FP2 FP3]
}

func ExampleMapping() {
	// The names the portlab command and notebooks share.
	m, err := dataset.Mapping("pmevo:SKL/uops_info")
	if err != nil {
		fmt.Println(err) // e.g. the data are not found and cannot be downloaded
		return
	}
	set, err := dataset.Experiments("pmevo:SKL/eval_small")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Len(), "forms on", m.NumPorts(), "ports;", set.Len(), "measured experiments")
	// Output:
	// 310 forms on 9 ports; 2000 measured experiments
}
