package cegis

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/solver/z3"
	"github.com/portlab/portlab/lib/throughput"
)

// Encoding selects how the SMT queries express "mapping M has inverse
// throughput t on experiment e".
type Encoding int

const (
	// Bottleneck states the bottleneck formula (thesis Thm 5.2) over port
	// sets: t is at least the confined mass of one port set Q chosen by
	// the solver divided by |Q|, and at most that of every port set. It
	// needs no real-valued schedule, and the experiments are integers.
	// It is limited to MaxBottleneckPorts ports.
	Bottleneck Encoding = iota
	// Thesis is relateThroughput of thesis Def. 4.5: the port LP's
	// constraints with its optimality stated through bottleneck-port
	// literals (Thm 4.4), with fresh real variables per experiment.
	Thesis
)

// MaxBottleneckPorts is the largest number of ports the Bottleneck
// encoding accepts: it has a constraint per port set.
const MaxBottleneckPorts = 12

// String returns "bottleneck" or "thesis".
func (e Encoding) String() string {
	if e == Thesis {
		return "thesis"
	}
	return "bottleneck"
}

// UnmarshalText sets e from its name, "bottleneck" or "thesis".
func (e *Encoding) UnmarshalText(text []byte) error {
	switch string(text) {
	case "bottleneck":
		*e = Bottleneck
	case "thesis":
		*e = Thesis
	default:
		return fmt.Errorf("encoding %q: want bottleneck or thesis", text)
	}
	return nil
}

// Config sets up a run of Infer. The fields tagged with a flag are the
// command line's settings (infer.BindFlags).
type Config struct {
	// Encoding is the SMT encoding of throughput (default Bottleneck).
	Encoding Encoding `flag:"encoding" help:"SMT encoding: bottleneck (default) or thesis"`
	// Epsilon is the tolerance on cycles per instruction (thesis §4.3): a
	// mapping is consistent with a measurement of t cycles for an
	// experiment e when it predicts within t ± Epsilon·|e|, and two
	// mappings are told apart only by an experiment on which they differ
	// by more than 2·Epsilon·|e|. 0 asks for exact agreement.
	Epsilon float64 `flag:"epsilon" help:"tolerance on cycles per instruction" min:"0"`
	// UopCounts, when not nil, makes the search three-level with known µop
	// counts (thesis §4.4, variant 2): instruction i decomposes into
	// UopCounts[i] µops (default 1), each on a set of ports to infer.
	UopCounts map[string]int `flag:"uops" sep:";" help:"three-level search with known µop counts: NAME=COUNT entries separated by ';' or newlines, or @FILE with one entry a line, e.g. 'add R:GPR:64, R:GPR:64=1;div R:GPR:64=3' (others 1)"`
	// PortCounts, when not nil, fixes the number of ports of instructions
	// with one µop: instruction i's µop runs on exactly PortCounts[i]
	// ports (known from its throughput alone, as in the explainable
	// method's stage 1, thesis §6.2.1).
	PortCounts map[string]int
	// Shares, when not nil, says that instruction i has a µop with the
	// same ports as the single µop of one of the instructions Shares[i]
	// (the explainable method's improper blocking instructions, thesis
	// §6.3.4: one µop of a store is a proper blocking instruction's).
	Shares map[string][]string
	// InstructionsPerCycle, when positive, caps the throughput: the
	// inverse throughput of e is at least |e|/InstructionsPerCycle.
	InstructionsPerCycle float64
	// MaxSize, when positive, bounds the size of the experiments measured;
	// the result is then unique only among mappings that agree on all
	// experiments of at most MaxSize instructions (Result.Complete false).
	MaxSize int `flag:"max-size" help:"largest experiment to measure (0: no limit)" min:"0"`
	// StartSize is the first size bound of the stratified search for a
	// distinguishing experiment (default 2; singletons are measured first).
	StartSize int
	// NoSingletons leaves out the initial measurement of every singleton.
	NoSingletons bool
	// Pairs also measures every pair {a ↦ 1, b ↦ 1} of distinct
	// instructions first: n(n−1)/2 more measurements that settle most of
	// what the solver would otherwise find one query at a time.
	Pairs bool `flag:"pairs" help:"also measure every pair of instructions first"`
	// NoSubsets states every measurement of the Bottleneck encoding with
	// a schedule (real variables) for its upper bound and a port-set
	// witness for its lower bound; by default, measurements of
	// experiments of up to four µop slots are stated over the subsets of
	// those slots with cardinality constraints alone.
	NoSubsets bool `flag:"no-subsets" help:"no cardinality encoding of small experiments' measurements"`
	// NoEnumeration leaves out the step before findOtherMapping that asks
	// the solver only for a second consistent mapping (a cheaper
	// question) and the simulator for an experiment that tells it from
	// the first.
	NoEnumeration bool `flag:"no-enumeration" help:"no cheap search for a second consistent mapping before findOtherMapping"`
	// NoCover asks the distinguishing question without a size bound over
	// real-valued experiments and schedules, with a constraint per port
	// set closed under the first mapping, even where its Boolean form
	// applies (two-level mappings without a front-end bound): some set of
	// instructions whose port sets under the two mappings unite to a and
	// b ports with 1/a − 1/b > 2ε (see the bottleneck formula, thesis
	// Thm 5.2).
	NoCover bool `flag:"no-cover" help:"no Boolean form (port counts of unions) of the unbounded distinguishing question"`
	// NoSymmetryBreaking leaves out the lex-leader constraints that make
	// the solver consider one mapping per port renaming.
	NoSymmetryBreaking bool `flag:"no-symmetry" help:"no symmetry breaking over port renamings"`
	// IntegerUnbounded makes the unbounded check search integer
	// experiments, as the thesis does, instead of non-negative rational
	// ones (the question is scale-invariant, so both agree).
	IntegerUnbounded bool `flag:"integer-unbounded" help:"unbounded check over integer experiments (thesis)"`
	// Stratified searches as the thesis does (§4.3): a distinguishing
	// experiment of at most StartSize instructions, then of one more, and
	// so on, asking the unbounded question only to decide whether to go on.
	// By default the unbounded question comes first, and the simulator then
	// looks for the smallest experiment that tells the same two mappings
	// apart (at most MaxSize instructions when it is set).
	Stratified bool `flag:"stratified" help:"thesis order: bounded searches of growing size before the unbounded check"`
	// NoSimulation leaves out the cheap first step of each iteration: the
	// candidates the solver proposed before and that still explain every
	// measurement are compared with the current mapping on all small
	// experiments with the bottleneck simulator (package throughput).
	NoSimulation bool `flag:"no-simulation" help:"no simulator check of earlier candidates"`
	// Validation is the number of random experiments of five instructions
	// (at most MaxSize) measured after the search converged; any that contradicts the result
	// joins the measurements and the search goes on (at most three rounds).
	// It guards against a noisy measurement that ruled out the truth, and
	// it costs Validation measurements per round (DefaultConfig: 50;
	// ThesisConfig: none, as in the thesis).
	Validation int `flag:"validate" help:"random length-5 experiments measured to check the result, per round (-thesis 0; 0: none)" min:"0"`
	// NoiseEpsilon, when positive, widens ε from the benchmarker's own
	// dispersion: after the singletons are measured, ε becomes at least
	// NoiseEpsilon times the median over the singletons of their
	// absolute uncertainty in cycles (the measurement's relative
	// Dispersion or the Spread of its passes, whichever is larger, times
	// its cycles). Oracles that report neither leave ε as it is.
	NoiseEpsilon float64 `flag:"eps-noise" help:"widen ε to this many times the singletons' median measured dispersion in cycles (0: ε as given)" min:"0"`
	// Remeasure is how often a measurement named in a conflict (no
	// mapping explains the measurements) is measured again before the
	// conflict is reported: each round measures the conflicting ones once
	// more, keeps the median of their samples and asks the solver again.
	// Only oracles that measure afresh are asked (oracle.Remembers false);
	// one that answers from memory would only repeat itself.
	Remeasure int `flag:"remeasure" help:"measure the experiments of a conflict again up to this many times before reporting it" min:"0"`
	// Seed seeds the validation experiments.
	Seed uint64
	// SolverSeed, when nonzero, sets z3's random seeds (smt.random_seed,
	// sat.random_seed): repeated runs on one ground truth, as in the
	// thesis's three runs per truth, then take different solver paths.
	SolverSeed uint64
	// Timeout, when positive, limits each solver query.
	Timeout time.Duration `flag:"timeout" help:"time limit of each solver query, e.g. 10m (0: none)" min:"0s"`
	// Z3 is the z3 binary (default "z3" on PATH).
	Z3 string
	// Progress, when set, is called after every iteration.
	Progress func(Iteration) `json:"-"`
}

