package palmed

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/resource"
	"github.com/portlab/portlab/lib/solver"
)

// Class is an equivalence class of instructions: they behave alike alone
// and next to every other instruction, within Config.EqTol, and get the
// representative's loads.
type Class struct {
	Representative string
	Members        []string
	IPC            float64 // of the representative, alone
}

// Step is an entry of a run's trace.
type Step struct {
	Stage   string
	Message string
	Elapsed time.Duration // since the start of the run
}

// Result is the outcome of a PALMED run.
type Result struct {
	// Mapping is the inferred resource mapping of every instruction that
	// could be mapped.
	Mapping *resource.Mapping
	// Classes are the equivalence classes, Basic the basic instructions
	// (VeryBasic ∪ MostFrugal, Alg. 1).
	Classes               []Class
	Basic                 []string
	VeryBasic, MostFrugal []string
	// Core are the kernels the core mapping was fitted on; Residual is
	// LP2's Σ(1 − S_K) over them and WorstFit the largest 1 − S_K.
	Core               []Kernel
	Residual, WorstFit float64
	// Misfits are the core kernels the accepted (or best) core leaves
	// sub-saturated by more than Config.FitTol, worst first: the model
	// predicts them faster than measured. A run with misfits returns an
	// error wrapping ErrNoFit together with the result.
	Misfits []Misfit
	// Saturating holds the saturating kernel of each core resource.
	Saturating map[string]Kernel
	// FrontEndOnly are the instructions bound by the front end alone
	// (Config.FrontEndTol): mapped to the front end only, with no port
	// resource, and kept out of the classes and the core.
	FrontEndOnly []string
	// FrontEnd is the front end's peak the mapping carries, in
	// instructions per cycle (0: none); FrontEndEstimated says it was
	// taken from the measurements (Config.FrontEnd was 0).
	FrontEnd          float64
	FrontEndEstimated bool
	// Unmapped lists instructions left out with the reason (IPC below
	// Config.MinIPC, a failed measurement).
	Unmapped map[string]string
	// Skipped are the kernels the oracle failed on; the run went on
	// without them.
	Skipped []portmap.Failure
	// PortMapping is a port mapping with exactly Mapping's throughputs,
	// when resource.PortMapping finds one (PortMappingNote says how:
	// compact, or one port group per resource); otherwise nil, and
	// PortMappingNote says why not.
	PortMapping     *portmap.Mapping
	PortMappingNote string
	// Benchmarks is the number of distinct kernels measured.
	Benchmarks int
	Trace      []Step
	Config     Config
	Elapsed    time.Duration
}

// Misfit is a core kernel the core mapping does not explain: its
// predicted cycles are (1 − SubSaturation) times the measured ones.
type Misfit struct {
	Kernel        Kernel
	SubSaturation float64
}

// ErrNoFit is wrapped by the error of a run whose core mapping does not
// explain its kernels within Config.FitTol even after growing it. It
// matches infer.ErrNoFit as well (the run's infer.Status is NoFit).
var ErrNoFit error = noFit{}

type noFit struct{}

func (noFit) Error() string { return "palmed: the core mapping does not fit its kernels" }

// Is reports whether target is infer.ErrNoFit, the shared reason.
func (noFit) Is(target error) bool { return target == infer.ErrNoFit }

type run struct {
	cfg        Config
	base       Config          // as given, before Effective
	topped     map[string]bool // kernels measured CoreRepeats times
	remeasured map[string]bool // kernels measured again (Config.Remeasure)
	b          *bench
	res        *Result
	start      time.Time
	progress   func(infer.Progress)
}

func (r *run) step(stage, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.res.Trace = append(r.res.Trace, Step{Stage: stage, Message: msg, Elapsed: time.Since(r.start)})
	if r.progress != nil {
		r.progress(infer.Progress{Stage: stage, Message: stage + ": " + msg, Elapsed: time.Since(r.start)})
	}
}

