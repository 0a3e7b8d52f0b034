// Package anica finds where basic-block throughput predictors disagree and
// describes each disagreement as a class of blocks: AnICA, "Analyzing
// Inconsistencies in Microarchitectural Code Analyzers" (Ritter's thesis,
// Ch. 8; Ritter & Hack, OOPSLA 2022).
//
// A campaign (Campaign.Run, thesis Algorithm 8.1) samples random blocks,
// keeps those whose predictions differ by more than a threshold or on
// which a predictor fails (Score, §8.1.1), minimises each (Minimize),
// and generalises it (Generalize, Algorithm 8.2) into an abstract block
// that every sampled member of which is interesting: a Discovery. The
// abstract domain (Domain, §8.1.4) describes an instruction by the
// features of its form — the form itself, its mnemonic up to an edit
// distance, its operand types (register classes and widths, memory,
// immediates, implicit operands), its memory use, category and ISA
// extension (Table 8.1, 8.2) — and a block by its abstract instructions
// and must/must-not aliasing constraints between operands (Eq.
// 8.13–8.17). Domain.Sample draws concrete blocks from an abstract one
// (§8.1.5), deterministically for a seed; Campaign.Subsumes decides
// subsumption (Definition 8.7); Rank orders discoveries (§8.1.7);
// Campaign.Coverage measures how much of a random test set the
// discoveries explain (§8.2.3) and Campaign.Soundness how many fresh
// samples of a discovery are interesting again. Every parameter is a
// field of Config with the thesis' default.
//
// Predictors are sim.BlockPredictors (the block simulator, llvm-mca, the
// host's block measurement), each behind a Cache, so that a campaign asks
// a predictor about a block only once. A predictor that fails on a block
// — llvm-mca crashing or running past its timeout, the host's block
// faulting when run (a signal inside the harness's buffer) — makes it
// interesting (score +Inf; its Prediction is "crash: " and the
// message) and the campaign goes on — unless the
// predictor says the block is outside what it can be asked (Limited: the
// host's harness cannot run a block whose addresses it cannot bound);
// such a block is left out of the campaign, as the thesis leaves out
// blocks a predictor does not support (§8.2.2), and never becomes a
// discovery. Campaigns are journalled as JSON
// lines (Journal) and resume where they stopped.
//
// A Domain and a Campaign are not safe for concurrent use.
package anica