// solverSeed returns the z3 options that set SolverSeed (none when 0).
func (c Config) solverSeed() [][2]string {
	if c.SolverSeed == 0 {
		return nil
	}
	v := fmt.Sprint(c.SolverSeed % (1 << 31))
	return [][2]string{{"smt.random_seed", v}, {"sat.random_seed", v}}
}

// DefaultConfig returns portlab's settings: the bottleneck encoding with
// every speed-up, ε = 0.02 (thesis §4.5), 50 random validation
// experiments at the end, and the experiments of a conflict measured
// again twice before it is reported.
func DefaultConfig() Config { return Config{Epsilon: 0.02, StartSize: 2, Validation: 50, Remeasure: 2} }

// ThesisConfig returns the settings of thesis §4.5: the LP-optimality
// encoding, integer experiments throughout, stratified sizes, no symmetry
// breaking and no simulation, with incremental solving, stratified sizes and singleton
// seeding, ε = 0.02.
func ThesisConfig() Config {
	return Config{Encoding: Thesis, Epsilon: 0.02, StartSize: 2, NoSymmetryBreaking: true, IntegerUnbounded: true, NoSimulation: true, Stratified: true}
}

// Iteration is one pass of Algorithm 4.1: what the queries cost and what
// was measured.
type Iteration struct {
	Index int
	// Step says how the pass ended: "solver" or "simulation" (a
	// distinguishing experiment found and measured; "enumeration" when
	// the solver found the second mapping and the simulator the
	// experiment), "bound" (none of the
	// current size; the bound grows), "unbounded" (one found only beyond
	// the bound and measured), "validation" (a validation experiment
	// contradicted the result), "remeasured" (no mapping explained the
	// measurements, and those of the conflict were measured again), "new
	// solver" (the search would end, or findMapping found nothing, and a
	// new solver process is to answer the same questions without the
	// history of the run's queries), "no mapping" (findMapping found none)
	// or "done".
	Step string
	// Bound is the size bound of the pass's bounded query.
	Bound int
	// FindMapping, FindOther and Unbounded are the times of the solver
	// queries (zero when skipped), Simulation that of the simulator check.
	FindMapping, FindOther, Unbounded, Simulation time.Duration
	// Experiment is what was measured (empty if nothing), with its Cycles
	// and Size.
	Experiment portmap.Experiment
	Cycles     float64
	Size       int
	// Measured is the number of measurements so far.
	Measured int
	// Solver is the time in the solver so far: every query of this pass
	// and the ones before (Elapsed includes it, the measurements and the
	// simulator).
	Solver  time.Duration
	Elapsed time.Duration
}

// Status is a one-line progress report of the run after this pass:
// iteration, experiments measured so far, the size of the pass's
// experiment (or the bound when it measured none), the time in the solver
// and in all. The number of passes is not known in advance (the loop ends
// when no second mapping exists), so there is no total and no percentage:
// display it with a total of 0 (see infer.Progress).
func (it Iteration) Status() string {
	size := fmt.Sprintf("bound %d", it.Bound)
	if it.Size > 0 {
		size = fmt.Sprintf("size %d (bound %d)", it.Size, it.Bound)
	}
	return fmt.Sprintf("iteration %d (%s): %d experiments, %s, solver %v of %v", it.Index, it.Step, it.Measured, size,
		it.Solver.Round(10*time.Millisecond), it.Elapsed.Round(10*time.Millisecond))
}

// String describes the pass in one line.
func (it Iteration) String() string {
	s := fmt.Sprintf("iteration %d (%s, bound %d, %d measured): findMapping %v, findOther %v", it.Index, it.Step, it.Bound, it.Measured,
		it.FindMapping.Round(time.Millisecond), it.FindOther.Round(time.Millisecond))
	if it.Unbounded > 0 {
		s += fmt.Sprintf(", unbounded %v", it.Unbounded.Round(time.Millisecond))
	}
	if it.Size > 0 {
		s += fmt.Sprintf("; measured %v = %.4g cycles", it.Experiment, it.Cycles)
	}
	return s
}

// Result is the outcome of Infer.
type Result struct {
	// Mapping is the inferred mapping, consistent with every measurement.
	Mapping *portmap.Mapping
	// Complete reports that no mapping consistent with the measurements
	// predicts differently on any experiment; false when MaxSize cut the
	// search short or the run was interrupted.
	Complete bool
	// Measurements are the experiments measured, singletons first.
	Measurements *portmap.ExperimentSet
	Iterations   []Iteration
	// Config is the configuration of the run.
	Config Config
	// Epsilon is the tolerance the run used: Config.Epsilon, or wider
	// from the measured dispersion (Config.NoiseEpsilon).
	Epsilon float64
	// Remeasured counts the measurements taken again because they were
	// part of a conflict (Config.Remeasure).
	Remeasured int
	// Times of the solver queries, the simulation and the oracle, in all;
	// Validating is the time of the validation rounds (their measurements
	// included), not counted in Measuring.
	FindMapping, FindOther, Unbounded, Simulation, Measuring, Validating time.Duration
	Elapsed                                                              time.Duration
}