// Infer runs PALMED on the instructions insns, measuring with o: it
// measures every instruction alone and every pair (quadratic benchmarks),
// forms equivalence classes, selects basic instructions (Alg. 1), infers
// the core mapping (LP1 shape, enrichment, LP2 weights, shape rejection and
// growth), finds saturating kernels and maps every other instruction with
// LPAUX in closed form. progress, when not nil, receives the stages. When
// ctx is cancelled it returns what it has (nil before the core mapping)
// with ctx's error.
func Infer(ctx context.Context, o oracle.Oracle, insns []string, cfg Config, progress func(infer.Progress)) (*Result, error) {
	if o == nil {
		return nil, errors.New("palmed: no oracle")
	}
	if len(insns) == 0 {
		return nil, errors.New("palmed: no instructions")
	}
	if cfg.FrontEnd < 0 || math.IsNaN(cfg.FrontEnd) || math.IsInf(cfg.FrontEnd, 0) {
		return nil, fmt.Errorf("palmed: config: FrontEnd = %g instructions per cycle; want a finite value ≥ 0 (0: not known)", cfg.FrontEnd)
	}
	if cfg.M < 1 || cfg.L < 1 || cfg.Basic < 1 || cfg.MaxScale < 1 {
		return nil, fmt.Errorf("palmed: config: M = %d, L = %d, Basic = %d, MaxScale = %d; want all ≥ 1", cfg.M, cfg.L, cfg.Basic, cfg.MaxScale)
	}
	if cfg.Basic > MaxBasicLP1 {
		return nil, fmt.Errorf("palmed: config: Basic = %d; want at most %d (LP1 enumerates every subset of the basic instructions)", cfg.Basic, MaxBasicLP1)
	}
	// The core mapping needs CBC: say so before minutes of benchmarks.
	if err := (&solver.CBC{}).Check(); err != nil {
		return nil, fmt.Errorf("palmed: %w", err)
	}
	r := &run{cfg: cfg, base: cfg, topped: map[string]bool{}, b: newBench(o, progress), remeasured: map[string]bool{}, start: time.Now(), progress: progress,
		res: &Result{Config: cfg, Unmapped: map[string]string{}, Saturating: map[string]Kernel{}}}
	defer func() {
		r.res.Skipped = r.b.skipped
		r.res.Benchmarks = len(r.b.cycles) + len(r.b.failed)
		r.res.Elapsed = time.Since(r.start)
	}()
	// 1. Every instruction alone.
	seen := map[string]bool{}
	var singles []portmap.Experiment
	for j, insn := range insns {
		if insn == "" {
			return nil, fmt.Errorf("palmed: instruction %d has an empty name", j)
		}
		if !seen[insn] {
			seen[insn] = true
			singles = append(singles, single(insn))
		}
	}
	// Alone, repeated for the noise estimate when Noise < 0 — unless the
	// oracle knows its noise (stored data answers a repeat with the same
	// value, so repeating would estimate 0).
	reported, nReported := 0.0, 0
	if nr, ok := o.(oracle.NoiseReporter); ok && cfg.Noise < 0 {
		reported, nReported = nr.Noise()
	}
	if nReported > 0 {
		cfg = cfg.Effective(reported)
		cfg.Noise = reported
		r.step("noise", "relative noise %.3g%% as the oracle reports it (from %d measurements)", 100*reported, nReported)
		if err := r.b.measure(ctx, "singletons", singles); err != nil {
			return nil, err
		}
	} else if cfg.Noise < 0 && cfg.NoiseSamples > 1 {
		if err := r.b.measureTimes(ctx, "singletons", singles, cfg.NoiseSamples); err != nil {
			return nil, err
		}
		sigma, n := r.b.noise()
		cfg = cfg.Effective(sigma)
		cfg.Noise = sigma
		r.step("noise", "relative noise %.3g%% estimated from %d instructions measured %d times each", 100*sigma, n, cfg.NoiseSamples)
	} else {
		cfg = cfg.Effective(-1)
		cfg.Noise = max(0, cfg.Noise)
		if err := r.b.measure(ctx, "singletons", singles); err != nil {
			return nil, err
		}
	}
	if cfg.Noise > 0 {
		r.b.repeats = max(1, cfg.Repeats)
		r.step("noise", "noise %.3g%%: tolerances EqTol %.3g, DisjointTol %.3g, SatTol %.3g, FitTol %.3g, PrivateTol %.3g, slack %.3g; %d measurements per kernel",
			100*cfg.Noise, cfg.EqTol, cfg.DisjointTol, cfg.SatTol, cfg.FitTol, cfg.PrivateTol, cfg.Slack, r.b.repeats)
	}
	r.cfg, r.res.Config = cfg, cfg
	t := map[string]float64{} // cycles of one instance alone
	var kept []string
	for _, e := range singles {
		insn := e.Items()[0].Insn
		c, ok := r.b.get(e)
		switch {
		case !ok:
			r.res.Unmapped[insn] = "not measurable alone: " + r.b.failed[e.Key()]
		case 1/c < cfg.MinIPC:
			r.res.Unmapped[insn] = fmt.Sprintf("IPC %.3g below %.3g", 1/c, cfg.MinIPC)
		default:
			t[insn] = c
			kept = append(kept, insn)
		}
	}
	r.step("singletons", "%d instructions measured, %d kept, %d left out", len(singles), len(kept), len(singles)-len(kept))
	if len(kept) == 0 {
		return nil, errors.New("palmed: no instruction could be measured with IPC above Config.MinIPC")
	}
	// 2. Quadratic benchmarks a^ā b^b̄ and equivalence classes.
	// The pair kernel of a and b is fixed when first made, so that
	// refining t later (Config.CoreRepeats) does not change it.
	pairOf := map[[2]string]portmap.Experiment{}
	pair := func(a, b string) portmap.Experiment {
		if e, ok := pairOf[[2]string{a, b}]; ok {
			return e
		}
		e := mix([]part{{single(a), 1 / t[a]}, {single(b), 1 / t[b]}}, cfg.RoundTol, cfg.MaxScale)
		pairOf[[2]string{a, b}], pairOf[[2]string{b, a}] = e, e
		return e
	}
	var pairs []portmap.Experiment
	for i, a := range kept {
		for _, b := range kept[i+1:] {
			pairs = append(pairs, pair(a, b))
		}
	}
	if err := r.b.measure(ctx, "quadratic", pairs); err != nil {
		return nil, err
	}
	// slowdown(a, b): cycles of the pair over the slower half alone; 1 for
	// disjoint instructions, NaN when unmeasured.
	// A pair the front end explains (measured within DisjointTol of
	// |e|/FrontEnd, slower than either half alone) shows no port conflict:
	// slowdown 1.
	slowdown := func(a, b string) float64 {
		e := pair(a, b)
		c, ok := r.b.get(e)
		if !ok {
			return math.NaN()
		}
		slower := max(float64(e.Count(a))*t[a], float64(e.Count(b))*t[b])
		if fe := r.frontEnd(e); fe > slower && c <= fe*(1+cfg.DisjointTol) {
			return 1
		}
		return c / slower
	}
	sd := map[[2]string]float64{}
	for i, a := range kept {
		for _, b := range kept[i+1:] {
			v := slowdown(a, b)
			sd[[2]string{a, b}], sd[[2]string{b, a}] = v, v
		}
	}
	r.step("quadratic", "%d pair kernels", len(pairs))
	// Forms the front end alone bounds: no port explains them; they are
	// kept out of the classes and the core.
	if fe, only := r.frontEndOnly(kept, t, pairs); len(only) > 0 {
		if cfg.FrontEnd == 0 {
			cfg.FrontEnd = fe
			r.cfg, r.res.Config = cfg, cfg
			r.res.FrontEndEstimated = true
			for i, a := range kept {
				for _, b := range kept[i+1:] {
					v := slowdown(a, b)
					sd[[2]string{a, b}], sd[[2]string{b, a}] = v, v
				}
			}
		}
		r.res.FrontEndOnly = only
		var names []string
		drop := map[string]bool{}
		for _, a := range only {
			drop[a] = true
			names = append(names, fmt.Sprintf("%s (%.3g per cycle alone)", a, 1/t[a]))
		}
		var rest []string
		for _, a := range kept {
			if !drop[a] {
				rest = append(rest, a)
			}
		}
		kept = rest
		how := "given"
		if r.res.FrontEndEstimated {
			how = "the largest of the singletons and pair kernels"
		}
		r.step("front end", "peak %.3g instructions per cycle (%s); %d forms bound by it alone, mapped to the front end only: %s",
			cfg.FrontEnd, how, len(only), strings.Join(names, ", "))
	}
	r.res.FrontEnd = cfg.FrontEnd
	r.res.Classes = classes(kept, t, sd, cfg.EqTol, cfg.EqOutliers, cfg.Noise > 0)
	var reps []string
	repOf := map[string]string{}
	setReps := func() {
		reps = reps[:0]
		for _, c := range r.res.Classes {
			reps = append(reps, c.Representative)
			for _, m := range c.Members {
				repOf[m] = c.Representative
			}
		}
	}
	setReps()
	r.step("classes", "%d equivalence classes of %d instructions (tolerance %.3g)", len(reps), len(kept), cfg.EqTol)
	// Noisy measurements from an oracle that samples afresh: the kernels
	// that decide the basic instructions and the core mapping (the
	// representatives alone and in pairs, later every core kernel) are
	// measured CoreRepeats times in all, their medians kept, and the core
	// is inferred with tolerances for that smaller noise.
	if r.coreRepeats() {
		var exps []portmap.Experiment
		for i, a := range reps {
			exps = append(exps, single(a))
			for _, b := range reps[i+1:] {
				exps = append(exps, pair(a, b))
			}
		}
		if err := r.topUp(ctx, "basic re-measurement", exps); err != nil {
			return nil, err
		}
		for _, a := range reps {
			if c, ok := r.b.get(single(a)); ok {
				t[a] = c
			}
		}
		for i, a := range reps {
			for _, b := range reps[i+1:] {
				v := slowdown(a, b)
				sd[[2]string{a, b}], sd[[2]string{b, a}] = v, v
			}
		}
		base := r.base
		base.Repeats = cfg.CoreRepeats
		// The median of n samples has about √(π/2) times the spread of
		// their mean.
		core := base.Effective(cfg.Noise * math.Sqrt(math.Pi/2))
		cfg.DisjointTol, cfg.SatTol, cfg.FitTol = core.DisjointTol, core.SatTol, core.FitTol
		r.cfg = cfg
		r.step("noise", "%d representatives alone and %d pairs measured %d times in all (median kept): core tolerances DisjointTol %.3g, SatTol %.3g, FitTol %.3g",
			len(reps), len(exps)-len(reps), cfg.CoreRepeats, cfg.DisjointTol, cfg.SatTol, cfg.FitTol)
		// Classes split by noise, merged on the medians: two
		// representatives whose medians alone and with every other
		// representative agree within the tolerance of a median are one
		// class (a class split in two puts two copies of one unit among
		// the basic instructions, and leaves a unit out).
		if merged := mergeClasses(r.res.Classes, t, sd, core.EqTol, core.EqOutliers); len(merged) < len(r.res.Classes) {
			r.step("classes", "%d classes after comparing the representatives' medians (tolerance %.3g): %d merged", len(merged), core.EqTol, len(r.res.Classes)-len(merged))
			r.res.Classes = merged
			setReps()
		}
	}
	// 3. Basic instructions (Alg. 1).
	vb, mf := selectBasic(reps, t, sd, cfg)
	r.res.VeryBasic, r.res.MostFrugal = vb, mf
	basic := append(append([]string(nil), vb...), mf...)
	r.res.Basic = basic
	r.step("basic", "%d basic instructions: very basic %s; most frugal %s", len(basic), strings.Join(vb, ", "), strings.Join(mf, ", "))
	if len(basic) == 0 {
		return nil, fmt.Errorf("palmed: no basic instruction: no class has IPC ≥ %.3g", 1-cfg.BasicEps)
	}
	// 4. Core mapping.
	core, err := r.coreMapping(ctx, basic, vb, mf, t, sd, pair)
	if core == nil {
		return nil, err
	}
	fitErr := err
	r.cfg = r.res.Config // LPAUX's tolerances are those of kernels measured once
	// 5. Saturating kernels and LPAUX for the other classes.
	if err := r.complete(ctx, core, basic, reps, t, pair); err != nil {
		return r.res, err
	}
	// Members of a class get the representative's loads.
	m := r.res.Mapping
	for _, insn := range kept {
		rep := repOf[insn]
		if insn == rep || !m.Has(rep) {
			continue
		}
		for k, name := range m.Resources() {
			if v := m.Load(rep, name); v.Sign() > 0 {
				m.SetLoadAt(insn, k, v)
			}
		}
	}
	// Forms bound by the front end: no port resource; a private one for
	// the cycles alone the front end leaves unexplained.
	for _, a := range r.res.FrontEndOnly {
		m.AddInstruction(a)
		if t[a]*cfg.FrontEnd > 1+cfg.PrivateTol {
			k, err := m.AddResource("R:" + a)
			if err != nil {
				return r.res, err
			}
			m.SetLoadAt(a, k, resource.Rational(t[a], RationalTol))
		}
	}
	r.exportPorts()
	if cfg.FrontEnd > 0 {
		// The front end as a resource of the mapping (after the port
		// mapping, which has no place for it).
		k, err := m.AddResource("front end")
		if err != nil {
			return r.res, err
		}
		v := resource.Rational(1/cfg.FrontEnd, RationalTol)
		for _, insn := range m.Instructions() {
			m.SetLoadAt(insn, k, v)
		}
	}
	r.step("done", "%d instructions mapped on %d resources, %d left out, %d kernels measured, %d skipped",
		m.Len(), m.NumResources(), len(r.res.Unmapped), len(r.b.cycles)+len(r.b.failed), len(r.b.skipped))
	return r.res, fitErr
}

