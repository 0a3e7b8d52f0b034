// Package cegis infers a port mapping by counter-example-guided inductive
// synthesis with the SMT solver Z3 (Ritter's thesis Ch. 4, Algorithm 4.1):
// it asks the solver for a mapping consistent with every measurement so far
// (findMapping), then for a second consistent mapping together with an
// experiment on which the two predict different throughputs
// (findOtherMapping), measures that experiment, and repeats until no second
// mapping exists — the result is then indistinguishable from the machine by
// any throughput experiment. It offers the thesis's extensions (§4.3, §4.4):
// a tolerance ε on cycles per instruction, a front-end cap on instructions
// per cycle, singleton seeding, stratified experiment sizes, incremental
// solving with push and pop, and three-level mappings with known µop
// counts. When no mapping explains the measurements, the error names a
// small conflicting subset of them (an unsatisfiable core); when
// distinguishing experiments keep ruling out neither of the two mappings
// they should tell apart, the search stops with an *UndecidedError naming
// them instead of asking again.
//
// Two SMT encodings of "M predicts t cycles for e" are available. Thesis is
// Definition 4.5: the port LP with its optimality stated through
// bottleneck-port literals, with fresh real variables per experiment.
// Bottleneck, the default, needs no optimality conditions: a measurement
// bounds t from both sides, and each side has its own witness — t ≥ lo
// holds when some port set Q chosen by the solver confines µop mass of at
// least lo·|Q| (the bottleneck formula of Thm 5.2), t ≤ hi when some
// schedule loads no port beyond hi. A measurement of an experiment with at
// most four µop slots (the singletons, pairs and small experiments that
// make up most of a run) is stated without real variables at all: by the
// same formula over the subsets S of its slots, t ≤ hi when every S
// spreads over at least ⌈mass(S)/hi⌉ ports and t ≥ lo when some S over at
// most ⌊mass(S)/lo⌋ — cardinality constraints over literals shared by all
// measurements. Around it portlab adds lex-leader
// constraints against port renaming (and reordering an instruction's µops),
// asks the unbounded question first over rational experiments (it is
// scale-invariant, so a rational answer scales to an integer one) and lets
// the bottleneck simulator of package throughput find the smallest
// experiment that tells the solver's two mappings apart, and tries earlier
// counter-candidates on all small experiments before asking the solver at
// all; before the unbounded question it asks only for a second consistent
// mapping (a plain satisfiability question with the first blocked) and
// lets the simulator find the experiment, which settles most iterations
// at a fraction of the cost (on five random truths of 8 ports × 10
// instructions, in one run, the median processor time fell from 25.6 s to
// 5.4 s with the subsets and to 1.6 s with both; bench/results has that
// comparison and the sweeps at 10 × 20 and 12 × 16). For two-level
// mappings without a front-end bound, the question without a size bound
// is asked in a Boolean form: by the bottleneck formula two mappings
// differ by more than 2ε·|e| on some experiment exactly when some set of
// instructions has port unions of a and b ports with 1/a − 1/b > 2ε, so
// one literal per instruction and per port and cardinality constraints
// replace the real-valued schedule and the constraint per port set (4,095
// of them on 12 ports); the same union counts, over every instruction
// set, let the simulator decide whether an enumerated second mapping can
// be told apart at all. BenchmarkInfer
// compares the thesis's and portlab's settings.
//
// The answer that ends the search (no second mapping) is trusted only from
// a solver process started after the last measurement: otherwise the same
// questions are asked again of a new process holding the same
// assertions, without the history of the run's incremental queries (z3
// 4.8.12 once answered unsat there although a renaming of the truth
// satisfied every assertion in force, and the run ended complete with a
// wrong mapping). Before a mapping is returned, the bottleneck simulator
// checks that it reproduces every measurement within ε; an
// *UnexplainedError names the one it does not.
//
// On a real machine, Config.NoiseEpsilon takes ε from the benchmarker's
// own dispersion, and the measurements of a conflict are measured again
// (Config.Remeasure, the median kept) before the conflict is reported. Method puts the algorithm behind the
// inference contract of package infer ("portlab infer cegis"); the solver
// runs as a subprocess (package solver/z3), so the z3 binary must be
// installed (Debian and conda package z3).
package cegis
