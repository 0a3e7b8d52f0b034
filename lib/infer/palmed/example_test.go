package palmed_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/portlab/portlab/lib/infer/palmed"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// Infer the resource mapping of PALMED's Fig. 1 machine from simulated
// cycle measurements, and explain the kernels of Fig. 2 with it.
func ExampleInfer() {
	truth := portmap.MustMapping("fig1", "0", "1", "6")
	truth.MustSetUsage("DIVPS", "1*p0").MustSetUsage("VCVTT", "2*p01").
		MustSetUsage("ADDSS", "1*p01").MustSetUsage("BSR", "1*p1").
		MustSetUsage("JNLE", "1*p06").MustSetUsage("JMP", "1*p6")
	cfg := palmed.DefaultConfig()
	cfg.Basic = 5
	res, err := palmed.Infer(context.Background(), oracle.Simulate(truth, 0, 1), truth.Instructions(), cfg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("very basic:", strings.Join(res.VeryBasic, " "))
	fmt.Println("most frugal:", strings.Join(res.MostFrugal, " "))
	for _, k := range []portmap.Experiment{
		portmap.NewExperiment("ADDSS", "ADDSS", "BSR"),
		portmap.NewExperiment("ADDSS", "BSR", "BSR"),
		portmap.NewExperiment("ADDSS", "ADDSS", "JNLE", "JNLE"),
	} {
		x, _ := res.Mapping.Explain(k)
		fmt.Printf("%v: IPC %.4g\n", k, x.IPC)
	}
	// Output:
	// very basic: JMP BSR DIVPS
	// most frugal: JNLE ADDSS
	// {ADDSS ↦ 2, BSR ↦ 1}: IPC 2
	// {ADDSS ↦ 1, BSR ↦ 2}: IPC 1.5
	// {ADDSS ↦ 2, JNLE ↦ 2}: IPC 3
}
