// Package pmevo infers a three-level port mapping from throughput
// measurements alone, with the evolutionary algorithm of PMEvo (Ritter and
// Hack, PLDI 2020; Ritter's thesis Ch. 5). The training experiments are
// singletons {a ↦ 1}, pairs {a ↦ 1, b ↦ 1} and ratio pairs
// {a ↦ 1, b ↦ ⌈t(a)/t(b)⌉} (design.PMEvo measures them with any
// oracle.Oracle: the host benchmarker, a simulation from a known mapping,
// or a replay of a data set). Method puts PMEvo behind the inference
// contract of package infer ("portlab infer pmevo"). Congruence groups instructions that behave
// alike in every experiment, within a tolerance ε, so that only one
// representative per class is inferred. The evolutionary algorithm keeps a
// population of candidate mappings, makes children by recombining the µop
// lists of random parents instruction by instruction, and keeps the best
// half of parents and children by a scalarised fitness: the mean relative
// error D_avg on the training experiments plus the µop volume V = Σ n·|u|,
// each mapped to [0, 1000] over the current population. A greedy local search
// on the counts of the final candidates ends the run, and the members of each
// class get their representative's µops.
//
// Fitness is evaluated with the exact bottleneck formula of package
// throughput, in parallel on all cores; every random choice is drawn from a
// generator seeded by (Seed, generation, child pair), so a run is repeatable
// whatever the number of workers. Beyond the paper, portlab offers a
// mutation operator, a weight on the volume objective, and an extended local
// search ("polish") that also moves µops between port sets and adds or
// removes µops, re-evaluating only the experiments that contain the changed
// instruction, and a deep local search that tries every single µop and
// every pair of µops in use for an instruction; DefaultConfig uses them and
// recovers the uops.info Skylake mapping from exact simulated measurements
// of its 310 forms to within 0.05 % MAPE on random five-instruction
// experiments in about a minute on two cores,
// where PaperConfig (population 100,000, recombination only) reproduces the
// paper's settings. Like PMEvo's, the result is a mapping that explains the
// throughputs, defined only up to renaming of the ports and not necessarily
// the hardware's structure (thesis §5.2.4).
package pmevo
