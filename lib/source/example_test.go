package source_test

import (
	"context"
	"fmt"
	"log"
	"path/filepath"

	"github.com/portlab/portlab/lib/source"
)

func ExampleParseExperiments() {
	// Bad names are refused before any data are read.
	for _, name := range []string{"random:5", "pmevo:SKL", "nosuch:set"} {
		_, err := source.ParseExperiments(name)
		fmt.Println(err)
	}
	// Output:
	// experiments "random:5": want random:LENGTH:COUNT[:SEED], e.g. random:5:1000, with LENGTH, COUNT and SEED positive whole numbers
	// experiments "pmevo:SKL": want pmevo:ARCH/SET, e.g. pmevo:SKL/eval_small or pmevo:SKL/len_05
	// experiments "nosuch:set": unknown data-set prefix "nosuch:" (known: pmevo:ARCH/SET, random:LENGTH:COUNT[:SEED]; or a file)
}

func ExampleExperiments_Load() {
	// Random experiments measured with the exact truth of a simulated
	// machine, and its predictor evaluated on them.
	ctx := context.Background()
	sim, err := source.ParseSimulation("portlab:zenplus-like", 0, 1)
	if err != nil {
		log.Fatal(err)
	}
	machine, truth, err := sim.Open(nil)
	if err != nil {
		log.Fatal(err)
	}
	exps, err := source.ParseExperiments("random:5:200:3")
	if err != nil {
		log.Fatal(err)
	}
	set, err := exps.Load(ctx, &source.Options{Truth: truth, Instructions: machine.Mapping.Instructions()})
	if err != nil {
		log.Fatal(err)
	}
	ev, err := source.Evaluate(ctx, "Zen+-like truth", machine.Predictor(), set)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(set.Len(), "experiments")
	fmt.Printf("%s: MAPE %.2f%%\n", ev.Predictor, ev.Summary.MAPE)
	// Output:
	// 200 experiments
	// Zen+-like truth: MAPE 0.00%
}

func ExampleLoadForms() {
	forms, err := source.LoadForms("curated:2")
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range forms {
		fmt.Println(f)
	}
	_, err = source.ParseForms("curated:0")
	fmt.Println(err)
	// Output:
	// add RW:GPR:64, R:GPR:64
	// add RW:GPR:32, R:GPR:32
	// forms "curated:0": want curated, curated:N with N ≥ 1, or a file of instruction forms, one a line
}

func ExampleParseCPUs() {
	cpus, err := source.ParseCPUs("0")
	fmt.Println(cpus, err)
	_, err = source.ParseCPUs("0,0")
	fmt.Println(err)
	// Output:
	// [0] <nil>
	// CPUs "0,0": CPU 0 listed twice
}

func ExampleCheckNoise() {
	fmt.Println(source.CheckNoise(0.02))
	fmt.Println(source.CheckNoise(-0.1))
	// Output:
	// <nil>
	// noise -0.1: want a relative standard deviation in [0, 1), e.g. 0.02 for 2 %
}

func ExampleDataFile() {
	path, err := source.DataFile("host-forms.txt")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(filepath.Base(filepath.Dir(path)), filepath.Base(path))
	// Output:
	// data host-forms.txt
}

func ExampleBenchFile() {
	path, err := source.BenchFile("results/host-blocks-zen5-20261127/host.json")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(filepath.Base(filepath.Dir(path)), filepath.Base(path))
	_, err = source.BenchFile("../go.mod")
	fmt.Println(err)
	// Output:
	// host-blocks-zen5-20261127 host.json
	// source: bench file "../go.mod": want a relative path inside bench/
}
