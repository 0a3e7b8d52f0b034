// Package oracle is the seam between the stages of port-mapping research:
// everything that answers "how many cycles does this experiment take?"
// plugs in here, so that inference, evaluation, plotting and notebooks
// treat the host's hardware, a simulation, stored data and other tools
// alike. An Oracle measures one experiment at a time and returns a
// portmap.Measurement (cycles per execution of the multiset in steady
// state, and where it knows them the spread of its timings and µop
// counts); a Predictor answers a whole list of experiments at once and may
// leave some out with a reason. The host benchmarker (measure.Hardware), a
// resumable campaign file (measure.Campaign) and Simulated (a known mapping
// with optional noise, thesis §3.3) are oracles; FromMapping (the
// bottleneck formula of a mapping), Stored (another tool's predictions kept
// with measured data) and peers such as llvm-mca (package
// predict/llvmmca) are predictors; Replay is both. StoredFirst answers
// from stored measurements and asks another oracle (a new campaign) only
// for what they lack, so that one method can reuse the measurements of
// another. AsOracle and AsPredictor turn one into the other.
//
// Adapters change an oracle and keep its capabilities (batches,
// preparation, noise, memory; see Oracle), being built on Middleware:
// Repeat takes the median of fresh samples (asking for all of a batch's
// repeats as one batch), CorrectUops adds the µops a counter misses, Count
// counts the queries; StoredFirst and measure.Campaign answer what they
// hold and ask their oracle for the rest.
//
// MeasureAll is the one measuring loop: experiment designs (package
// design), inference methods and campaigns all measure through it, so
// progress reporting, batching for oracles that prepare experiments ahead
// (Preparer), cancellation and the treatment of failures are the same
// everywhere. An experiment an oracle or predictor cannot handle — an
// instruction a mapping does not map, one the host cannot run, one llvm-mca
// rejects — fails alone: it is reported as a portmap.Failure with the
// instruction at fault and the reason, and the others go on.
package oracle
