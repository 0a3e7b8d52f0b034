// Package predict puts every source of throughput predictions behind one
// interface, so that evaluation, plotting and notebooks treat them alike.
// A Predictor maps experiments — multisets of instructions — to their
// inverse throughput: core cycles per execution of the multiset in steady
// state, the quantity the benchmarker measures (package measure) and the
// PMEvo data sets store. FromMapping predicts with a port mapping by the
// bottleneck formula (package throughput), Stored answers with the
// predictions of other tools kept with measured experiments (IACA, llvm-mca
// and Ithemal in the PMEvo data), and peers are other tools run as
// subprocesses: LLVMMCA runs LLVM's machine code analyzer. An experiment a
// predictor cannot handle — an instruction a mapping does not map, one
// llvm-mca rejects or cannot schedule on the chosen CPU — does not fail the
// others: Predict returns NaN for it and an *UnsupportedError that names the
// experiment, the instruction and the reason (Run returns them as a list).
//
// Peers see the experiments as the PMEvo authors fed them to IACA,
// llvm-mca and Ithemal (PLDI 2020 §5; Ritter's thesis §5.2.1): the
// experiment's instructions are repeated into a loop body of about ten
// instructions (two copies of PMEvo's five-instruction experiments),
// instantiated with registers and memory slots chosen by the benchmarker's
// allocation without read-after-write dependencies (thesis Algorithm 3.1),
// and the tool's cycles per loop iteration are divided by the number of
// copies. For llvm-mca that is "Total Cycles" divided by "Iterations" of the
// region's simulation (LLVMMCA.Metric selects the static "Block
// RThroughput" instead). Hundreds of experiments go to one llvm-mca run as
// separate code regions, and runs proceed in parallel, so a 2,000-experiment
// evaluation set takes a few seconds.
package predict