// ErrNoMapping is matched (errors.Is) by *NoMappingError.
var ErrNoMapping = errors.New("cegis: no mapping explains the measurements")

// NoMappingError reports that no mapping of the searched shape is
// consistent with the measurements; Conflicting is a small subset of them
// (an unsatisfiable core) that no mapping explains together.
type NoMappingError struct {
	Conflicting []portmap.Measurement
	Measured    int
	Epsilon     float64
	// Remeasured is how many more times the conflicting measurements
	// were measured (Config.Remeasure); their Cycles are then the
	// median of their samples.
	Remeasured int
}

func (e *NoMappingError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cegis: no mapping explains the %d measurements within ε = %g cycles per instruction", e.Measured, e.Epsilon)
	if len(e.Conflicting) > 0 {
		b.WriteString("; these conflict: ")
		for i, m := range e.Conflicting {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%v = %.4g", m.Experiment, m.Cycles)
		}
		if e.Remeasured > 0 {
			fmt.Fprintf(&b, " (measured up to %d more times, medians kept)", e.Remeasured)
		}
	}
	return b.String()
}

// Is reports whether target is ErrNoMapping.
// It also matches infer.ErrNoFit, the shared reason (infer.NoFit).
func (e *NoMappingError) Is(target error) bool {
	return target == ErrNoMapping || target == infer.ErrNoFit
}

// UnexplainedError reports that the mapping the search ended with does
// not reproduce one of the measurements it was found for (the
// bottleneck simulator's prediction is not within ε·|e| of it): the
// solver's answer and the simulator disagree, and Infer returns no
// result.
type UnexplainedError struct {
	Mapping     *portmap.Mapping
	Measurement portmap.Measurement
	// Predicted is the mapping's inverse throughput for the experiment.
	Predicted float64
	Epsilon   float64
}

func (e *UnexplainedError) Error() string {
	return fmt.Sprintf("cegis: the mapping found predicts %.4g cycles for %v, measured at %.4g, beyond ε = %g cycles per instruction: the solver's answer does not explain its measurements",
		e.Predicted, e.Measurement.Experiment, e.Measurement.Cycles, e.Epsilon)
}

// Undecided is a measurement of an experiment on which two candidate
// mappings differ by more than 2ε·|e| that is nevertheless consistent with
// both (within ε·|e| of each prediction): it rules out neither.
type Undecided struct {
	Measurement portmap.Measurement
	// Predicted holds the inverse throughputs the two mappings predict.
	Predicted [2]float64
}

// UndecidedError reports that several distinguishing experiments (counted
// over the whole run) ruled out neither of the two mappings they were meant to tell apart, so
// the search stopped instead of asking again; Infer returns it with the
// latest consistent mapping (Complete false).
type UndecidedError struct {
	Undecided []Undecided
	Epsilon   float64
}

// Is reports whether target is infer.ErrUndecided, the shared reason
// (infer.Undecided).
func (e *UndecidedError) Is(target error) bool { return target == infer.ErrUndecided }

func (e *UndecidedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cegis: %d measurements of distinguishing experiments ruled out neither mapping within ε = %g cycles per instruction: ", len(e.Undecided), e.Epsilon)
	for i, u := range e.Undecided {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%v = %.4g (the two mappings predict %.4g and %.4g)", u.Measurement.Experiment, u.Measurement.Cycles, u.Predicted[0], u.Predicted[1])
	}
	return b.String()
}

// maxUndecided is the number of measurements that rule out neither
// mapping after which the search stops with an *UndecidedError.
const maxUndecided = 3

// separation is the factor of ε·|e| by which two mappings must differ on a
// distinguishing experiment. With 2 a measurement within ε·|e| of one
// prediction is outside ε·|e| of the other, up to rounding; tests lower it
// to provoke experiments that rule out neither mapping.
var separation = 2.0

// splitCases asks findOtherMapping's two directions one after the other.
var splitCases = true

// measured is a measurement in index form.
type measured struct {
	e      exp
	cycles float64
	m      portmap.Measurement
	// samples are the cycles of every measurement of e when it was
	// measured again (Config.Remeasure); cycles is then their median.
	samples []float64
}

// run is the state of one Infer call.
type run struct {
	cfg  Config
	sp   *space
	o    oracle.Oracle
	sess *z3.Session
	ss   *subsets
	meas []measured
	// checked are the validation measurements that agreed with the
	// candidate of their round; validate holds later candidates to them.
	checked []measured
	res     *Result
	start   time.Time
	portIDs []string
	// fresh reports that the solver process was started (rebuild) after
	// the last measurement: its answers do not depend on the history of
	// the queries asked before.
	fresh bool
}

