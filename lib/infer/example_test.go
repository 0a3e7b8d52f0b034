package infer_test

import (
	"context"
	"fmt"
	"math"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// singletons is a toy inference method: it measures each instruction alone
// and maps it to one kind of µop on the first k ports, k = 1/t for an
// inverse throughput t < 1, or to round(t) µops on port 0.
type singletons struct{}

func (singletons) Name() string { return "singletons" }

// Uses says that the method asks the oracle and needs the number of ports.
func (singletons) Uses() infer.Needs { return infer.Needs{Queries: true, Ports: true} }

func (singletons) Infer(ctx context.Context, p *infer.Problem, s *infer.Settings) (*infer.Result, error) {
	set, _, err := oracle.MeasureAll(ctx, p.Oracle, design.Singletons(p.Instructions), nil)
	if err != nil {
		return nil, err
	}
	m := portmap.MustMapping("singletons", p.PortNames...) // Infer named the ports
	for _, x := range set.Measurements {
		k, n := min(p.Ports, int(math.Round(1/x.Cycles))), int(math.Round(x.Cycles))
		if x.Cycles >= 1 {
			k = 1
		}
		m.MustSetUsage(x.Experiment.List()[0], fmt.Sprintf("%d*p%s", max(n, 1), "0123"[:k]))
	}
	return &infer.Result{Mapping: m}, nil
}

// A method written against the contract, run on a simulated machine and
// scored on 200 random experiments the machine measured.
func Example() {
	truth := portmap.MustMapping("truth", "0", "1", "2", "3")
	truth.MustSetUsage("add", "1*p0123").MustSetUsage("mul", "1*p0").MustSetUsage("div", "4*p0").MustSetUsage("load", "1*p23")
	machine := oracle.Simulate(truth, 0, 1)
	ctx := context.Background()
	res, err := infer.Infer(ctx, infer.Problem{Oracle: machine, Instructions: truth.Instructions(), Ports: 4}, singletons{}, nil)
	if err != nil {
		panic(err)
	}
	test, _, _ := oracle.MeasureAll(ctx, machine, design.Random(truth.Instructions(), 5, 200, 1), nil)
	fmt.Println(res.Method, "asked", res.Queries, "experiments")
	fmt.Println(metrics.Evaluate(ctx, res.Predictor, test).Summary)
	// Output:
	// singletons asked 4 experiments
	// n=200 MAPE=1.51% median APE=0.00% Pearson=1.000 Spearman=0.999 Kendall τ-b=0.995
}

// What each method needs of a problem: infer.Infer provides it (a replay of
// the data for queries, the counters switched on) or refuses the problem
// before anything is asked.
func ExampleNeeds() {
	fmt.Println(infer.Needs{Queries: true, Ports: true, UopCounter: true})
	fmt.Println(infer.Needs{})
	// Output:
	// queries, ports, µop counter
	// nothing
}
