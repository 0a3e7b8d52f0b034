// Package design builds the experiment lists that port-mapping research
// measures: Singletons (each instruction alone), Pairs (every two distinct
// instructions together), RatioPairs (PMEvo's balanced pairs
// {a ↦ 1, b ↦ ⌈t(a)/t(b)⌉}, built from measured singletons so that both
// instructions matter to the throughput), Random (PMEvo's evaluation sets:
// experiments of a fixed length drawn uniformly) and PMEvo, the whole
// training design of PMEvo (PLDI 2020 §4.1; thesis §5.1.1), measured
// through any oracle. Latency is the latency design: for every register
// input and register output of a form, an experiment whose kernel chains
// copies of the form through that operand pair (measure.LatencyKernel
// builds it), and Latencies turns its measurements into the latencies of
// a machine description (package machine) for the block simulator.
//
// Designs that depend on measurements (ratio pairs need the singletons)
// measure through an oracle.Oracle with oracle.MeasureAll, so the same
// code serves an in-memory simulation and a resumable campaign on the host
// (measure.Campaign is an oracle that answers from its file what it has
// measured before). Build turns the names the command line uses —
// "singletons", "pairs", "ratio", "pmevo", "latency",
// "random:LENGTH:COUNT[:SEED]" —
// into experiments, so that notebooks and the portlab command speak the
// same language.
package design