// Infer runs counter-example-guided inference (thesis Algorithm 4.1) for
// the instructions insns on the given number of ports, asking o for every
// measurement. It returns the mapping and how it was found, or an error
// wrapping ErrNoMapping (a *NoMappingError naming conflicting
// measurements) when no mapping of the searched shape explains them, or
// an *UnexplainedError (and no result) when the solver's mapping does
// not reproduce one of them with the bottleneck simulator. When
// ctx is cancelled, z3 is stopped and Infer returns the latest consistent
// mapping (if any; Complete false) together with ctx's error.
func Infer(ctx context.Context, o oracle.Oracle, insns []string, ports int, cfg Config) (*Result, error) {
	if len(insns) == 0 {
		return nil, errors.New("cegis: no instructions")
	}
	if ports < 1 || ports > portmap.MaxPorts {
		return nil, fmt.Errorf("cegis: %d ports, want 1 to %d", ports, portmap.MaxPorts)
	}
	if cfg.Encoding == Bottleneck && ports > MaxBottleneckPorts {
		return nil, fmt.Errorf("cegis: the bottleneck encoding handles at most %d ports, not %d; use the thesis encoding", MaxBottleneckPorts, ports)
	}
	if cfg.Epsilon < 0 {
		return nil, fmt.Errorf("cegis: negative tolerance ε = %g", cfg.Epsilon)
	}
	if cfg.StartSize < 1 {
		cfg.StartSize = 2
	}
	sp := &space{insns: insns, ports: ports, enc: cfg.Encoding, eps: cfg.Epsilon + roundingSlack, ipc: cfg.InstructionsPerCycle}
	if !cfg.NoSubsets {
		sp.subsetUnits = maxSubsetUnits
	}
	seen := map[string]bool{}
	for i, name := range insns {
		if seen[name] {
			return nil, fmt.Errorf("cegis: instruction %q listed twice", name)
		}
		seen[name] = true
		n := 1
		if cfg.UopCounts != nil {
			if c, ok := cfg.UopCounts[name]; ok {
				n = c
			}
		}
		if n < 1 || n > 16 {
			return nil, fmt.Errorf("cegis: instruction %q: %d µops, want 1 to 16", name, n)
		}
		var us []int
		for j := 0; j < n; j++ {
			us = append(us, len(sp.owner))
			sp.owner = append(sp.owner, i)
		}
		sp.unitsOf = append(sp.unitsOf, us)
	}
	for name := range cfg.UopCounts {
		if !seen[name] {
			return nil, fmt.Errorf("cegis: µop count for %q, which is not among the instructions", name)
		}
	}
	sp.portCount = map[int]int{}
	for name, n := range cfg.PortCounts {
		i := slices.Index(insns, name)
		switch {
		case i < 0:
			return nil, fmt.Errorf("cegis: port count for %q, which is not among the instructions", name)
		case len(sp.unitsOf[i]) != 1:
			return nil, fmt.Errorf("cegis: port count for %q, which has %d µops, not one", name, len(sp.unitsOf[i]))
		case n < 1 || n > ports:
			return nil, fmt.Errorf("cegis: %q on %d ports, want 1 to %d", name, n, ports)
		}
		sp.portCount[sp.unitsOf[i][0]] = n
	}
	sp.shares = map[int][]int{}
	for name, others := range cfg.Shares {
		i := slices.Index(insns, name)
		if i < 0 {
			return nil, fmt.Errorf("cegis: shared µop for %q, which is not among the instructions", name)
		}
		for _, o := range others {
			j := slices.Index(insns, o)
			if j < 0 || len(sp.unitsOf[j]) != 1 {
				return nil, fmt.Errorf("cegis: %q shares a µop with %q, which is not a single-µop instruction among the instructions", name, o)
			}
			sp.shares[i] = append(sp.shares[i], sp.unitsOf[j][0])
		}
	}
	sess, err := z3.Start(ctx, z3.Options{Path: cfg.Z3, Timeout: cfg.Timeout, Options: cfg.solverSeed()})
	if err != nil {
		return nil, fmt.Errorf("cegis: %w", err)
	}
	r := &run{cfg: cfg, sp: sp, o: o, sess: sess, ss: newSubsets(), start: time.Now(),
		res: &Result{Config: cfg, Epsilon: cfg.Epsilon, Measurements: &portmap.ExperimentSet{}}}
	defer func() { r.sess.Close() }()
	for k := 0; k < ports; k++ {
		r.portIDs = append(r.portIDs, fmt.Sprint(k))
	}
	if err := sess.Assert(ctx, sp.baseCommands(!cfg.NoSymmetryBreaking)...); err != nil {
		return nil, fmt.Errorf("cegis: %w", err)
	}
	err = r.loop(ctx)
	r.res.Elapsed = time.Since(r.start)
	if r.res.Mapping == nil || errors.Is(err, ErrNoMapping) || errors.As(err, new(*UnexplainedError)) {
		return nil, err
	}
	return r.res, err
}

