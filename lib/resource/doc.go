// Package resource holds conjunctive resource mappings, the model PALMED
// infers (Derumigny et al., "PALMED: Throughput Characterization for
// Superscalar Architectures", CGO 2022, Def. 3.2): every instruction uses
// every abstract resource it is connected to, instruction i keeping
// resource r busy for ρ(i,r) cycles per instance (a non-negative
// rational, possibly above 1), and a kernel K takes
//
//	t(K) = max_r Σ_i σ(K,i)·ρ(i,r)
//
// cycles per iteration; the resource reaching the maximum is the
// bottleneck that explains the throughput.
//
// Dual turns a disjunctive port mapping (package portmap) into the
// equivalent resource mapping (the ∇-dual of the paper's Def. A.5): one
// resource per port set J of a family ∇, used by every µop whose ports all
// lie in J, with load count/|J|. With ∇ the set of all non-empty port
// subsets (NablaAll) the dual gives exactly the bottleneck throughput of
// the port mapping (Thm A.2); the ∇-closure of the µops' port sets
// (NablaClosure: union of intersecting sets until nothing changes) is
// enough, and much smaller (13 resources for Skylake).
//
// A Mapping predicts (it is an oracle.Predictor, so metrics.Evaluate
// scores it), explains a kernel's throughput by its bottleneck (Explain),
// renders itself (String, HTML) and reads and writes JSON in normalised
// form (loads ρ, every resource of throughput 1) or non-normalised form
// (resources with throughputs, instructions with uses).
package resource
