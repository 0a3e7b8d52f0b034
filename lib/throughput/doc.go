// Package throughput computes the inverse throughput a port mapping predicts
// for an experiment: the average number of core cycles per execution of the
// experiment's multiset when the core repeats it forever and schedules µops
// optimally on their ports (thesis Defs. 3.5 and 3.11). Two exact methods are
// provided. LP solves the linear program of PMEvo (PLDI 2020) Def. 3 /
// thesis Thms 3.7 and 3.12 with gonum's simplex method and returns an optimal Schedule — the
// mass of each µop on each port, hence the port pressure. Bottleneck and
// Model evaluate the bottleneck formula of thesis Thm 5.2,
//
//	t*(e) = max over non-empty port sets Q of  mass(µops whose ports ⊆ Q) / |Q|,
//
// in exact integer arithmetic, and return the bottleneck ports (the union of
// all maximizing Q, the ports busy all the time in every optimal schedule,
// Thm 3.14) as the explanation of the result.
//
// On CPUs with AVX2 and mappings with at most 11 ports, the formula is
// evaluated over all 2^|P| port sets at once: each instruction has a table
// of its µops inside every port set, one byte per set, an experiment's mass
// function is the sum of its instructions' tables, 64 sets per AVX-512
// instruction (32 with AVX2), and the best ratio and the bottleneck ports
// are read off the sums (subsets.go; about 85 ns for five instructions on 10
// ports; PORTLAB_SIMD=avx2 or off in the environment restricts them).
// Otherwise the formula is evaluated without visiting all port sets: a
// maximizer is always a union of the µop port sets present in the
// experiment. A fast path covers experiments with at most 32 distinct µop
// kinds on at most 16 ports: ports and kinds are bits of a word, ratios are
// compared exactly as whole numbers, and the hot loops avoid data-dependent
// branches. Up to six kinds all their unions are enumerated; otherwise
// single-port µops are folded into a base load per port, and up to six
// multi-port kinds all their unions are enumerated; beyond that a flow
// method schedules the µop mass under a port capacity raised to the density
// of any set of full ports that cannot absorb its mass, and reads the
// bottleneck ports off the final schedule. Outside the fast path the kinds
// are split into connected components, each solved by union enumeration, the
// flow method, a pruned search over unions or a subset-sum (zeta) transform
// over the ports. All are exact and checked against each other, the LP and
// brute force. A Model is a mapping prepared once for evaluation; its
// Evaluate method on pre-indexed experiments is what inference algorithms
// call millions of times. An optional FrontEnd bound caps the throughput by
// instructions or µops per cycle (t ≥ |e|/R, thesis §3.2.2 and Ch. 5).
package throughput
