// Package metrics provides accuracy and correlation measures for comparing
// predicted with measured inverse throughputs, as in the evaluation of CPU
// port mappings in PMEvo (Ritter and Hack, PLDI 2020) and in Ritter's thesis.
// The inverse throughput of an experiment (a multiset of instructions) is the
// average number of cycles per execution in a steady state. Functions that
// compare a model with hardware take the measured values first and the
// predicted values second. Accuracy is the mean absolute percentage error
// (MAPE) as PMEvo defines it: the mean over all experiments of
// |predicted − measured| / measured × 100. The measured value is the
// denominator, so MAPE is not symmetric in its arguments and every measured
// value must be positive; results are in percent (9.55 means 9.55 %, not
// 0.0955). A few large outliers can dominate the mean, so MedianAPE is
// provided as a robust companion, and SymmetricRelativeDifference compares
// two values without privileging either one.
//
// Pearson's r measures linear agreement. For a port-mapping model, however,
// the order of experiments often matters more than their absolute values: a
// compiler heuristic or a superoptimizer only has to know which of two
// instruction sequences is faster, and a model that is off by a constant
// factor ranks them perfectly. Rank correlations measure exactly this.
// Spearman's ρ is Pearson's r of the ranks, with tied values given the average
// of the ranks they span. Kendall's τ-b is (concordant − discordant pairs)
// divided by the geometric mean of the numbers of pairs not tied in x and not
// tied in y; this tie correction matters because measurements are rounded
// (the thesis rounds them to two decimals before ranking, see Round), which
// makes ties frequent. KendallTauB uses Knight's O(n log n) algorithm, so tens
// of thousands of experiments take milliseconds. Finally, Histogram2D bins
// (measured, predicted) pairs into the equal-width grid behind PMEvo-style heat
// maps: measured on the x axis, predicted on the y axis, and a common square
// range from 0 to a round value above the largest value (NewHeatmapHistogram).
// Points outside the range are counted, never dropped silently.
//
// # Errors
//
// Problems with the data are reported as errors, never as NaN results and
// never as panics: mismatched lengths, empty input, NaN or infinite values,
// non-positive measured values where they are divided by, and constant input
// where a correlation is undefined. The messages name the offending index and
// value, and they wrap the exported sentinel errors (ErrLength, ErrEmpty,
// ErrNotFinite, ErrNonPositive, ErrConstant, ErrHistogram), so callers can
// test them with errors.Is.
package metrics
