// Package palmed infers a conjunctive resource mapping (package resource)
// from cycle measurements alone, with the PALMED algorithm of Derumigny,
// Gruber, Bastian, Iooss, Guillon, Pouchet and Rastello ("PALMED:
// Throughput Characterization for Superscalar Architectures", CGO 2022).
// It runs on any oracle.Oracle
// — the host's hardware, a simulation, a replay — and plugs into package
// infer as the method "palmed".
//
// # The pipeline
//
// The pipeline (Fig. 3 of the paper), every step recorded in the result's
// Trace:
//
//  1. Every instruction alone; instructions with IPC below Config.MinIPC
//     are left out.
//  2. Quadratic benchmarks a^ā·b^b̄ for every pair (ā the IPC of a alone,
//     multiplicities rounded to whole numbers within Config.RoundTol), and
//     equivalence classes: greedy, in instruction order, with the
//     tolerance Config.EqTol on the alone cycles and on every pair
//     slowdown, and with the pair of the two slowed down as a pair of one
//     instruction with itself (Alg. 1 compares the whole rows Q[a][·] and
//     Q[b][·]; the paper's hierarchical clustering is not specified).
//  3. Basic instructions (Alg. 1): among class representatives with IPC
//     ≥ 1 − Config.BasicEps, a greedy clique of mutually disjoint ones
//     (very basic), then the most frugal (largest total pair IPC) up to
//     Config.Basic.
//  4. Core mapping. LP1, the resource shape, is a 0-1 ILP in set-cover
//     form solved by CBC (package solver), a resource costing 1 plus
//     Config.MergeCost per pair of disjoint instructions it holds (the
//     fewest resources merge disjoint pipelines, the paper's Sec. 5.2),
//     iterated with benchmark
//     enrichment (one kernel per resource with all its users) until no new
//     kernel. LP2, the edge weights, maximises the saturation of every
//     kernel; it is a MILP (solved by CBC when small) or else solved by
//     alternating LPs (gonum). A shape whose LP2 leaves some kernel
//     sub-saturated by more than Config.FitTol is rejected: it is grown by a
//     free resource and fitted again, at most Config.MaxGrow times (LP1's
//     smallest shapes are often wrong even without noise; paper §4.2, Alg. 3).
//  5. One saturating kernel per resource (the most exclusive core kernel
//     with that bottleneck), then LPAUX for every other class
//     representative with the kernels K_sat(i, r) = i^ī·sat[r]^(L·S̄),
//     solved in closed form (with the core frozen every constraint has one
//     unknown); class members get their representative's loads. An
//     instruction whose alone cycles are still under-predicted by more
//     than Config.PrivateTol gets a resource of its own for them, shared
//     with the other such instructions whose pair kernels (from step 2)
//     show the same extra unit: two divisions on one divider take the sum
//     of their cycles, not the larger (the paper's LPAUX can only load
//     the core's resources; a private resource each would let them run in
//     parallel).
//
// # The front end
//
// A kernel cannot run faster than its front end issues it. When the front
// end's peak is known (Config.FrontEnd; infer's Method takes the
// problem's InstructionsPerCycle), a kernel measured at that bound says
// nothing about shared ports: such pair kernels count as disjoint, LP1
// gets no shared requirement from them, LP2 counts them saturated, and
// the mapping carries the front end as a resource of its own (the paper
// lists the front end among the resources that are not ports, Sec. 2.3,
// and blames its Zen results on pipelines merged by the resource count,
// Sec. 5.2). On the simulated Zen+-like machine (portlab:zenplus-like,
// 5 instructions per cycle, exact) this takes the random length-5 MAPE
// from 15.7 % (τ-b 0.51) to 0.91 % (τ-b 0.977): the front end bounds
// hundreds of pair kernels of disjoint integer and FP forms, which read as
// conflicts merged the two pipelines.
//
// A form that runs alone at the front end's peak (within
// Config.FrontEndTol) shows no port at all: a move the renamer
// eliminates, a zero idiom, a NOP. Alg. 1 would make it a very basic
// instruction (it conflicts with nothing), and no resource load fits both
// its cycles alone and the kernels that mix it with port-bound forms. Such
// a form is left out of the classes, the basic instructions, LP1, LP2 and
// LPAUX, mapped to the front end only (a private resource carries the
// cycles alone the front end leaves unexplained) and listed in
// Result.FrontEndOnly. The peak is Config.FrontEnd or, with
// Config.EstimateFrontEnd, the largest IPC measured among the singletons
// and pair kernels, when some pair kernel of two forms shows it by running
// faster than either form alone.
//
// # Noise
//
// Noise: with Config.Noise negative (the default) every instruction alone
// is measured Config.NoiseSamples times and the relative noise σ is
// estimated from the spread (an exact oracle gives 0); an oracle that
// reports its noise (oracle.NoiseReporter, e.g. stored passes) is taken at
// its word. With σ > 0 the tolerances are widened to a few standard
// deviations of what they compare (Config.Effective), and:
//
//   - equivalence classes compare slowdowns relative to their size (an
//     error of an instruction's cycles alone shifts its whole row of
//     slowdowns by that fraction, and a fixed tolerance split true
//     classes at the slowdowns near 2), and after the re-measurement
//     below the representatives whose medians agree within the
//     tolerance of a median are merged: a class split by noise put two
//     copies of one unit among the basic instructions and left a unit
//     out (with 0.5 % noise on simulated Skylake add r64, imm8 and add
//     r64, imm32 founded two classes, 56 classes instead of the exact
//     run's 34, and the basic instructions differed from the exact run's);
//   - LP2's caps are soft (Config.SlackPenalty): a kernel may be exceeded
//     by e_K ≥ 0 at a cost λ·e_K, a pinball loss that fits the loads to the
//     median of the measurements (λ = 2) instead of the fastest one; a
//     kernel whose cycles are the median of n > 1 measurements only by
//     NoiseWidth·σ·√(π/(2n)), what the noise of such a median explains;
//   - when the oracle samples afresh (not oracle.Remembers), the kernels
//     whose LP2 constraints bind, the saturating kernels and the kernel
//     bounding each LPAUX load are measured Config.Remeasure more times and
//     their median kept;
//   - the kernels that decide the core (the class representatives alone
//     and in pairs, every core kernel, LPAUX's K_sat kernels) are measured
//     Config.CoreRepeats times in all and their medians kept, and Alg. 1,
//     LP1 and LP2 run with the tolerances of that smaller noise;
//     CoreRepeats (and Remeasure with it) grows with σ until a median's
//     standard error is Config.CoreNoise (0.4 %): LPAUX reads a load as
//     the difference of a K_sat kernel's cycles and its saturating part,
//     about L + 1 times the instruction's own cycles, so a load is about
//     L + 1 times as noisy, relatively, as the kernel's median;
//   - LPAUX takes as saturating kernels only core kernels that the core
//     loads within SatTol of their measured cycles, from below or above
//     (soft caps let LP2 exceed a kernel; its load then shows nothing
//     measured), allows a slack of σ above a kernel measured once (none
//     above a re-measured median) and drops loads the noise could
//     explain.
//
// Exact runs (σ = 0) use none of this. TestNoiseSweep
// (PORTLAB_PALMED_SWEEP=1) sweeps σ on simulated Skylake: with 2 % noise
// the random length-5 MAPE is 1.9–2.3 % over five seeds (median 2.08 %;
// exact 1.52 %), at about 122,000 measurements a run (exact: 49,800); with
// 1 % 2.27 %, with 5 % 2.78 % (162,000 measurements). With nine
// measurements per core kernel and unbounded soft caps it was 2.3–3.7 %
// at 2 % (median 3.15 %, 65,000 measurements), with hard LP2 caps
// 6.0–12.7 %; bench/results/README.md has the tables.
//
// # Failures
//
// Kernels the oracle cannot measure are skipped and listed in
// Result.Skipped. A core that does not fit within Config.FitTol is
// returned together with an error wrapping ErrNoFit, its misfit kernels in
// Result.Misfits and a warning in the report, never as a clean success; a
// missing or timed-out solver, or an infeasible or unbounded LP1, is an
// error. Result.PortMapping is a port mapping with exactly the resource
// mapping's throughputs when resource.PortMapping finds one.
//
// # Accuracy
//
// On simulated Skylake (pmevo:SKL/uops_info, exact oracle; TestSkylake
// with PORTLAB_PALMED_SKL=1, or portlab infer palmed -simulate) a run
// measures about 49,000 kernels and its mapping predicts PMEvo's measured
// pmevo:SKL/eval_small with a MAPE of 9.60 % and Kendall τ-b 0.754 (the
// uops.info mapping itself: 9.55 %, 0.758) and random length-5
// experiments of the truth within 1.52 % (τ-b 0.977; 9.69 % and 1.66 %
// with a private resource for each of the six divider forms instead of
// one shared by them). The alternating LP2
// still leaves a few core kernels sub-saturated by 20–33 %, so such runs
// end with ErrNoFit (Config.PersistentGrowth fits the core better and
// predicts worse). notebooks/11-palmed.ipynb compares it with PMEvo and
// sweeps the noise. Every solver input is built in a fixed order, so two
// runs on the same oracle give the same mapping (TestDeterministic); when
// LP1's requirements came from Go maps, CBC picked another of the
// cheapest shapes in every run (exact random length-5 MAPE 1.8 %, 2.9 %
// and 5.0 %).
package palmed