// frontEndOnly returns the front end's peak (Config.FrontEnd, or else
// with Config.EstimateFrontEnd estimated from the singletons and the pair
// kernels) and the
// instructions of kept that run within Config.FrontEndTol of it alone, in
// kept's order; none when FrontEndTol is 0, when fewer than two
// instructions are kept, or when the peak is estimated and no pair kernel
// of two forms shows it (within FrontEndTol of the peak and faster, by
// more than DisjointTol, than either form alone: on a machine without a
// front-end limit the fastest kernels are those of single port groups).
func (r *run) frontEndOnly(kept []string, t map[string]float64, pairs []portmap.Experiment) (float64, []string) {
	tol := r.cfg.FrontEndTol
	if !(tol > 0) || len(kept) < 2 {
		return 0, nil
	}
	fe := r.cfg.FrontEnd
	if fe <= 0 && !r.cfg.EstimateFrontEnd {
		return 0, nil
	}
	if fe <= 0 {
		ipc := func(e portmap.Experiment) float64 {
			if c, ok := r.b.get(e); ok && c > 0 {
				return float64(e.Len()) / c
			}
			return 0
		}
		for _, a := range kept {
			fe = max(fe, 1/t[a])
		}
		for _, e := range pairs {
			fe = max(fe, ipc(e))
		}
		shown := false
		for _, e := range pairs {
			it := e.Items()
			if len(it) != 2 || ipc(e) < (1-tol)*fe {
				continue
			}
			if ipc(e) > (1+r.cfg.DisjointTol)*max(1/t[it[0].Insn], 1/t[it[1].Insn]) {
				shown = true
				break
			}
		}
		if !shown {
			return 0, nil
		}
	}
	var only []string
	for _, a := range kept {
		if 1/t[a] >= (1-tol)*fe {
			only = append(only, a)
		}
	}
	if len(only) == len(kept) {
		return 0, nil // nothing left for the ports: not told apart
	}
	return fe, only
}