// loop is Algorithm 4.1 with the extensions of thesis §4.3.
func (r *run) loop(ctx context.Context) error {
	if !r.cfg.NoSingletons {
		for i := range r.sp.insns {
			e := make(exp, len(r.sp.insns))
			e[i] = 1
			if err := r.measure(ctx, e); err != nil {
				return err
			}
		}
		if err := r.widen(ctx); err != nil {
			return err
		}
	}
	if r.cfg.Pairs {
		for i := range r.sp.insns {
			for j := i + 1; j < len(r.sp.insns); j++ {
				e := make(exp, len(r.sp.insns))
				e[i], e[j] = 1, 1
				if err := r.measure(ctx, e); err != nil {
					return err
				}
			}
		}
	}
	bound := r.cfg.StartSize
	if r.cfg.MaxSize > 0 && bound > r.cfg.MaxSize {
		bound = r.cfg.MaxSize
	}
	var m1 candidate
	var pool []candidate
	var stalls []Undecided
	validations := 0
	for index := 1; ; index++ {
		it := Iteration{Index: index, Bound: bound}
		finish := func(step string) {
			it.Step, it.Measured, it.Elapsed = step, len(r.meas), time.Since(r.start)
			r.res.FindMapping += it.FindMapping
			r.res.FindOther += it.FindOther
			r.res.Unbounded += it.Unbounded
			r.res.Simulation += it.Simulation
			it.Solver = r.res.FindMapping + r.res.FindOther + r.res.Unbounded
			r.res.Iterations = append(r.res.Iterations, it)
			if r.cfg.Progress != nil {
				r.cfg.Progress(it)
			}
		}
		// measureIt measures e, which tells m1 from m2.
		measureIt := func(e exp, step string, m2 candidate) error {
			if err := r.measure(ctx, e); err != nil {
				return err
			}
			last := r.meas[len(r.meas)-1]
			it.Experiment, it.Cycles, it.Size = last.m.Experiment, last.cycles, e.size()
			finish(step)
			if r.consistent(m1, last) && r.consistent(m2, last) {
				// The answer rules out neither mapping: without a limit
				// the same pair could be asked about again and again.
				stalls = append(stalls, Undecided{Measurement: last.m,
					Predicted: [2]float64{r.model(m1).Evaluate(terms(e)).Cycles, r.model(m2).Evaluate(terms(e)).Cycles}})
				pool = slices.DeleteFunc(pool, func(c candidate) bool { return slices.Equal(c, m2) })
				if len(stalls) >= maxUndecided {
					return &UndecidedError{Undecided: stalls, Epsilon: r.cfg.Epsilon}
				}
			}
			if !r.consistent(m1, last) {
				m1 = nil
			}
			return nil
		}
		if m1 == nil {
			// A candidate of the pool that explains everything saves a query.
			for _, c := range pool {
				if r.consistentAll(c) {
					m1 = c
					break
				}
			}
		}
		if m1 == nil {
			t := time.Now()
			st, err := r.sess.Check(ctx)
			it.FindMapping = time.Since(t)
			if err != nil {
				return r.stop(err, "findMapping")
			}
			if st == z3.Unsat {
				nm, idx, sat := r.diagnose(ctx)
				if sat {
					// A new solver process finds a mapping for the same
					// measurements: the answer came from the session's
					// history (see converged), not from the measurements.
					if r.fresh {
						return fmt.Errorf("cegis: findMapping: two new solver processes disagree on whether a mapping explains the %d measurements", len(r.meas))
					}
					if err := r.rebuild(ctx); err != nil {
						return err
					}
					finish("new solver")
					continue
				}
				again, err := r.remeasure(ctx, nm, idx)
				if err != nil {
					return err
				}
				if again {
					m1, pool = nil, nil
					finish("remeasured")
					continue
				}
				finish("no mapping")
				return nm
			}
			if m1, err = r.readMapping(ctx); err != nil {
				return err
			}
		}
		r.res.Mapping = r.toMapping(m1)
		pool = r.prune(pool)
		if !r.cfg.NoSimulation {
			t := time.Now()
			limit := bound
			if !r.cfg.Stratified {
				limit = 3
				if r.cfg.MaxSize > 0 {
					limit = min(limit, r.cfg.MaxSize)
				}
			}
			e, m2, ok := r.simulate(m1, pool, limit)
			it.Simulation = time.Since(t)
			if ok {
				if err := measureIt(e, "simulation", m2); err != nil {
					return err
				}
				continue
			}
		}
		// converged reports the end of the search, after validation.
		converged := func(complete bool) (bool, error) {
			if err := r.reproduces(m1); err != nil {
				return true, err
			}
			if !r.fresh {
				// The search ends on an unsatisfiable query: no second
				// mapping. A solver that has answered the whole run's
				// queries incrementally can answer that wrongly (z3
				// 4.8.12 did, after many push/check/pop rounds over
				// cardinality constraints: a renaming of the truth was
				// consistent with every assertion in force), so the
				// same questions are asked again of a new process.
				if err := r.rebuild(ctx); err != nil {
					return true, err
				}
				finish("new solver")
				return false, nil
			}
			r.res.Complete = complete
			if r.cfg.Validation > 0 {
				// Three rounds of new validation experiments; after them
				// the answer is still held to all of theirs.
				t := time.Now()
				var bad bool
				var err error
				if validations < 3 {
					validations++
					bad, err = r.validate(ctx, m1, validations)
				} else {
					bad, err = r.recheck(ctx, m1)
				}
				r.res.Validating += time.Since(t)
				if err != nil {
					return true, err
				}
				if bad {
					m1 = nil
					finish("validation")
					return false, nil
				}
			}
			finish("done")
			return true, nil
		}
		if !r.cfg.Stratified && !r.cfg.NoEnumeration && !r.cfg.NoSimulation {
			// A second consistent mapping is a cheaper question than one
			// together with a distinguishing experiment; the simulator
			// then looks for the experiment.
			limit := 4
			if r.cfg.MaxSize > 0 {
				limit = min(limit, r.cfg.MaxSize)
			}
			t := time.Now()
			m2, e, none, err := r.enumerate(ctx, m1, limit)
			it.FindMapping += time.Since(t)
			if err != nil {
				return err
			}
			if none {
				if stop, err := converged(true); stop {
					return err
				}
				continue
			}
			if m2 != nil {
				pool = append(pool, m2)
				if err := measureIt(e, "enumeration", m2); err != nil {
					return err
				}
				continue
			}
		}
		if !r.cfg.Stratified {
			// Any distinguishing experiment, then the smallest one for the
			// same pair of mappings.
			t := time.Now()
			m2, e, err := r.findOther(ctx, m1, 0, !r.cfg.IntegerUnbounded)
			it.Unbounded = time.Since(t)
			if err != nil {
				return err
			}
			if m2 == nil {
				if stop, err := converged(true); stop {
					return err
				}
				continue
			}
			pool = append(pool, m2)
			limit := r.cfg.MaxSize
			if limit == 0 {
				limit = min(e.size()-1, smallSearch)
			}
			t = time.Now()
			small, ok := r.distinguish(r.model(m1), r.model(m2), limit)
			it.Simulation += time.Since(t)
			if ok {
				e = small
			}
			if ok || r.cfg.MaxSize == 0 || e.size() <= r.cfg.MaxSize {
				if err := measureIt(e, "solver", m2); err != nil {
					return err
				}
				continue
			}
			bound = r.cfg.MaxSize
			it.Bound = bound
		}
		// findOtherMapping with the size bound.
		t := time.Now()
		m2, e, err := r.findOther(ctx, m1, bound, false)
		it.FindOther = time.Since(t)
		if err != nil {
			return err
		}
		if m2 != nil {
			pool = append(pool, m2)
			if err := measureIt(e, "solver", m2); err != nil {
				return err
			}
			continue
		}
		if !r.cfg.Stratified {
			if stop, err := converged(false); stop {
				return err
			}
			continue
		}
		// None of this size: is there one of any size?
		t = time.Now()
		m2, e, err = r.findOther(ctx, m1, 0, !r.cfg.IntegerUnbounded)
		it.Unbounded = time.Since(t)
		if err != nil {
			return err
		}
		if m2 == nil || (r.cfg.MaxSize > 0 && bound >= r.cfg.MaxSize) {
			if stop, err := converged(m2 == nil); stop {
				return err
			}
			continue
		}
		pool = append(pool, m2)
		bound++
		if e.size() <= bound {
			if err := measureIt(e, "unbounded", m2); err != nil {
				return err
			}
			continue
		}
		finish("bound")
	}
}

// stop turns a solver error into the run's error.
func (r *run) stop(err error, query string) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("cegis: %s: %w", query, err)
}

// measure asks the oracle about e and adds the measurement to the solver.
func (r *run) measure(ctx context.Context, e exp) error {
	var items []portmap.Item
	for i, c := range e {
		if c > 0 {
			items = append(items, portmap.Item{Insn: r.sp.insns[i], Count: c})
		}
	}
	pe, err := portmap.ExperimentOfItems(items...)
	if err != nil {
		return err
	}
	t := time.Now()
	m, err := r.o.Measure(ctx, pe)
	r.res.Measuring += time.Since(t)
	if err != nil {
		return fmt.Errorf("cegis: measuring %v: %w", pe, err)
	}
	m.Experiment = pe
	if !(m.Cycles > 0) {
		return fmt.Errorf("cegis: measuring %v: %v cycles, want a positive number", pe, m.Cycles)
	}
	x := measured{e: e, cycles: m.Cycles, m: m}
	var base []string
	cmds := r.sp.measurementCommands(r.ss, len(r.meas), e, m.Cycles, &base)
	if err := r.sess.Assert(ctx, append(base, cmds...)...); err != nil {
		return r.stop(err, "asserting a measurement")
	}
	r.meas = append(r.meas, x)
	r.res.Measurements.Measurements = append(r.res.Measurements.Measurements, m)
	r.fresh = false
	return nil
}

