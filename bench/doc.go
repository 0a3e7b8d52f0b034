// Package bench measures how much faster the bottleneck formula
// (throughput.Model.Evaluate on a pre-indexed experiment, exact by thesis
// Thm 5.2) computes the inverse throughput of an experiment than the linear
// program (throughput.LP: building the LP from the named experiment and
// solving it with gonum's simplex method), over the axes of PMEvo Fig. 8 /
// thesis Fig. 5.4: (a) 4 to 20 ports with experiments of length 4 and (b) 10
// ports with lengths 1 to 16 (PortsAxis, LengthAxis), plus realistic
// length-5 cases (Realistic): random three-level and two-level mappings with
// 10 ports and the uops.info Skylake mapping (9 ports) on the 2,000 measured
// Skylake experiments of the PMEvo artifact (exps_eval_small.json, found
// with lib/dataset). A random configuration is 8 random mappings
// (RandomMapping: an artificial ISA of 100 instructions; three-level: 1 to 3
// µops per instruction, each with count 1 or 2 and a port set of 1 to 4
// distinct ports, sizes and ports uniform, pairwise different sets within an
// instruction; two-level: one µop of count 1) × 128 random experiments
// (RandomExperiments: instructions drawn uniformly with replacement), drawn
// once per configuration from fixed PCG seeds (RandomCases), outside any
// timed loop. Every timed case is solved by both engines, and the LP value
// must equal the exact bottleneck value.
//
// Following the repository's rule that timings belong in benchmarks and are
// reported as ratios measured in one run, there are two ways to run it. The
// command prints the whole comparison side by side, measured in one process
// on one core (GOMAXPROCS=1 by default): per configuration each case is
// solved once by LP, and after each solve the bottleneck engine runs for
// half the solve's time, so both engines are timed in the same millisecond
// windows and their ratio (the speed-up) stays stable when the machine's
// speed changes during the run; absolute times on a shared machine vary by
// up to 2× between runs, ratios by about 10 %. It also prints the engine's
// back-to-back speed (best of 5 rounds) as evaluations per second, and
// aborts if the two engines disagree on any case. A full run takes about a
// minute, -quick a few seconds; -csv FILE also writes the table as CSV
// (columns Columns) for plots:
//
//	go run ./bench/cmd/lpvsbottleneck [-quick] [-csv FILE] [-procs N] [-share F] [-hot D]
//
// The Go benchmarks BenchmarkBottleneck and BenchmarkLP time the same
// configurations as sub-benchmarks named ports=P/len=L (random three-level),
// two-level/ports=10/len=5 and SKL-uops.info/ports=9/len=5; ns/op is the time
// per experiment, cycling through the configuration's cases:
//
//	go test -run '^$' -bench 'Bottleneck|LP' -cpu 1 ./bench
//	go test -run '^$' -bench 'LP/ports=10/len=4' -benchtime 200x ./bench
package bench