// coreRepeats reports whether the kernels deciding the core are measured
// Config.CoreRepeats times: noisy measurements from an oracle that samples
// afresh.
func (r *run) coreRepeats() bool {
	return r.cfg.Noise > 0 && r.cfg.CoreRepeats > 1 && !oracle.Remembers(r.b.o)
}

// topUp measures the kernels of exps not topped up yet CoreRepeats − 1
// more times (their median kept), when coreRepeats.
func (r *run) topUp(ctx context.Context, stage string, exps []portmap.Experiment) error {
	if !r.coreRepeats() {
		return nil
	}
	var todo []portmap.Experiment
	for _, e := range exps {
		if k := e.Key(); !r.topped[k] {
			r.topped[k] = true
			todo = append(todo, e)
		}
	}
	return r.b.again(ctx, stage, todo, r.cfg.CoreRepeats-1)
}

// frontEnd returns the fewest cycles the front end allows e
// (|e|/Config.FrontEnd), 0 when the front end is not known.
func (r *run) frontEnd(e portmap.Experiment) float64 {
	if r.cfg.FrontEnd <= 0 {
		return 0
	}
	return float64(e.Len()) / r.cfg.FrontEnd
}

// exportPorts sets the result's equivalent port mapping, or says why
// there is none.
func (r *run) exportPorts() {
	pm, compact, err := resource.PortMapping(r.res.Mapping)
	switch {
	case err != nil:
		r.res.PortMappingNote = err.Error()
	case compact:
		r.res.PortMapping = pm
		r.res.PortMappingNote = fmt.Sprintf("an equivalent port mapping on %d ports (compact: resources placed on shared ports)", pm.NumPorts())
	default:
		r.res.PortMapping = pm
		r.res.PortMappingNote = fmt.Sprintf("an equivalent port mapping on %d ports, one port group per resource (no compact placement found)", pm.NumPorts())
	}
	r.step("port mapping", "%s", r.res.PortMappingNote)
}