// findOther asks for a second consistent mapping and an experiment of at
// most bound instructions (any number when bound is 0) that tells it from
// m1; nil when there is none.
func (r *run) findOther(ctx context.Context, m1 candidate, bound int, relax bool) (candidate, exp, error) {
	// Without a size bound the question is scale-invariant, and for
	// two-level mappings without a front-end bound it has a Boolean
	// form (see coverCommands).
	cover := bound == 0 && !r.cfg.NoCover && r.sp.coverApplies()
	var base, cmds []string
	if cover {
		cmds = r.sp.coverCommands(m1)
	} else {
		cmds = r.sp.otherCommands(r.ss, m1, bound, relax, &base)
	}
	if len(base) > 0 {
		if err := r.sess.Assert(ctx, base...); err != nil {
			return nil, nil, r.stop(err, "findOtherMapping")
		}
	}
	if err := r.sess.Push(ctx); err != nil {
		return nil, nil, r.stop(err, "findOtherMapping")
	}
	defer r.sess.Pop(ctx)
	if err := r.sess.Assert(ctx, cmds...); err != nil {
		return nil, nil, r.stop(err, "findOtherMapping")
	}
	var st z3.Status
	var err error
	if r.sp.enc == Bottleneck && splitCases {
		// One direction at a time: the free mapping slower, then faster.
		st, err = r.sess.Check(ctx, "(not down)")
		if err == nil && st == z3.Unsat {
			st, err = r.sess.Check(ctx, "(not up)")
		}
	} else {
		st, err = r.sess.Check(ctx)
	}
	if err != nil {
		return nil, nil, r.stop(err, "findOtherMapping")
	}
	if st == z3.Unsat {
		return nil, nil, nil
	}
	m2, err := r.readMapping(ctx)
	if err != nil {
		return nil, nil, err
	}
	if cover {
		e, err := r.coverResult(ctx, m1, m2)
		return m2, e, err
	}
	names := make([]string, len(r.sp.insns))
	for i := range names {
		names[i] = fmt.Sprintf("e_%d", i)
	}
	vals, err := r.sess.Values(ctx, names...)
	if err != nil {
		return nil, nil, r.stop(err, "findOtherMapping")
	}
	rats := make([]*big.Rat, len(vals))
	for i, v := range vals {
		if rats[i], err = z3.ParseRat(v); err != nil {
			return nil, nil, err
		}
	}
	e := integral(rats)
	if relax {
		// A vertex of the relaxed query can have huge denominators: the
		// exact integer experiment then has billions of instructions
		// (clamped to portmap.MaxCount, which changes its direction so
		// that it may no longer tell the mappings apart). A short
		// experiment along the same direction usually still does.
		if short, ok := r.shortDirection(r.model(m1), r.model(m2), rats); ok && short.size() < e.size() {
			e = short
		}
	}
	return m2, e, nil
}

// coverResult reads the units of the Boolean distinguishing question's
// model and returns the experiment they make that tells m1 and m2 apart
// (checked with the simulator).
func (r *run) coverResult(ctx context.Context, m1, m2 candidate) (exp, error) {
	names := make([]string, len(r.sp.owner))
	for u := range names {
		names[u] = coverIn(u)
	}
	vals, err := r.sess.Values(ctx, names...)
	if err != nil {
		return nil, r.stop(err, "findOtherMapping")
	}
	var U uint64
	for u, v := range vals {
		b, err := z3.ParseBool(v)
		if err != nil {
			return nil, err
		}
		if b {
			U |= 1 << u
		}
	}
	e, ok := r.sp.coverExperiment(m1, m2, U)
	if ok {
		ts := terms(e)
		d := math.Abs(r.model(m1).Evaluate(ts).Cycles - r.model(m2).Evaluate(ts).Cycles)
		ok = d > separation*r.sp.eps*float64(e.size())
	}
	if !ok {
		return nil, fmt.Errorf("cegis: findOtherMapping: the instructions %v of the solver's answer do not tell %v from %v", r.unitNames(U), r.toMapping(m1), r.toMapping(m2))
	}
	return e, nil
}

// unitNames names the instructions of the units in U.
func (r *run) unitNames(U uint64) []string {
	var out []string
	for u, i := range r.sp.owner {
		if U&(1<<u) != 0 {
			out = append(out, r.sp.insns[i])
		}
	}
	return out
}

// maxScale bounds the largest count shortDirection tries.
const maxScale = 1 << 20

// shortDirection rounds the direction of the non-negative rationals rats
// to integer experiments whose largest count is 1, 2, 4, … maxScale and
// returns the first on which md1 and md2 differ by more than
// separation·ε·|e| (as findOtherMapping asks), if any.
func (r *run) shortDirection(md1, md2 *throughput.Model, rats []*big.Rat) (exp, bool) {
	f := make([]float64, len(rats))
	top := 0.0
	for i, x := range rats {
		f[i], _ = x.Float64()
		top = math.Max(top, f[i])
	}
	if !(top > 0) {
		return nil, false
	}
	for s := 1.0; s <= maxScale; s *= 2 {
		e := make(exp, len(f))
		for i, v := range f {
			e[i] = int(math.Round(v / top * s))
		}
		if e.size() == 0 {
			continue
		}
		ts := terms(e)
		if d := math.Abs(md1.Evaluate(ts).Cycles - md2.Evaluate(ts).Cycles); d > separation*r.sp.eps*float64(e.size())+4.0/ratDigits {
			return e, true
		}
	}
	return nil, false
}

// integral scales non-negative rationals to the smallest integer vector
// with the same direction.
func integral(rats []*big.Rat) exp {
	l := big.NewInt(1)
	for _, x := range rats {
		d := x.Denom()
		g := new(big.Int).GCD(nil, nil, l, d)
		l.Mul(l, new(big.Int).Quo(d, g))
	}
	ints := make([]*big.Int, len(rats))
	g := big.NewInt(0)
	for i, x := range rats {
		ints[i] = new(big.Int).Quo(new(big.Int).Mul(x.Num(), l), x.Denom())
		g.GCD(nil, nil, g, ints[i])
	}
	out := make(exp, len(rats))
	for i, v := range ints {
		if g.Sign() > 0 {
			v.Quo(v, g)
		}
		if !v.IsInt64() || v.Int64() > portmap.MaxCount {
			out[i] = portmap.MaxCount
		} else {
			out[i] = int(v.Int64())
		}
	}
	return out
}

// readMapping reads the free mapping of the current model.
func (r *run) readMapping(ctx context.Context) (candidate, error) {
	var names []string
	for u := range r.sp.owner {
		for k := 0; k < r.sp.ports; k++ {
			names = append(names, mvar(u, k))
		}
	}
	vals, err := r.sess.Values(ctx, names...)
	if err != nil {
		return nil, r.stop(err, "reading the model")
	}
	c := make(candidate, len(r.sp.owner))
	for j, v := range vals {
		b, err := z3.ParseBool(v)
		if err != nil {
			return nil, err
		}
		if b {
			c[j/r.sp.ports] |= 1 << (j % r.sp.ports)
		}
	}
	return c, nil
}

// toMapping returns c as a portmap.Mapping over ports named 0, 1, ….
func (r *run) toMapping(c candidate) *portmap.Mapping {
	m := portmap.MustMapping("cegis", r.portIDs...)
	for i, us := range r.sp.unitsOf {
		uops := make([]portmap.Uop, len(us))
		for j, u := range us {
			uops[j] = portmap.Uop{Ports: c[u], Count: 1}
		}
		if err := m.Set(r.sp.insns[i], uops...); err != nil {
			panic(err) // every unit has a port: the solver asserts it
		}
	}
	return m
}

// model returns the bottleneck simulator of c.
func (r *run) model(c candidate) *throughput.Model {
	md := throughput.NewModel(r.toMapping(c))
	if r.sp.ipc > 0 {
		md = md.WithFrontEnd(throughput.FrontEnd{InstructionsPerCycle: r.sp.ipc})
	}
	return md
}

