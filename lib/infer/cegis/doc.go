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
// small conflicting subset of them (an unsatisfiable core).
//
// Two SMT encodings of "M predicts t cycles for e" are available. Thesis is
// Definition 4.5: the port LP with its optimality stated through
// bottleneck-port literals, with fresh real variables per experiment.
// Bottleneck, the default, states the bottleneck formula of Thm 5.2 over
// port sets instead (t is at least the mass confined to one chosen port set
// Q divided by |Q| and at most that of every port set), with boolean
// literals "µop u runs only on ports of Q" shared by all experiments, and
// adds lex-leader constraints against port renaming, a rational relaxation
// of the scale-invariant unbounded check, and a simulation step that tries
// earlier counter-candidates on all small experiments with package
// throughput before asking the solver. Method puts the algorithm behind the
// inference contract of package infer ("portlab infer cegis"); the solver
// runs as a subprocess (package solver/z3), so the z3 binary must be
// installed (Debian and conda package z3).
package cegis
