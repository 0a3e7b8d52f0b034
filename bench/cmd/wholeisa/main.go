// Command wholeisa validates the class pipeline (portlab infer classes) on
// a simulated machine: it draws N forms of a mapping, runs the pipeline
// through infer.Infer with the simulation as the oracle, and scores the
// result with metrics.Evaluate on random length-5 experiments over all
// mapped forms, measured exactly by the same simulation (never used in
// training), beside the number of experiments PMEvo's design over all N
// forms would measure.
//
// Usage:
//
//	go run ./bench/cmd/wholeisa -machine uops.info:SKL -n 490 [-noise σ] [-tol T] [-eval 2000] [-inner-time 2m]
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"slices"
	"time"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/infer/classes"
	_ "github.com/portlab/portlab/lib/infer/palmed"
	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
)

func main() {
	name := flag.String("machine", "uops.info:SKL", "simulated machine (mapping name or file)")
	n := flag.Int("n", 490, "forms drawn from the mapping")
	noise := flag.Float64("noise", 0, "relative noise of the simulated measurements")
	tol := flag.Float64("tol", 0, "classes' tolerance (0: its default)")
	evalN := flag.Int("eval", 2000, "random length-5 experiments to evaluate on")
	innerTime := flag.Duration("inner-time", 2*time.Minute, "time limit of each inference on the representatives")
	portRange := flag.Int("port-range", 2, "port counts tried above the lower bound")
	seed := flag.Uint64("seed", 1, "seed of the draw, the noise and the inference")
	inner := flag.String("method", "palmed", "inference method on the representatives")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *name, *n, *noise, *tol, *evalN, *innerTime, *portRange, *seed, *inner); err != nil {
		fmt.Fprintln(os.Stderr, "wholeisa:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, name string, n int, noise, tol float64, evalN int, innerTime time.Duration, portRange int, seed uint64, inner string) error {
	m, err := machine.Lookup(name)
	if err != nil {
		return err
	}
	all := m.Mapping.Instructions()
	if n <= 0 || n > len(all) {
		n = len(all)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	forms := slices.Clone(all[:n])
	truth := m.Mapping
	o := oracle.Simulate(truth, noise, seed)
	method := classes.New()
	method.Config.Tolerance, method.Config.InnerTime, method.Config.PortRange, method.Config.Method = tol, innerTime, portRange, classes.MethodName(inner)
	method.Notes = os.Stderr
	start := time.Now()
	res, err := infer.Infer(ctx, infer.Problem{Oracle: o, Instructions: forms}, method, &infer.Settings{Seed: seed})
	if res == nil {
		return err
	}
	elapsed := time.Since(start)
	rep := res.Report.(*classes.Report)
	fmt.Println(rep)
	fmt.Printf("truth: %s, %d ports; %d forms drawn; noise %.1f %%\n", name, truth.NumPorts(), n, 100*noise)
	fmt.Printf("experiments: %d queries (%d distinct) against %d for PMEvo's design over all forms (%.1f×); wall time %s\n",
		res.Queries, res.Distinct, n*n, float64(n*n)/float64(res.Distinct), elapsed.Round(time.Second))
	mapped := rep.MappedForms()
	held := design.Random(mapped, 5, evalN, seed+1000)
	exact := oracle.Simulate(truth, 0, seed)
	set, _, err := oracle.MeasureAll(ctx, exact, held, nil)
	if err != nil {
		return err
	}
	ev := metrics.Evaluate(ctx, res.Predictor, set)
	if len(ev.Failures) > 0 {
		fmt.Printf("not predicted: %d; first: %v\n", len(ev.Failures), ev.Failures[0])
	}
	fmt.Printf("held-out (%d random length-5 over the %d mapped forms, exact truth): %v\n", set.Len(), len(mapped), ev.Summary)
	return err
}
