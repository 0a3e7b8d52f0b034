// Package source resolves the names users type for where measurements
// come from — on the portlab command line, in notebooks and in the bench
// commands alike — into experiment sets, instruction-form lists and
// oracles.
//
// Every kind of name has a parse step that checks it without reading any
// data or starting any measurement (ParseExperiments, ParseForms,
// ParseDesigns, ParseCPUs, ParseSimulation, ParseBlocks, CheckNoise), so that bad input is refused
// with an error naming the name and its valid forms before anything
// expensive starts, and a step that does the work (Experiments.Load,
// Forms.Load, OpenHardware, Simulation.Open, Oracle.Open).
//
// # Experiment sets
//
// An experiment set is named by
//
//   - a file: portlab or PMEvo JSON (results.json), or a campaign of
//     portlab measure, JSON lines, optionally gzip-compressed
//     (train.jsonl, host.jsonl.gz), whose failed experiments are left out
//     and counted in Options.Notes;
//   - a data-set name: pmevo:ARCH/SET, e.g. pmevo:SKL/eval_small,
//     pmevo:ZEN/singletons, or pmevo:SKL/len_05 for the Skylake
//     experiments of length 5 (see package dataset);
//   - random:LENGTH:COUNT[:SEED], e.g. random:5:1000: COUNT experiments of
//     LENGTH instructions drawn uniformly from Options.Instructions and
//     measured with Options.Truth. Without SEED the run's seed + 1 is
//     used (Options.Seed), so that an evaluation set differs from the
//     random design a run trains on;
//   - a comma-separated list of these, merged in order: an experiment in
//     several keeps the value of the last (train.jsonl,retry.jsonl).
//
// A prefix that is not known (pmevo:, random:) is an error listing the
// known ones, unless a file of that name exists.
//
// # Instruction forms
//
// A list of instruction forms is named by "curated" (the benchmarkable
// forms of portlab's x86-64 list that uops.info names, without AVX-512),
// "curated:N" (the first N of them, e.g. curated:120) or a file of forms,
// one a line, with # comments (iwho schemes such as
// "add RW:GPR:64, R:GPR:64", or PMEvo names).
//
// # Designs
//
// The experiment designs portlab measure builds (design.Build) are named
// singletons, pairs, ratio, pmevo and random:LENGTH:COUNT[:SEED], or a
// comma-separated list of these (singletons,random:5:1000).
//
// # Blocks
//
// A file of basic blocks or loop bodies (ParseBlocks, Blocks.Load) is a
// BHive-style CSV file (.csv), one block a line as "hex,cycles" with the
// cycles empty for a block not measured, or an assembly file of one block
// (Intel or AT&T syntax, or an objdump -d listing; package block). The
// blocks are predicted by the simulator of package sim on a machine
// named as machine.Lookup resolves names, and by llvm-mca; a block
// predictor's name (ParseBlockPredictor) is sim:MACHINE, llvm-mca:CPU or
// host[:CPU], the blocks measured on this machine.
//
// # Oracles
//
// A simulated machine is named by portlab:zenplus-like (a Zen+-like
// machine with its front-end peak and macro-op counter), a mapping name
// (pmevo:SKL/uops_info, uops.info:SKL) or a mapping file, and simulated
// with a relative noise in [0, 1) (0.02 for 2 %) and a seed. This
// machine's hardware is named by a CPU list: "0", "0,1" (CPUs measured
// at once, refused when they slow each other down by more than
// measure.MaxInterference: SMT siblings) or "-1" (a worker not pinned);
// each CPU must be one the process may run on. Oracle puts the pieces
// together as portlab infer does: replayed experiments, a simulation, or
// forms measured on CPUs with a campaign journal around the hardware,
// and stored answers asked first (oracle.StoredFirst); replayed
// experiments can hold out all but their singletons and pairs
// (SplitHeldOut) for evaluation.
//
// # Notebook helpers
//
// Evaluate and MustEvaluate compare a predictor with measurements under a
// name (metrics.Evaluate for tables); DataDir and DataFile find the files
// of notebooks/data wherever the kernel runs.
package source