// classes groups insns greedily: each joins the first class whose
// representative is within tol (see Config.EqTol and EqOutliers) and
// conflicts with it as with itself (their pair kernel slowed down by 2
// within 2·tol). With relative, two slowdowns x and y agree when they
// differ by at most tol·max(x, y): noisy measurements (relative noise)
// shift a whole row by the error of the instruction's cycles alone, by
// which every slowdown of the row is divided, so a fixed tolerance splits
// classes at the larger slowdowns (simulated Skylake with 0.5 % noise:
// add r64, imm8 and add r64, imm32 differ by 0.03–0.04 with every
// instruction they conflict with, 1.5 % of their slowdowns of about 2).
func classes(insns []string, t map[string]float64, sd map[[2]string]float64, tol, outliers float64, relative bool) []Class {
	var out []Class
	for _, a := range insns {
		placed := false
		for k := range out {
			rep := out[k].Representative
			if math.Abs(t[a]-t[rep]) > tol*max(t[a], t[rep]) {
				continue
			}
			// Alg. 1 compares the rows Q[a][p] and Q[rep][p] for every p,
			// rep and a included: Q[a][a] (a with itself, slowdown 2)
			// against Q[rep][a]. Two forms on different units that
			// behave alike with everything else are told apart here.
			if v := sd[[2]string{a, rep}]; math.IsNaN(v) || math.Abs(v-2) > 2*tol {
				continue
			}
			same, off := true, 0
			for _, p := range insns {
				if p == a || p == rep {
					continue
				}
				x, y := sd[[2]string{a, p}], sd[[2]string{rep, p}]
				if math.IsNaN(x) || math.IsNaN(y) {
					same = false
					break
				}
				if d := math.Abs(x - y); d > tol && (!relative || d > tol*max(x, y)) {
					if off++; float64(off) > outliers*float64(len(insns)) {
						same = false
						break
					}
				}
			}
			if same {
				out[k].Members = append(out[k].Members, a)
				placed = true
				break
			}
		}
		if !placed {
			out = append(out, Class{Representative: a, Members: []string{a}, IPC: 1 / t[a]})
		}
	}
	return out
}

