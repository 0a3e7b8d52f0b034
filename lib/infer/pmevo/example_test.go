package pmevo_test

import (
	"context"
	"fmt"
	"time"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/infer/pmevo"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// Infer a mapping from simulated measurements of a known one and check
// that it explains them.
func ExampleInfer() {
	truth := portmap.MustMapping("toy", "0", "1", "2", "3")
	truth.MustSetUsage("add", "1*p0123").MustSetUsage("sub", "1*p0123").
		MustSetUsage("mul", "1*p1").MustSetUsage("shuf", "1*p3").
		MustSetUsage("load-add", "1*p2+1*p0123").MustSetUsage("div", "1*p0+2*p1")
	ctx := context.Background()

	// Singletons, pairs and ratio pairs, measured by a simulation of truth.
	train, _, err := design.PMEvo(ctx, oracle.Simulate(truth, 0, 1), truth.Instructions(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg := pmevo.DefaultConfig(4)
	cfg.Population, cfg.Generations = 200, 50
	res, err := pmevo.Infer(ctx, train, cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	r := res.Report
	fmt.Println("training experiments:", train.Len())
	fmt.Println("congruence classes:", r.Representatives, res.Classes[0].Members)
	fmt.Println("training MAPE below 0.1 %:", r.TrainingMAPE < 0.1)
	fmt.Println("add and sub share µops:", res.Mapping.Usage("add") == res.Mapping.Usage("sub"))
	// Output:
	// training experiments: 32
	// congruence classes: 5 [add sub]
	// training MAPE below 0.1 %: true
	// add and sub share µops: true
}

// Congruence groups instructions that behave alike in every experiment.
func ExampleCongruence() {
	truth := portmap.MustMapping("toy", "0", "1")
	truth.MustSetUsage("add", "1*p01").MustSetUsage("xor", "1*p01").MustSetUsage("mul", "1*p1")
	train, _, _ := design.PMEvo(context.Background(), oracle.Simulate(truth, 0, 1), truth.Instructions(), nil)
	classes, _ := pmevo.Congruence(train, 0.05)
	for _, c := range classes {
		fmt.Println(c.Representative, c.Members)
	}
	// Output:
	// add [add xor]
	// mul [mul]
}

// PMEvo behind the inference contract: infer.Infer measures the training
// design with the oracle and counts the queries.
func ExampleMethod() {
	truth := portmap.MustMapping("toy", "0", "1")
	truth.MustSetUsage("add", "1*p01").MustSetUsage("xor", "1*p01").MustSetUsage("mul", "1*p1").MustSetUsage("shuf", "2*p0")
	m := pmevo.New()
	m.Config.Population, m.Config.Generations = 100, 30
	res, err := infer.Infer(context.Background(), infer.Problem{Oracle: oracle.Simulate(truth, 0, 1), Instructions: truth.Instructions(), Ports: 2}, m, &infer.Settings{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	_, same := portmap.EquivalentByRenaming(truth, res.Mapping)
	fmt.Println(res.Method, "asked", res.Queries, "experiments; the same mapping up to renaming:", same)
	fmt.Println(res.Report.(*pmevo.Result).Report.Representatives, "congruence classes")
	// Output:
	// pmevo asked 15 experiments; the same mapping up to renaming: true
	// 3 congruence classes
}

// Following a run as it goes: Throttle hands the history so far to a
// redraw function on the first generation and then at most once per
// interval (a notebook passes plots.EvolutionProgress to display.Update).
func ExampleThrottle() {
	redraws := 0
	progress := pmevo.Throttle(time.Hour, func(h []pmevo.Generation) {
		redraws++
		fmt.Println("redraw after generation", h[len(h)-1].Index)
	})
	for i := range 5 {
		progress(pmevo.Generation{Index: i})
	}
	fmt.Println(redraws, "redraw for 5 generations within the hour")
	// Output:
	// redraw after generation 0
	// 1 redraw for 5 generations within the hour
}
