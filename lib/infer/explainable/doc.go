// Package explainable is the start of the explainable port-mapping
// inference of Ritter's thesis (Ch. 6), which needs no per-port counters:
// only cycles and one counter of all µops, as AMD's Zen cores have. It
// adapts uops.info's blocking-instruction algorithm (package
// infer/uopsinfo) in five stages: measure every instruction alone (stage
// 0); take the single-µop instructions as blocking candidates, whose
// number of ports is their instructions per cycle (stage 1); group
// candidates with the same port set, which Theorem 6.3 recognises by
// additive inverse throughput (stage 2); measure the front end's peak rate
// (stage 3); map the blocking instructions to ports with counterexample-
// guided search (stage 4); and find every other instruction's µops by how
// much it slows down each blocking instruction (stage 5).
//
// FindBlocking implements stages 0 to 2 and records the evidence for each
// decision: the measurements alone, the pair experiments and which
// instructions were left out and why. Decompose implements stage 5 given
// the mapping of the blocking instructions, with the pair of measurements
// that witnesses each µop found. Stages 3 and 4 are not implemented yet,
// so the package does not infer a mapping on its own and registers no
// method.
// Stage 2 assumes that the front end is no bottleneck for the candidates:
// when it admits no more instructions per cycle than a candidate has ports,
// different port sets of that size look the same (thesis §6.2.3).
package explainable
