// Package explainable is the explainable port-mapping inference of
// Ritter's thesis (Ch. 6), which needs no per-port counters: only cycles
// and one counter of all µops, as AMD's Zen cores have. It adapts
// uops.info's blocking-instruction algorithm (package infer/uopsinfo) in
// five stages: measure every instruction alone (stage 0); take the
// single-µop instructions as blocking candidates, whose number of ports is
// their instructions per cycle (stage 1); group candidates with the same
// port set, which Theorem 6.3 recognises by additive inverse throughput
// (stage 2); measure the front end's peak rate with greedy mixes of the
// blocking instructions (stage 3); map the blocking instructions to ports
// with counterexample-guided SMT search (stage 4, package infer/cegis with
// z3, each blocking instruction's number of ports fixed, improper blocking
// instructions such as stores with two µops, one of them a proper
// blocking instruction's); and find every other instruction's µops by how
// much it slows down each blocking instruction (stage 5, run three times,
// a majority deciding).
//
// Method (registered as "explainable": portlab infer explainable) runs all
// five; FindBlocking and Decompose are stages 0–2 and 5 on their own.
// Every decision is recorded: Report.Explain says, per instruction, which
// experiments put it on its ports or why it is not mapped — not a blocking
// candidate, µops on port sets no blocking instruction has, counts that
// are not whole numbers, runs that disagree, or µops found that the µop
// counter does not count (AMD's counter counts macro-ops: Method.MacroOps
// corrects it with the thesis's Postulate 6.5, and what the postulate does
// not explain, such as 8-bit read-modify-write instructions, is flagged).
// Stage 2 assumes that the front end is no bottleneck for the candidates:
// when it admits no more instructions per cycle than a candidate has ports,
// different port sets of that size look the same (thesis §6.2.3); the
// report warns when stage 3 finds such a peak.
package explainable
