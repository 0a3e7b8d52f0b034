// Package classes maps a whole instruction set with a number of
// experiments linear in its forms: it groups the forms into classes of
// equal behaviour against a few probe forms, runs an inference method
// (PALMED by default, PMEvo or any other registered with package infer) on
// one representative per class, and gives every member its
// representative's model. It plugs into package infer as the method
// "classes":
//
//	portlab infer classes -measure -insns curated -campaign host.jsonl -out host
//
// PMEvo's design over n forms — singletons, pairs and ratio pairs — is
// n² experiments (PLDI 2020 §4.1; thesis §5.1.1): 240,100 for 490 forms.
// The class pipeline measures, in order:
//
//  1. Every form alone (n singletons). A form whose singleton fails is
//     recorded with the reason and left out; the rest go on. A form that
//     runs in no time costs no port.
//  2. Every form against probe forms, in rounds: the probes are the
//     representatives of the classes found so far whose singletons run at
//     least one per cycle (PALMED's low-IPC filter, CGO 2022 §4.1, Alg. 1;
//     uops.info's blocking instructions are single-µop forms, thesis
//     §6.1, Alg. 6.1). A form f meets a probe q in the experiment
//     {f ↦ 1, q ↦ ⌈(1 − tol)·t(f)/t(q)⌉} (design.Blocking), and its
//     signature is its singleton and these cycles. Forms whose signatures
//     agree within the tolerance form a class (PALMED's equivalence
//     classes, §4.1: ∀p, aapp ≈ bbpp, with the probes for p). The
//     representatives of new fast classes become the next round's probes,
//     until no new one appears or Config.MaxProbes is reached:
//     n·|probes| experiments.
//  3. PMEvo's design among the r representatives (r² experiments), and one
//     check experiment per member m of a class led by q: {m, p} beside
//     {q, p} for a random other representative p, which must agree within
//     twice the tolerance (Report.Checks lists those that do not).
//  4. The number of ports, from the data: the independent mix — probes
//     in order of speed, each with a cycle's worth of copies, kept when
//     the mix still runs in about a cycle (PALMED's very basic
//     instructions, a clique of disjoint ones, §4.1) — runs k instructions
//     per cycle, so there are at least k ports; a method that needs the
//     count is run with k to k + Config.PortRange ports, and the smallest
//     whose training error is within noise of the best is kept. Methods
//     that find their resources themselves (PALMED) run once.
//  5. Inheritance: the result predicts every experiment by replacing each
//     form with its representative, and when the method gives a port
//     mapping, the mapping gives every member its representative's µops.
//
// What no port explains is not forced onto ports: a form that runs more
// instructions per cycle alone than the chosen ports allow (move
// elimination, zero idioms, NOPs), in no time, or in a class whose
// representative the method maps to the front end only (PALMED's
// Result.FrontEndOnly) is mapped to no µops and
// listed in Report.PortLess; the predictor then caps every experiment at
// the front end's most instructions per cycle measured (Report.FrontEndIPC,
// a lower bound of the machine's front-end peak), unless the problem
// gives the peak (Problem.InstructionsPerCycle).
//
// The tolerance within which measurements are equal comes from the
// oracle: 5 σ of the noise an oracle reports (oracle.NoiseReporter), 3
// times the median spread of the singletons' passes (the host's
// benchmarker, measure.Hardware, through a measure.Campaign), or the
// relative spread of repeated singletons of an oracle that gives fresh
// samples (a noisy simulation); at least 2 % (Config.Tolerance sets it).
//
// Everything is measured through the problem's oracle, so that with a
// measure.Campaign (portlab infer -measure -campaign FILE) a killed run
// resumes: the rerun answers from the file what was measured and asks for
// the rest. All measurement is done before the first inference. The
// method writes its plan and, from the singletons' rate, an estimate of
// the measurement time to Notes.
//
// On the simulated Skylake and Ice Lake of uops.info (490 forms drawn at
// random, exact): 94 and 88 classes, about 21,000 distinct experiments
// (PMEvo's design: 240,100), held-out MAPE 1.8 % and 1.9 %, Kendall τ-b
// 0.98 and 0.97 on 2,000 random length-5 experiments over all mapped
// forms; with 1–2 % noise 95–112 classes, 21,000–23,000 experiments, MAPE
// 3–7 %, τ-b 0.87–0.92 (go run ./bench/cmd/wholeisa;
// bench/results/classes-sim-20261127.txt). PMEvo on the same Skylake
// representatives (3 min per port count) fits them far worse: MAPE
// 12.4 %, τ-b 0.82 — hence PALMED as the default. A representative the
// method's model does not predict leaves its class unmapped, reported in
// Report.Unmeasured.
package classes
