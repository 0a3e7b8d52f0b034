// Package compare runs several port-mapping inference methods side by
// side on one oracle with one budget and compares what they infer: the
// benchmarks each used, its time and its accuracy on one held-out set
// (metrics.Evaluate), and the instructions on which their models
// disagree, each with the experiment that tells them apart.
//
// It extends the comparison of Ritter's thesis, Table 6.3 (the explainable
// method, PMEvo and PALMED on real Zen+ hardware, §6.3.6), to every method
// registered with package infer — PMEvo (Ritter and Hack, PLDI 2020),
// PALMED (Derumigny et al., CGO 2022), counter-example-guided SMT inference
// (thesis Ch. 4), uops.info's blocking-instruction algorithm (Abel and
// Reineke, ASPLOS 2019; thesis Algorithm 6.1) and the explainable method
// (thesis §6.2) — and to any oracle: a simulated machine, where the truth
// answers beside the methods, or stored host measurements replayed.
//
// # Budget
//
// Every method runs through infer.Infer with the same infer.Settings: the
// same query limit, time limit and seed. A method that cannot honour them
// says so in its row (Row.Budget): a run stopped by a limit keeps its
// best result and names the limit; a method that learns from stored
// measurements (infer.Problem.Data) uses them beyond any query limit. A
// method that needs what the oracle does not offer — per-port µop
// counters (Algorithm 6.1) or a µop counter (the explainable method) on a
// host without a PMU, an experiment a replay does not hold — gets a row
// with the reason (Row.Err) instead of failing the comparison.
//
// # Sub-problems
//
// A method that handles only small problems (counter-example-guided
// inference: about 8 ports × 10 forms in minutes) runs on a sub-problem
// of representative forms (Method.Forms, Representative); it is evaluated
// on the held-out experiments over its forms or on a held-out set of its
// own (Method.HeldOut), and its row names the set.
//
// # Disagreements
//
// Two methods disagree on an instruction when they predict different
// inverse throughputs for an experiment containing it. SideBySide tries
// each instruction alone and with every other instruction (pairs 1:1, as
// in PMEvo's training design) and keeps, per instruction, the experiment
// on which the methods' predictions differ most — a pair credited to the
// instruction by how much more it differs than the other instruction
// alone, so that one instruction mapped differently does not make every
// partner look disputed — with every method's prediction and, on a
// simulated machine, the truth's.
package compare