func terms(e exp) []portmap.Term {
	var ts []portmap.Term
	for i, c := range e {
		if c > 0 {
			ts = append(ts, portmap.Term{Insn: int32(i), Count: int32(c)})
		}
	}
	return ts
}

// within reports whether a prediction is consistent with a measurement.
func (r *run) within(pred float64, x measured) bool {
	d := pred - x.cycles
	if d < 0 {
		d = -d
	}
	return d <= r.sp.eps*float64(x.e.size())+2.0/ratDigits
}

func (r *run) consistent(c candidate, x measured) bool {
	if c == nil {
		return false
	}
	return r.within(r.model(c).Evaluate(terms(x.e)).Cycles, x)
}

func (r *run) consistentAll(c candidate) bool {
	md := r.model(c)
	for _, x := range r.meas {
		if !r.within(md.Evaluate(terms(x.e)).Cycles, x) {
			return false
		}
	}
	return true
}

// prune keeps the candidates of the pool that explain every measurement.
func (r *run) prune(pool []candidate) []candidate {
	out := pool[:0]
	for _, c := range pool {
		if r.consistentAll(c) {
			out = append(out, c)
		}
	}
	return out
}

// maxEnumerated is the number of other consistent mappings enumerate
// asks for before it leaves the question to findOtherMapping.
const maxEnumerated = 2

// enumerate asks the solver for a consistent mapping other than m1 (and
// its renamings) and the simulator for an experiment of 2 to limit
// instructions that tells the two apart, trying up to maxEnumerated other
// mappings. It returns the mapping and the experiment, or none when no
// other mapping is consistent at all: m1 is then the only answer. It
// returns neither when the mappings it found predict like m1 on every
// experiment it tried.
func (r *run) enumerate(ctx context.Context, m1 candidate, limit int) (m2 candidate, e exp, none bool, err error) {
	if err := r.sess.Push(ctx); err != nil {
		return nil, nil, false, r.stop(err, "findMapping")
	}
	defer r.sess.Pop(ctx)
	md1 := r.model(m1)
	block := m1
	for i := range maxEnumerated {
		var lits []string
		for u, s := range block {
			for k := 0; k < r.sp.ports; k++ {
				if s&(1<<k) != 0 {
					lits = append(lits, "(not "+mvar(u, k)+")")
				} else {
					lits = append(lits, mvar(u, k))
				}
			}
		}
		if err := r.sess.Assert(ctx, "(assert "+or(lits)+")"); err != nil {
			return nil, nil, false, r.stop(err, "findMapping")
		}
		st, err := r.sess.Check(ctx)
		if err != nil {
			return nil, nil, false, r.stop(err, "findMapping")
		}
		if st == z3.Unsat {
			// Nothing but m1 (with symmetry breaking: and its renamings)
			// is consistent. After a blocked mapping that the simulator
			// did not tell from m1 on small experiments, the question is
			// findOtherMapping's.
			return nil, nil, i == 0, nil
		}
		c, err := r.readMapping(ctx)
		if err != nil {
			return nil, nil, false, err
		}
		if e, ok := r.distinguish(md1, r.model(c), limit); ok {
			return c, e, false, nil
		}
		if !r.cfg.NoCover {
			// No small experiment tells them apart: the union counts
			// decide whether any does.
			if e, ok := r.sp.coverDistinguish(m1, c); ok && (r.cfg.MaxSize == 0 || e.size() <= r.cfg.MaxSize) {
				return c, e, false, nil
			}
		}
		block = c
	}
	return nil, nil, false, nil
}

// maxSimulated bounds the experiments the simulation tries per pair of
// mappings, and smallSearch the size up to which it looks for a smaller
// experiment than the solver's.
const (
	maxSimulated = 20000
	smallSearch  = 6
)

// simulate looks for an experiment of 2 to bound instructions on which a
// candidate of the pool (each explains every measurement) and m1 differ by
// more than 2ε·|e|, with the bottleneck simulator.
func (r *run) simulate(m1 candidate, pool []candidate, bound int) (exp, candidate, bool) {
	if len(pool) == 0 {
		return nil, nil, false
	}
	md1 := r.model(m1)
	for _, c := range pool {
		if e, ok := r.distinguish(md1, r.model(c), bound); ok {
			return e, c, true
		}
	}
	return nil, nil, false
}

// distinguish returns the first experiment of 2 to bound instructions, in
// order of size, on which md1 and md2 differ by more than 2ε·|e|.
func (r *run) distinguish(md1, md2 *throughput.Model, bound int) (exp, bool) {
	n := len(r.sp.insns)
	tried := 0
	e := make(exp, n)
	var found exp
	var walk func(i, left int) bool
	walk = func(i, left int) bool {
		if left == 0 {
			tried++
			ts := terms(e)
			d := md1.Evaluate(ts).Cycles - md2.Evaluate(ts).Cycles
			if d < 0 {
				d = -d
			}
			if d > separation*r.sp.eps*float64(e.size())+4.0/ratDigits {
				found = append(exp(nil), e...)
				return true
			}
			return tried >= maxSimulated
		}
		if i == n {
			return false
		}
		for c := left; c >= 0; c-- {
			e[i] = c
			if walk(i+1, left-c) {
				e[i] = 0
				return true
			}
		}
		e[i] = 0
		return false
	}
	for size := 2; size <= bound && found == nil && tried < maxSimulated; size++ {
		walk(0, size)
	}
	return found, found != nil
}

// validate measures random experiments and reports whether one
// contradicts m1; those that do join the measurements.
func (r *run) validate(ctx context.Context, m1 candidate, round int) (bool, error) {
	md := r.model(m1)
	idx := map[string]int{}
	for i, name := range r.sp.insns {
		idx[name] = i
	}
	bad, err := r.recheck(ctx, m1)
	if err != nil {
		return false, err
	}
	length := 5
	if r.cfg.MaxSize > 0 {
		length = min(length, r.cfg.MaxSize)
	}
	for _, pe := range design.Random(r.sp.insns, length, r.cfg.Validation, r.cfg.Seed+uint64(round)) {
		m, err := r.o.Measure(ctx, pe)
		if err != nil {
			return false, fmt.Errorf("cegis: measuring the validation experiment %v: %w", pe, err)
		}
		e := make(exp, len(r.sp.insns))
		for _, it := range pe.Items() {
			e[idx[it.Insn]] = it.Count
		}
		x := measured{e: e, cycles: m.Cycles}
		if r.within(md.Evaluate(terms(e)).Cycles, x) {
			r.checked = append(r.checked, x)
			continue
		}
		bad = true
		if err := r.measure(ctx, e); err != nil {
			return false, err
		}
	}
	return bad, nil
}

