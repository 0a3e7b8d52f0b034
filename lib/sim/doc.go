// Package sim simulates basic blocks and loop bodies on a machine
// description (package machine) by constraint propagation over abstract
// resources, the approach of Gus (Dutilleul, Pompougnac, Derumigny,
// Rodríguez, Trophime, Guillon and Rastello, "Performance debugging
// through microarchitectural sensitivity and causality analysis", 2024,
// §3.1 and Algorithm 1; an earlier version is Pompougnac et al.,
// "Performance bottlenecks detection through microarchitectural
// sensitivity", arXiv:2402.15773). There is no cycle-by-cycle state: every
// resource, value and queue keeps the earliest time it is available, and
// each instruction, in program order, takes the maximum of the times it
// depends on.
//
// # The model
//
// An instruction of the block (package block: forms, reads and writes,
// Block.Deps with its loop-carried edges and memory aliasing assumption)
//
//   - issues in program order when the front end allows it — at most
//     InstructionsPerCycle (or DecodeWidth, the smaller) instructions and
//     UopsPerCycle (or IssueWidth) µops per cycle, as abstract resources
//     of inverse throughput 1/width, so times are fractional — and when
//     the reorder buffer has room for its µops: a FIFO window of
//     ReorderBuffer µops, each holding its entry from issue to
//     retirement (no limit when 0);
//   - takes, for each µop, the port of its port set that is free
//     earliest (ties to the first port of the mapping; deterministic),
//     from its issue time on, for one cycle (Algorithm 1's UsedBy with
//     tmin the dispatch time: a resource counts uses to bound throughput,
//     it is not held in the cycle the µop waiting for its inputs finally
//     executes in); with a conjunctive resource mapping
//     (PALMED: Derumigny et al., CGO 2022, §2.2–2.3; Options.Resources) it
//     uses every resource it loads, each for its normalised load;
//   - produces each output at the latest over its inputs of max(input
//     ready, start) plus the latency from that input to that output,
//     start being the latest of its issue and resource times, so a memory
//     operand's load overlaps with waiting for a register input;
//   - retires in order, RetireWidth µops per cycle (no limit when 0),
//     when all its outputs are ready.
//
// Latencies come from Machine.Latencies: the operand pair's cycles where
// given (operands indexed as isa.ParseScheme lists them; an address
// register belongs to its memory operand, a register that is both counts
// for both), the form's Cycles otherwise. A form without a latency takes
// DefaultLatency (1 cycle), plus DefaultLoadLatency (4) on the paths from
// a memory input and its address registers, and DefaultStoreLatency (1)
// into a memory output (Options change them).
//
// What is modelled: register, flag and memory dependencies (including
// loop-carried ones) as Block.Deps finds them, or, with Options.Aliasing
// SameBuffer, by address value in the state a block benchmark starts from
// (every base register at one address, index registers 0, constant steps
// followed across iterations); zero idioms, which read nothing and so break
// chains; store-to-load forwarding as the store's latency into memory
// followed by the load's latency, or, where the machine describes its memory
// (machine.Memory), as the forwarding latency from the store's data (into
// general-purpose or vector registers) replacing the load-to-use latency,
// and memory renaming (a 32- or 64-bit general-purpose value stored and
// loaded through the same registers, or at the same address with
// Memory.RenamingBy, reaches the load with no latency, as AMD's memory file
// does; a read-modify-write store passes its own result); a stack engine
// (the stack pointer of push and pop depends on the one before only, with
// no latency); legacy-SSE writes of an XMM register that merge into its old value
// (Machine.MergeLatency: zero idioms included); a constant added to an
// address register faster than its ALU latency
// (Machine.AddressIncrementLatency); lea adding three address parts
// (Machine.ComplexLEALatency, from every input or the base only); groups of forms that pass a value to each
// other faster than their latencies (Machine.Chains, such as floating-point
// adds feeding adds); pairs of adjacent instructions the core dispatches as
// one (Machine.Fusions: one front-end slot for both, such as Zen 5's
// register move fused with the ALU operation on its copy); the extra cost of
// an operation that reads the result of one that read nothing just computed
// (Machine.Wakeup: its µops hold their resources longer, as integer
// operations on Zen 5 measurably do); forms without µops (eliminated moves,
// nops), which only the front end bounds; the front end as a throughput; the
// reorder buffer; retirement. Not modelled: memory dependencies more than
// one iteration apart, caches and their misses (every load hits at its
// latency), micro-fusion and macro-fusion other than Machine.Fusions (each
// instruction issues as many µops as its mapping has; a fused
// compare-and-branch counts as two), the scheduler's size, branch prediction
// (the loop branch is always predicted), and port assignment at issue as
// Intel cores do it (ports are chosen greedily by earliest availability; on
// the random mixes of independent instructions of the tests this meets the
// optimal bound of package throughput exactly, but a greedy choice can
// exceed it). Zero idioms take the ports their mapping gives them, as any
// instruction.
//
// # Steady state
//
// Simulate runs the block again and again (a loop body, or a block run
// back to back as BHive measures it: Chen et al., IISWC 2019) and records
// when each iteration's last instruction retires. After enough
// iterations to fill the reorder buffer four times, it looks for the
// smallest period p ≤ MaxPeriod such that iterations p apart retire the
// same time apart over the last max(4p, 16) iterations; Cycles is that
// time divided by p, and Result says the period, the window and the
// iterations simulated. Without a period within MaxIterations, Result
// reports the average of the second half and Converged is false;
// PredictBlocks and the analyses treat that as a failure.
//
// # Sensitivity and causality
//
// Sensitivities reruns a block with one Change at a time — a resource's
// throughput or a form's latency scaled (×0.5…×2) or shifted (±1 cycle)
// — and reports Gus's speed-up s_{w,r} = cycles before / cycles after
// (§3.2). Critical walks the critical path back from the last retirement,
// following at each instruction its latest constraint (as Algorithm 1's
// taints do), and gives each instruction's share of the time by cause:
// latency, ports, front end, reorder buffer, retirement — the
// instruction-level report of Table 1.
//
// # Predictors
//
// BlockPredictor is the seam between blocks and predictors: *Simulator
// and llvmmca.Predictor implement PredictBlocks. BlockSet holds blocks
// with measured cycles (ReadBHive reads BHive's "hex,cycles" CSV), and
// Evaluate compares a BlockPredictor with them in a metrics.Evaluation.
//
// # Machine descriptions
//
// The simulator reads a machine.Machine: the mapping (or a resource
// mapping) is required; latencies, front end, reorder buffer, issue and
// retire widths are used where given. A host's description is a machine
// file (see package machine for the format) with, per form, "latencies":
// {"cycles": c} or per operand pair {"operands": [{"from": i, "to": j,
// "cycles": c}]}, and "reorderBuffer", "issueWidth", "retireWidth",
// "loadPorts", "storePorts", "memory", "mergeLatency",
// "addressIncrementLatency"; TestMachine (testdata/skylake-like.json) is
// a small example. Latencies should be measured on the host (a dependency
// chain of the form through the operand pair, cycles per link), not
// copied from another CPU.
package sim