// mergeClasses compares the representatives of cls with each other as
// classes does the instructions (the rows restricted to the
// representatives, relative tolerance tol) and merges the classes whose
// representatives are equivalent: the first class's representative stays,
// the members are joined in order.
func mergeClasses(cls []Class, t map[string]float64, sd map[[2]string]float64, tol, outliers float64) []Class {
	var reps []string
	byRep := map[string]Class{}
	for _, c := range cls {
		reps = append(reps, c.Representative)
		byRep[c.Representative] = c
	}
	var out []Class
	for _, c := range classes(reps, t, sd, tol, outliers, true) {
		m := byRep[c.Representative]
		m.Members = append([]string(nil), m.Members...)
		for _, rep := range c.Members[1:] {
			m.Members = append(m.Members, byRep[rep].Members...)
		}
		out = append(out, m)
	}
	return out
}

// selectBasic is Alg. 1: among the representatives with IPC ≥ 1 −
// BasicEps, a greedy maximal clique of mutually disjoint instructions
// (very basic, by decreasing number of disjoint partners, then IPC), then
// the most frugal others (largest total IPC of their pair kernels with all
// the others, a total order extending Alg. 1's preorder) until there are
// cfg.Basic.
func selectBasic(reps []string, t map[string]float64, sd map[[2]string]float64, cfg Config) (vb, mf []string) {
	var f []string
	for _, a := range reps {
		if 1/t[a] >= 1-cfg.BasicEps {
			f = append(f, a)
		}
	}
	disjoint := func(a, b string) bool {
		v := sd[[2]string{a, b}]
		return !math.IsNaN(v) && v <= 1+cfg.DisjointTol
	}
	dj := map[string]int{}
	frugality := map[string]float64{} // Σ_p IPC of a^ā·p^p̄
	for _, a := range f {
		for _, b := range f {
			if a != b {
				if disjoint(a, b) {
					dj[a]++
				}
				if v := sd[[2]string{a, b}]; !math.IsNaN(v) {
					// a^ā·b^b̄ holds ā+b̄ instructions per max(1,1)·v cycles.
					frugality[a] += (1/t[a] + 1/t[b]) / v
				}
			}
		}
	}
	order := append([]string(nil), f...)
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if dj[a] != dj[b] {
			return dj[a] > dj[b]
		}
		return t[a] < t[b]
	})
	in := map[string]bool{}
	for _, a := range order {
		if len(vb) == cfg.Basic {
			return vb, nil
		}
		ok := true
		for _, b := range vb {
			if !disjoint(a, b) {
				ok = false
				break
			}
		}
		if ok {
			vb = append(vb, a)
			in[a] = true
		}
	}
	frugal := append([]string(nil), f...)
	sort.SliceStable(frugal, func(i, j int) bool { return frugality[frugal[i]] > frugality[frugal[j]] })
	for _, a := range frugal {
		if len(vb)+len(mf) == cfg.Basic {
			break
		}
		if !in[a] {
			mf = append(mf, a)
		}
	}
	return vb, mf
}
