package resource_test

import (
	"fmt"
	"strings"

	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/resource"
)

// The port mapping of PALMED's Fig. 1 and its dual: the conjunctive
// resource mapping that predicts the same throughputs.
func ExampleDual() {
	pm := portmap.MustMapping("fig1", "0", "1", "6")
	pm.MustSetUsage("DIVPS", "1*p0").MustSetUsage("VCVTT", "2*p01").
		MustSetUsage("ADDSS", "1*p01").MustSetUsage("BSR", "1*p1").
		MustSetUsage("JNLE", "1*p06").MustSetUsage("JMP", "1*p6")
	var names []string
	for _, s := range resource.NablaClosure(pm) {
		names = append(names, resource.SetName(pm, s))
	}
	fmt.Println(strings.Join(names, " "))
	d := resource.DualClosure(pm)
	fmt.Print(d)
	for _, k := range []portmap.Experiment{
		portmap.NewExperiment("ADDSS", "ADDSS", "BSR"),
		portmap.NewExperiment("ADDSS", "BSR", "BSR"),
	} {
		x, _ := d.Explain(k)
		fmt.Println(x)
	}
	// Output:
	// r0 r1 r6 r01 r06 r016
	// resource mapping fig1 (dual): 6 instructions, 6 resources
	//        r0  r1  r6  r01  r06  r016
	// DIVPS   1   ·   ·  1/2  1/2   1/3
	// VCVTT   ·   ·   ·    1    ·   2/3
	// ADDSS   ·   ·   ·  1/2    ·   1/3
	// BSR     ·   1   ·  1/2    ·   1/3
	// JNLE    ·   ·   ·    ·  1/2   1/3
	// JMP     ·   ·   1    ·  1/2   1/3
	// {ADDSS ↦ 2, BSR ↦ 1}: 1.5 cycles (IPC 2), bottleneck r01; r01 100%, r1 67%, r016 67%
	// {ADDSS ↦ 1, BSR ↦ 2}: 2 cycles (IPC 1.5), bottleneck r1; r1 100%, r01 75%, r016 50%
}
