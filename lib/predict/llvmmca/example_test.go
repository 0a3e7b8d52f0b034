package llvmmca_test

import (
	"context"
	"fmt"
	"log"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/predict/llvmmca"
)

func ExampleNew() {
	// llvm-mca 14 on Skylake: four independent 64-bit adds run in about
	// one cycle, on the four ALU ports; an imul takes one cycle on port 1.
	mca := llvmmca.New("skylake")
	mca.Progress = func(done, total int) { /* update a progress bar */ }
	exps := []portmap.Experiment{
		portmap.NewExperiment("add RW:GPR:64, R:GPR:64", "add RW:GPR:64, R:GPR:64", "add RW:GPR:64, R:GPR:64", "add RW:GPR:64, R:GPR:64"),
		portmap.NewExperiment("IMUL_((REG:RW:G:64)),_((REG:R:G:64))"), // a PMEvo name
	}
	cycles, unsupported, err := oracle.Predict(context.Background(), mca, exps)
	if err != nil {
		log.Fatal(err) // e.g. llvm-mca is not installed
	}
	fmt.Printf("%.2f %v\n", cycles, unsupported)
}
