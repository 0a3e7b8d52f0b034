package cegis_test

import (
	"context"
	"fmt"

	"github.com/portlab/portlab/lib/infer/cegis"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// Inferring a three-level mapping with a known µop count (fma has two
// µops) from a simulated machine: the result is the truth up to renaming
// the ports, and no other mapping explains what was measured. It needs the
// z3 binary.
func Example() {
	truth := portmap.MustMapping("toy", "0", "1").MustSetUsage("add", "1*p01").MustSetUsage("sub", "1*p01").
		MustSetUsage("mul", "1*p1").MustSetUsage("fma", "1*p01+1*p1")
	cfg := cegis.DefaultConfig()
	cfg.UopCounts = map[string]int{"fma": 2}
	res, err := cegis.Infer(context.Background(), oracle.Simulate(truth, 0, 1), truth.Instructions(), 2, cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	_, same := portmap.EquivalentByRenaming(res.Mapping, truth)
	fmt.Println("complete:", res.Complete, "- the truth up to renaming:", same)
	for _, m := range res.Measurements.Measurements[4:] {
		fmt.Println("measured", m)
	}
	// Output:
	// complete: true - the truth up to renaming: true
	// measured {fma ↦ 1, mul ↦ 1}: 2 cycles (3 µops)
}
