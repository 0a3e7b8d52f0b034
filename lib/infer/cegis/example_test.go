package cegis_test

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/infer/cegis"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// Inferring a three-level mapping with a known µop count (fma has two
// µops) from a simulated machine: no other mapping explains what was
// measured, so the result predicts what the truth does on every
// experiment (it is the truth up to renaming the ports, or fma on {0} and
// {1} instead of {0,1} and {1}, which no experiment tells apart). It needs
// the z3 binary.
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
	same := true
	got, want := throughput.NewModel(res.Mapping), throughput.NewModel(truth)
	for _, e := range design.Random(truth.Instructions(), 5, 200, 1) {
		a, _ := got.Cycles(e)
		b, _ := want.Cycles(e)
		same = same && math.Abs(a-b) < 1e-9
	}
	fmt.Println("complete:", res.Complete, "- predicts as the truth on 200 random experiments:", same)
	for _, m := range res.Measurements.Measurements[4:] {
		fmt.Println("measured", m)
	}
	// Output:
	// complete: true - predicts as the truth on 200 random experiments: true
	// measured {fma ↦ 1, mul ↦ 1}: 2 cycles (3 µops)
}

// Reading a scaling sweep's results (thesis Fig. 4.6): the points of one
// encoding and port count, the median time of each and the data of a curve
// with error bars. Runs cut off by the time limit count at the limit.
func ExampleReadSweep() {
	results := `{"encoding":"portlab","levels":2,"ports":4,"insns":2,"status":"ok","seconds":0.5,"cpu_s":0.4,"Extra":1,"timeout_s":300}
{"encoding":"portlab","levels":2,"ports":4,"insns":2,"status":"ok","seconds":0.7,"cpu_s":0.6,"Extra":2,"timeout_s":300}
{"encoding":"portlab","levels":2,"ports":4,"insns":8,"status":"ok","seconds":40,"Extra":9,"timeout_s":300}
{"encoding":"portlab","levels":2,"ports":4,"insns":8,"status":"timeout","seconds":300,"timeout_s":300}
{"encoding":"portlab","levels":2,"ports":4,"insns":8,"status":"timeout","seconds":300,"timeout_s":300}
{"encoding":"portlab","levels":2,"ports":4,"insns":8,"status":"ok","seconds":3,"noise":0.02,"timeout_s":300}`
	sweep, err := cegis.ReadSweep(strings.NewReader(results))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(sweep.Runs), "runs,", len(sweep.Points), "points without noise")
	for _, p := range sweep.Series("portlab", 2, 4, 0) {
		fmt.Printf("%d instructions: %v\n", p.X, p)
	}
	x, med, lo, hi := cegis.SeriesStats(sweep.Series("portlab", 2, 4, 0), cegis.WallTime)
	fmt.Println(x, med, lo, hi)
	// Output:
	// 6 runs, 2 points without noise
	// 2 instructions: 0.5 s (processor 0.4 s), n = 2
	// 8 instructions: > 300 s, n = 3
	// [2 8] [0.5 300] [0.5 40] [0.7 300]
}
