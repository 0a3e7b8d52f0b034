// Package llvmmca runs the peer predictor llvm-mca, LLVM's machine code
// analyzer, as a subprocess behind the oracle.Predictor interface, so that
// its predictions are evaluated, plotted and compared like those of any
// port mapping (Predictor, New).
//
// llvm-mca sees the experiments as the PMEvo authors fed them to IACA,
// llvm-mca and Ithemal (PLDI 2020 §5; Ritter's thesis §5.2.1): the
// experiment's instructions are repeated into a loop body of about ten
// instructions (two copies of PMEvo's five-instruction experiments),
// instantiated with registers and memory slots chosen by the benchmarker's
// allocation without read-after-write dependencies (package operands,
// thesis Algorithm 3.1), and the tool's cycles per loop iteration are
// divided by the number of copies. That is "Total Cycles" divided by
// "Iterations" of the region's simulation (Predictor.Metric selects the
// static "Block RThroughput" instead). Hundreds of experiments go to one
// llvm-mca run as separate code regions, and runs proceed in parallel, so a
// 2,000-experiment evaluation set takes a few seconds. An experiment
// llvm-mca rejects, or cannot schedule on the chosen CPU, fails alone: it
// is reported with the instruction at fault and llvm-mca's message.
package llvmmca
