package palmed

import (
	"math"
	"time"
)

// Config holds every parameter and tolerance of a PALMED run. The paper
// gives M, L, the rounding tolerance and the IPC floor; the others it leaves
// open, and DefaultConfig's values are portlab's. The fields tagged with a
// flag are the command line's settings (infer.BindFlags).
type Config struct {
	// MinIPC: instructions whose IPC alone is below it are not mapped
	// (the paper's global discard, 0.05).
	MinIPC float64 `flag:"min-ipc" help:"leave out instructions with a lower IPC alone" min:"0"`
	// BasicEps: only instructions with IPC ≥ 1 − BasicEps can be basic
	// (Alg. 1's low-IPC filter).
	BasicEps float64
	// Basic is the number n of basic instructions Alg. 1 selects, at
	// most MaxBasicLP1.
	Basic int `flag:"basic" help:"number of basic instructions (Alg. 1)" min:"1" max:"16"`
	// EqTol is the tolerance of the equivalence classes: two instructions
	// are equivalent when their alone cycles differ by at most EqTol
	// relatively and their slowdowns with every other instruction (the
	// cycles of the pair kernel over the slower half alone) by at most
	// EqTol. Classes are formed greedily in instruction order: each
	// instruction joins the first class whose representative is that
	// close, or founds a new class. With noisy measurements (Noise > 0)
	// two slowdowns agree when they differ by at most EqTol relatively
	// (an error of the cycles alone scales a whole row), and classes
	// whose representatives' medians agree (CoreRepeats) are merged.
	EqTol float64 `flag:"eq-tol" help:"tolerance of the equivalence classes" min:"0"`
	// EqOutliers is the fraction of other instructions whose slowdowns may
	// differ by more than EqTol in an equivalence (with noise, one of
	// hundreds of comparisons is beyond any fixed tolerance); Effective
	// sets 2 % for noisy measurements.
	EqOutliers float64
	// DisjointTol: a pair kernel a^ā·b^b̄ whose slowdown is at most
	// 1 + DisjointTol shows disjoint instructions (Alg. 1's Dj).
	DisjointTol float64 `flag:"disjoint-tol" help:"slowdown tolerance of disjoint pairs" min:"0"`
	// SatTol: instruction i^σ of kernel K saturates K when σ·t(i) is within
	// SatTol (relative) of t(K) (Alg. 3).
	SatTol float64 `flag:"sat-tol" help:"relative tolerance of saturation tests" min:"0"`
	// RoundTol is the relative tolerance of integer multiplicities: a
	// kernel mixing instructions in real proportions is scaled until each
	// count is within RoundTol of its ideal (the paper's 5 %); MaxScale
	// bounds the scale factor.
	RoundTol float64 `flag:"round-tol" help:"relative tolerance of integer multiplicities" min:"0"`
	MaxScale int
	// M is the repetition of a in the a^M·b seed kernels; L the number of
	// cycles a saturating kernel fills in K_sat(i, r) = i^ī·sat[r]^(L·S̄).
	M int `flag:"M" help:"repetitions of a in the a^M·b kernels" min:"1"`
	L int `flag:"L" help:"cycles of the saturating kernel in K_sat" min:"1"`
	// RatioKernels adds the kernels a^k·b, 1 ≤ k < M, for every ordered
	// pair of basic instructions to the seed kernels (a portlab addition:
	// without them LP2's weights are under-determined and kernels mixing
	// basic instructions in other proportions are mispredicted).
	RatioKernels bool
	// MaxEnrich bounds the rounds of LP1 and benchmark enrichment.
	MaxEnrich int
	// FitTol: the core mapping is accepted when every kernel's
	// sub-saturation 1 − S_K in LP2 is at most FitTol; otherwise the shape
	// is rejected and grown by a free resource, at most MaxGrow times.
	FitTol  float64 `flag:"fit-tol" help:"largest accepted LP2 sub-saturation of a kernel" min:"0"`
	MaxGrow int     `flag:"max-grow" help:"rounds of shape growth after a rejected LP2 fit" min:"0"`
	// PersistentGrowth grows the shape for good: each misfit kernel gets
	// a resource of its own that LP2 aims it at in every later round. On
	// simulated Skylake it fits the core kernels better (Σ(1−S_K) 0.41
	// against 1.6, 4 misfits against 6) but predicts worse (random
	// length-5 MAPE 4.5 % against 2.1 %), so it is off by default.
	PersistentGrowth bool
	// MaxLP2Binaries: LP2 is solved exactly as a MILP when it needs at
	// most this many bottleneck binaries (kernel, resource), and by
	// alternating LPs otherwise. The default, 0, always alternates: CBC
	// takes tens of seconds on the MILP of a shape that does not fit even
	// for the six instructions of Fig. 1.
	MaxLP2Binaries int
	// Eps: inferred loads below it are dropped (edge presence).
	Eps float64 `flag:"eps" help:"smallest load kept as an edge" min:"0"`
	// PrivateTol: an instruction whose alone cycles LPAUX's mapping
	// under-predicts by more than PrivateTol (relative) gets a private
	// resource (an extension for units no basic instruction uses, such as
	// the divider).
	PrivateTol float64 `flag:"private-tol" help:"under-prediction of an instruction alone that adds a private resource" min:"0"`
	// MergeCost is what LP1 pays, on top of 1 per resource, for each
	// pair of disjoint basic instructions (Alg. 1's Dj) a resource
	// holds. With more than 1 LP1 prefers a resource more to a resource
	// shared by instructions that no kernel shows to conflict: the
	// fewest resources merge such instructions whenever the requirements
	// allow, and LP2 cannot then give both their loads (the paper's
	// explanation of its Zen results, Sec. 5.2). 0 is the paper's
	// objective.
	MergeCost float64 `flag:"merge-cost" help:"LP1 cost of a resource per pair of disjoint instructions it holds" min:"0"`
	// LP1Gap is the relative optimality gap at which CBC may stop on LP1
	// (the edge tie-break makes proving optimality slow; a shape with one
	// resource too many is fixed by LP2's pruning).
	LP1Gap float64
	// SolverTimeLimit bounds each MILP solve.
	SolverTimeLimit time.Duration `flag:"solver-time" help:"time limit of each MILP solve" min:"0s"`
	// Noise is the relative standard deviation of one measurement (0.02
	// for 2 %). A negative value estimates it: every instruction alone is
	// measured NoiseSamples times (its median kept) and Noise is the
	// pooled relative spread; an exact oracle, a replay or a campaign
	// that answers a repeat from its file gives 0. An oracle that reports
	// its noise (oracle.NoiseReporter, e.g. oracle.StoredFirst from its
	// stored passes) is taken at its word instead. With Noise σ > 0 the
	// run widens its tolerances (see Effective) and measures every kernel
	// Repeats times, keeping the median.
	Noise        float64 `flag:"measurement-noise" help:"relative noise of one measurement, widening the tolerances (negative: estimate it from repeated singletons; 0: exact)"`
	NoiseSamples int
	Repeats      int `flag:"repeats" help:"measurements per kernel when noisy (median kept)" min:"0"`
	// NoiseWidth is how many standard deviations of noise the tolerances
	// allow (see Effective).
	NoiseWidth float64 `flag:"noise-width" help:"standard deviations of noise the tolerances allow" min:"0"`
	// Slack: LP2 with hard caps (SlackPenalty 0) and LPAUX, for a kernel
	// measured once, let a resource's load exceed a kernel's measured
	// cycles by this fraction (a measurement too fast by noise would
	// otherwise cap the loads). Effective sets it from the noise.
	Slack float64
	// SlackPenalty λ makes LP2's caps soft when the measurements are noisy
	// (Noise > 0): a kernel K may be exceeded, every resource's load at
	// most (1 + e_K) times its measured cycles with e_K ≥ 0, at the cost
	// λ·e_K in the objective, instead of a hard cap at 1 + Slack. The
	// objective per kernel, S_K − λ·(S_K − 1)⁺, is a pinball loss: at
	// the optimum about a fraction 1/λ of the kernels a load sets are
	// exceeded, so λ = 2 fits the loads to the median of the
	// measurements, and one measurement too fast by noise no longer pins
	// them (with hard caps the loads follow the fastest measurement of
	// every kernel group). A kernel whose cycles are the median of n > 1
	// measurements may be exceeded by at most NoiseWidth·Noise·√(π/(2n)):
	// a median is no outlier, and a load beyond its noise is a shape that
	// over-predicts the kernel. 0 keeps the hard caps. Exact measurements
	// (Noise 0) always use the hard caps.
	SlackPenalty float64
	// FrontEnd is the front end's peak in instructions per cycle, 0 when
	// not known. A kernel K cannot run faster than |K|/FrontEnd cycles
	// whatever its ports, so a kernel measured at (within SatTol) that
	// bound tells nothing about which instructions share a port: with
	// FrontEnd set, a pair kernel a^ā·b^b̄ that the front end explains
	// counts as disjoint (Alg. 1's Dj and the IMF requirement), such
	// kernels give LP1 no shared requirement, LP2 counts them saturated
	// by the front end (their caps still hold), a saturating kernel is
	// one its resource binds rather than the front end, and the mapping
	// gets a resource "front end" of load 1/FrontEnd on every
	// instruction. The paper names the front end among the resources
	// that are not ports (Sec. 2.3) and gives the split integer and FP
	// pipelines of Zen, merged by a resource count that the front end
	// inflates, as the cause of its errors there (Sec. 5.2).
	FrontEnd float64 `flag:"front-end" help:"front-end peak in instructions per cycle (0: not known)" min:"0"`
	// FrontEndTol: an instruction whose IPC alone is within FrontEndTol
	// (relative) of the front end's peak is bound by the front end, not
	// by a port: a move the renamer eliminates, a zero idiom, a NOP. No
	// port combination explains such a form (the fastest kernels of
	// several forms run no faster than it does alone), so it is left out
	// of the classes, the basic instructions, LP1, LP2 and LPAUX and
	// mapped to the front end only, with a private resource for the
	// cycles alone the front end leaves unexplained (PrivateTol). It
	// needs the peak: FrontEnd, or EstimateFrontEnd. 0 turns this off.
	FrontEndTol float64 `flag:"front-end-tol" help:"forms alone within this of the front-end peak get no port resource (0: off)" min:"0"`
	// EstimateFrontEnd: when FrontEnd is 0, take the peak to be the
	// largest IPC of the singletons and pair kernels, provided some pair
	// kernel of two forms runs within FrontEndTol of it faster than
	// either form alone, and use it (as FrontEnd) only when forms run
	// alone within FrontEndTol of it. Throughput alone cannot tell a
	// front end from a port group every other form's ports lie in (on
	// a 4-port machine a form on all four runs at the peak like an
	// eliminated move; predictions are the same either way, but such a
	// form would lose its ports in the equivalent port mapping), so it
	// is off by default; hosts that eliminate moves need it or the peak.
	EstimateFrontEnd bool `flag:"estimate-front-end" help:"with -front-end 0, take the largest measured IPC as the front-end peak when forms run alone at it"`
	// Remeasure: with noisy measurements from an oracle that samples
	// afresh (not oracle.Remembers), the kernels whose LP2 constraints
	// bind (predicted within FitTol of the measured cycles, or above) and
	// the kernel that bounds each LPAUX load are measured Remeasure more
	// times and their median kept, then LP2 or LPAUX is solved again. 0
	// re-measures nothing.
	Remeasure int
	// CoreRepeats: with noisy measurements from an oracle that samples
	// afresh, the kernels that decide the basic instructions and the core
	// mapping (the class representatives alone and in pairs, every core
	// kernel, and LPAUX's K_sat kernels: about a fifth of a run's
	// measurements in all) are measured CoreRepeats times in all and their
	// medians kept; Alg. 1, LP1 and LP2 use the tolerances of that
	// smaller noise (Effective with Repeats = CoreRepeats, for a median),
	// and LPAUX no slack above such a median. LP1's requirements are yes-or-no tests on these
	// kernels; at the tolerances of single measurements they err both
	// ways. 0 or 1 measures them as every other kernel.
	CoreRepeats int `flag:"core-repeats" help:"measurements of each core kernel when noisy (median kept)" min:"0"`
	// CoreNoise is the relative standard error the median of a core
	// kernel should reach: with noise σ, n = ⌈(π/2)·(σ/CoreNoise)²⌉
	// measurements (the median of n has about √(π/(2n)) times the
	// spread of one), and when n exceeds CoreRepeats, Effective raises
	// CoreRepeats to n (at most MaxCoreRepeats) and Remeasure in
	// proportion. LPAUX reads a load as the difference of a K_sat
	// kernel's cycles (about L + 1 cycles of one instance of a) and its
	// saturating part, so a load's error is about L + 1 times the
	// relative error of that kernel's cycles (with 2 % noise, nine
	// measurements leave each load about ±4 %). 0 keeps CoreRepeats and
	// Remeasure as given.
	CoreNoise      float64 `flag:"core-noise" help:"relative standard error of a core kernel's median when noisy (0: CoreRepeats as given)" min:"0"`
	MaxCoreRepeats int     `flag:"max-core-repeats" help:"most measurements of a core kernel that CoreNoise asks for" min:"0"`
}