// recheck holds m1 to the validation experiments of earlier rounds (they
// agreed with the candidates of their rounds): those it contradicts join
// the measurements like new ones. It reports whether there were any.
func (r *run) recheck(ctx context.Context, m1 candidate) (bool, error) {
	md := r.model(m1)
	bad := false
	for k := 0; k < len(r.checked); {
		x := r.checked[k]
		if r.within(md.Evaluate(terms(x.e)).Cycles, x) {
			k++
			continue
		}
		bad = true
		r.checked = slices.Delete(r.checked, k, k+1)
		if err := r.measure(ctx, x.e); err != nil {
			return false, err
		}
	}
	return bad, nil
}

// diagnose finds a small set of conflicting measurements with an unsat
// core, in a new solver process, and returns the *NoMappingError and
// their indices; sat reports that the new process found the measurements
// consistent after all.
func (r *run) diagnose(ctx context.Context) (nm *NoMappingError, idx []int, sat bool) {
	nm = &NoMappingError{Measured: len(r.meas), Epsilon: r.cfg.Epsilon}
	sess, err := z3.Start(ctx, z3.Options{Path: r.cfg.Z3, Timeout: r.cfg.Timeout,
		Options: [][2]string{{"produce-unsat-cores", "true"}, {"smt.core.minimize", "true"}}})
	if err != nil {
		return nm, nil, false
	}
	defer sess.Close()
	ss := newSubsets()
	cmds := r.sp.baseCommands(false)
	var tracks []string
	for j, x := range r.meas {
		track := fmt.Sprintf("track_%d", j)
		tracks = append(tracks, track)
		cmds = append(cmds, fmt.Sprintf("(declare-const %s Bool)", track))
		var base []string
		mc := r.sp.measurementCommands(ss, j, x.e, x.cycles, &base)
		cmds = append(cmds, base...)
		for _, c := range mc {
			if strings.HasPrefix(c, "(assert ") {
				c = fmt.Sprintf("(assert (=> %s %s))", track, strings.TrimSuffix(strings.TrimPrefix(c, "(assert "), ")"))
			}
			cmds = append(cmds, c)
		}
	}
	if err := sess.Assert(ctx, cmds...); err != nil {
		return nm, nil, false
	}
	st, err := sess.Check(ctx, tracks...)
	if err != nil || st != z3.Unsat {
		return nm, nil, err == nil && st == z3.Sat
	}
	core, err := sess.UnsatCore(ctx)
	if err != nil {
		return nm, nil, false
	}
	for _, name := range core {
		var j int
		if _, err := fmt.Sscanf(name, "track_%d", &j); err == nil && j < len(r.meas) {
			nm.Conflicting = append(nm.Conflicting, r.meas[j].m)
			nm.Remeasured = max(nm.Remeasured, len(r.meas[j].samples)-1)
			idx = append(idx, j)
		}
	}
	return nm, idx, false
}

// remeasure measures the conflicting measurements idx once more, those
// measured again fewer than Config.Remeasure times, keeps the median of
// each one's samples and rebuilds the solver's state. It reports whether
// it measured any; it measures nothing when the oracle answers from
// memory.
func (r *run) remeasure(ctx context.Context, nm *NoMappingError, idx []int) (bool, error) {
	if r.cfg.Remeasure <= 0 || oracle.Remembers(r.o) {
		return false, nil
	}
	again := false
	for _, j := range idx {
		x := &r.meas[j]
		if len(x.samples) == 0 {
			x.samples = []float64{x.cycles}
		}
		if len(x.samples)-1 >= r.cfg.Remeasure {
			continue
		}
		t := time.Now()
		m, err := r.o.Measure(ctx, x.m.Experiment)
		r.res.Measuring += time.Since(t)
		if err != nil {
			return false, fmt.Errorf("cegis: measuring %v again: %w", x.m.Experiment, err)
		}
		if !(m.Cycles > 0) {
			return false, fmt.Errorf("cegis: measuring %v again: %v cycles, want a positive number", x.m.Experiment, m.Cycles)
		}
		x.samples = append(x.samples, m.Cycles)
		m.Experiment, m.Cycles = x.m.Experiment, median(x.samples)
		x.m, x.cycles = m, m.Cycles
		r.res.Measurements.Measurements[j] = m
		r.res.Remeasured++
		again = true
	}
	if !again {
		return false, nil
	}
	return true, r.rebuild(ctx)
}

// median returns the median of xs (the mean of the middle two of an even
// count).
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + m) / 2
	}
	return m
}

// rebuild starts a new solver session with the base constraints and every
// measurement: the values of measurements changed (remeasure) or the
// tolerance widened (widen), and a solver cannot take back an assertion;
// or the answer that ends the search is to be asked again without the
// session's history (see converged).
func (r *run) rebuild(ctx context.Context) error {
	r.sess.Close()
	sess, err := z3.Start(ctx, z3.Options{Path: r.cfg.Z3, Timeout: r.cfg.Timeout, Options: r.cfg.solverSeed()})
	if err != nil {
		return fmt.Errorf("cegis: %w", err)
	}
	r.sess, r.ss = sess, newSubsets()
	cmds := r.sp.baseCommands(!r.cfg.NoSymmetryBreaking)
	for j, x := range r.meas {
		var base []string
		mc := r.sp.measurementCommands(r.ss, j, x.e, x.cycles, &base)
		cmds = append(append(cmds, base...), mc...)
	}
	if err := r.sess.Assert(ctx, cmds...); err != nil {
		return r.stop(err, "asserting the measurements")
	}
	r.fresh = true
	return nil
}

// reproduces checks that m1 predicts every measurement within ε with the
// bottleneck simulator, as the solver's constraints say it does; an
// *UnexplainedError names the first it does not.
func (r *run) reproduces(m1 candidate) error {
	md := r.model(m1)
	for _, x := range r.meas {
		if p := md.Evaluate(terms(x.e)).Cycles; !r.within(p, x) {
			return &UnexplainedError{Mapping: r.toMapping(m1), Measurement: x.m, Predicted: p, Epsilon: r.cfg.Epsilon}
		}
	}
	return nil
}

// widen sets ε from the singletons' measured dispersion when
// Config.NoiseEpsilon asks for it (see there).
func (r *run) widen(ctx context.Context) error {
	if r.cfg.NoiseEpsilon <= 0 {
		return nil
	}
	var abs []float64
	for _, x := range r.meas {
		if x.e.size() != 1 {
			continue
		}
		d := x.m.Dispersion
		if sp := x.m.Spread; !math.IsInf(sp, 0) && !math.IsNaN(sp) {
			d = max(d, sp)
		}
		if d > 0 {
			abs = append(abs, d*x.cycles)
		}
	}
	if len(abs) == 0 {
		return nil
	}
	eps := r.cfg.NoiseEpsilon * median(abs)
	if eps <= r.cfg.Epsilon {
		return nil
	}
	r.cfg.Epsilon, r.res.Epsilon = eps, eps
	r.sp.eps = eps + roundingSlack
	return r.rebuild(ctx)
}
