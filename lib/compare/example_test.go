package compare_test

import (
	"context"
	"fmt"

	"github.com/portlab/portlab/lib/compare"
	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/infer/pmevo"
	_ "github.com/portlab/portlab/lib/infer/uopsinfo"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// PMEvo (cycles only) and uops.info's Algorithm 6.1 (per-port µop
// counters, which the simulation offers) side by side on a small
// simulated machine, with the same budget and 200 held-out random
// experiments of five instructions. PMEvo runs with a population of 4 for
// one generation, far below its defaults, so that its mapping is off: the
// disagreements name the instructions and the experiments that show it,
// with the truth's answer.
func ExampleSideBySide() {
	truth := portmap.MustMapping("toy", "0", "1", "2", "3")
	truth.MustSetUsage("add", "1*p0123").MustSetUsage("mul", "1*p0").MustSetUsage("shl", "1*p01")
	truth.MustSetUsage("load", "1*p23").MustSetUsage("store", "1*p3+1*p2")
	ctx := context.Background()
	heldOut, _, err := oracle.MeasureAll(ctx, oracle.Simulate(truth, 0, 1), design.Random(truth.Instructions(), 5, 200, 7), nil)
	if err != nil {
		panic(err)
	}
	o := &compare.Oracle{Name: "toy (simulated)", Oracle: oracle.Simulate(truth, 0, 1),
		Instructions: truth.Instructions(), Ports: 4, Truth: oracle.FromMapping(truth)}
	pm := pmevo.New()
	pm.Config.Population, pm.Config.Generations, pm.Config.Polish, pm.Config.Deep, pm.Config.LocalSearch = 4, 1, 0, 0, 1
	methods := []compare.Method{{Name: "pmevo", Method: pm}, {Name: "uopsinfo"}}
	table, err := compare.SideBySide(ctx, o, methods, compare.Budget{MaxQueries: 1000, Seed: 1, Workers: 1}, heldOut)
	if err != nil {
		panic(err)
	}
	for _, r := range table.Rows {
		fmt.Printf("%-8s %d queries, %s: MAPE %.2f %%, τ-b %.3f\n", r.Method, r.Queries(), r.Budget, r.Eval.Summary.MAPE, r.Eval.Summary.KendallTauB)
	}
	fmt.Print(table.DisagreementsString(3))
	// Output:
	// pmevo    23 queries, within: MAPE 14.47 %, τ-b 0.826
	// uopsinfo 6 queries, within: MAPE 0.00 %, τ-b 1.000
	// 3 instructions on which the methods disagree by more than 2 % (the first 3):
	//   load
	//     {add ↦ 1, load ↦ 1}: pmevo 0.333, uopsinfo 0.5; truth 0.5 (spread 50 %)
	//   mul
	//     {mul ↦ 1, store ↦ 1}: pmevo 1.25, uopsinfo 1; truth 1 (spread 25 %)
	//   store
	//     {mul ↦ 1, store ↦ 1}: pmevo 1.25, uopsinfo 1; truth 1 (spread 25 %)
}