// Effective returns c with its tolerances widened for measurements of
// relative noise sigma (c.Noise when sigma < 0), each kernel measured
// c.Repeats times: with s = sigma/√Repeats and w = NoiseWidth, a pair
// slowdown or a ratio of two measurements has noise about √2·s, so
// DisjointTol, SatTol, FitTol and PrivateTol become at least w·√2·s,
// EqTol (a difference of two slowdowns) at least w·2·s, and Slack at
// least s (one standard deviation: LP2 pushes loads up to it, so more
// would bias the predictions). LPAUX also drops a load that the noise of
// the kernel bounding it, w·sigma·cycles per instance, could explain.
// CoreRepeats and Remeasure grow with sigma as CoreNoise asks. Noise is
// set to sigma. With sigma 0 it returns c unchanged.
func (c Config) Effective(sigma float64) Config {
	if sigma < 0 {
		sigma = c.Noise
	}
	if !(sigma > 0) {
		return c
	}
	c.Noise = sigma
	s := sigma / math.Sqrt(float64(max(1, c.Repeats)))
	w := c.NoiseWidth
	ratio := w * math.Sqrt2 * s
	c.DisjointTol = max(c.DisjointTol, ratio)
	c.SatTol = max(c.SatTol, ratio)
	c.FitTol = max(c.FitTol, ratio)
	c.PrivateTol = max(c.PrivateTol, ratio)
	c.EqTol = max(c.EqTol, 2*w*s)
	c.Slack = max(c.Slack, s)
	c.EqOutliers = max(c.EqOutliers, 0.02)
	if c.CoreNoise > 0 && c.CoreRepeats > 1 {
		n := int(math.Ceil(math.Pi / 2 * (sigma / c.CoreNoise) * (sigma / c.CoreNoise)))
		if c.MaxCoreRepeats > 0 {
			n = min(n, c.MaxCoreRepeats)
		}
		if n > c.CoreRepeats {
			c.Remeasure = int(math.Ceil(float64(c.Remeasure*n) / float64(c.CoreRepeats)))
			c.CoreRepeats = n
		}
	}
	return c
}

// DefaultConfig returns portlab's defaults, chosen on simulated Skylake
// (see the package documentation).
func DefaultConfig() Config {
	return Config{
		MinIPC:          0.05,
		BasicEps:        0.05,
		Basic:           12,
		EqTol:           0.02,
		DisjointTol:     0.03,
		SatTol:          0.03,
		RoundTol:        0.05,
		MaxScale:        24,
		M:               4,
		L:               4,
		RatioKernels:    true,
		MaxEnrich:       5,
		FitTol:          0.03,
		MaxGrow:         8,
		Eps:             0.01,
		MaxLP2Binaries:  0,
		PrivateTol:      0.05,
		FrontEndTol:     0.05,
		LP1Gap:          0.02,
		MergeCost:       1.05,
		SolverTimeLimit: 120 * time.Second,
		Noise:           -1,
		NoiseSamples:    3,
		Repeats:         1,
		NoiseWidth:      3,
		SlackPenalty:    2,
		Remeasure:       4,
		CoreRepeats:     9,
		CoreNoise:       0.004,
		MaxCoreRepeats:  64,
	}
}
