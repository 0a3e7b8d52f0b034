package explainable

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/infer/cegis"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/pmu"
	"github.com/portlab/portlab/lib/portmap"
)

func init() { infer.Register("explainable", func() infer.Method { return New() }) }

// ThesisImproper are the improper blocking instructions the thesis added
// by hand on Zen+ (§6.3.4): the two stores, whose store µop no single-µop
// instruction blocks.
var ThesisImproper = []string{"mov dword ptr W:MEM(32), R:GPR:32", "vmovapd xmmword ptr W:MEM(128), R:XMM0..15"}

// Method is the explainable port-mapping inference of thesis Ch. 6 behind
// the inference contract of package infer. The result's Report is a
// *Report.
type Method struct {
	// Epsilon is the tolerance on cycles per instruction (0:
	// DefaultEpsilon).
	Epsilon float64
	// MacroOps says that the oracle's µop counter counts AMD macro-ops:
	// its counts are corrected to µops with Postulate65 (oracle.CorrectUops).
	MacroOps bool
	// Improper are improper blocking instructions (two µops, one of them
	// on a port set no proper blocking instruction has; thesis §6.3.4),
	// used where they are among the problem's instructions.
	Improper []string
	// Repeats, when above 1, measures every experiment that many times
	// and takes the median (oracle.Repeat, which asks for all repeats of a
	// batch as one batch; the thesis took 11 on Zen+). The oracle must
	// measure afresh (not a Replay or a campaign's file: see
	// oracle.Rememberer).
	Repeats int
	// Runs is how often stage 5 is run (default 3); an instruction's
	// decomposition counts when a majority of the runs agree on it
	// (thesis §6.3.5: two of three).
	Runs int
	// RetryRepeats, when above Repeats, re-runs stage 5 for the
	// instructions whose runs disagree (Unstable), and only for them, with
	// every experiment measured that many times (median): more repeats
	// only where the noise showed. 0: no second try.
	RetryRepeats int
	// StrictCounts leaves out of the mapping the instructions whose µops
	// found predict their throughput alone but disagree with the µop
	// counter; by default they are mapped and flagged (CountDiffers).
	StrictCounts bool
	// SMT configures stage 4's counterexample-guided search (package
	// infer/cegis); Epsilon, UopCounts, PortCounts and
	// InstructionsPerCycle are set by the method.
	SMT cegis.Config
}

// New returns the method with its defaults: ε = 0.02, the thesis's
// improper blockers, three runs of stage 5, portlab's SMT settings.
func New() *Method {
	return &Method{Improper: ThesisImproper, Runs: 3, SMT: cegis.DefaultConfig()}
}

// Name returns "explainable".
func (*Method) Name() string { return "explainable" }

// UsesUopCounter returns true: the method needs the total µop count of
// every measurement (see infer.UopCounterUser).
func (*Method) UsesUopCounter() bool { return true }

// SetFlags defines the method's settings as command-line flags.
func (m *Method) SetFlags(fs *flag.FlagSet) {
	fs.Float64Var(&m.Epsilon, "epsilon", DefaultEpsilon, "tolerance on cycles per instruction")
	fs.BoolVar(&m.MacroOps, "macro-ops", m.MacroOps, "the µop counter counts AMD macro-ops: correct its counts with the thesis's Postulate 6.5 (portlab:zenplus-like needs it)")
	fs.Func("improper", "improper blocking instructions, separated by ';' (default: the thesis's two stores, where present; 'none' for none)", func(s string) error {
		m.Improper = nil
		if s == "none" {
			return nil
		}
		for _, insn := range strings.Split(s, ";") {
			if insn = strings.TrimSpace(insn); insn != "" {
				m.Improper = append(m.Improper, insn)
			}
		}
		return nil
	})
	fs.IntVar(&m.Repeats, "repeats", m.Repeats, "measure every experiment this often and take the median (the thesis: 11)")
	fs.IntVar(&m.Runs, "runs", m.Runs, "runs of stage 5; a majority must agree")
	fs.IntVar(&m.RetryRepeats, "retry-repeats", m.RetryRepeats, "re-run stage 5 for the unstable instructions only, measuring every experiment this often (median; 0: no retry)")
	fs.BoolVar(&m.StrictCounts, "strict-counts", m.StrictCounts, "leave out instructions whose µops found disagree with the µop counter")
	fs.DurationVar(&m.SMT.Timeout, "smt-timeout", m.SMT.Timeout, "time limit per solver query (0: none)")
}

// ErrNoCounter is wrapped by the error of a run whose oracle counts no
// µops (ErrNoUopCounter from stages 0–2).
var ErrNoCounter = ErrNoUopCounter

// Infer runs the five stages on p (see the package documentation). It needs
// p.Ports; p.InstructionsPerCycle, when positive, is taken as the front
// end's peak instead of measuring it (stage 3).
func (m *Method) Infer(ctx context.Context, p *infer.Problem, s *infer.Settings) (*infer.Result, error) {
	if p.Oracle == nil {
		return nil, errors.New("explainable: the problem has no oracle (the method measures what it needs)")
	}
	if p.Ports < 1 {
		return nil, errors.New("explainable: the number of ports is unknown (set Problem.Ports, -ports)")
	}
	eps := m.Epsilon
	if eps == 0 {
		eps = DefaultEpsilon
	}
	runs := max(m.Runs, 1)
	start := time.Now()
	progress := func(stage string, done, total int, msg string) {
		if s != nil && s.Progress != nil {
			s.Progress(infer.Status{Stage: stage, Done: done, Total: total, Message: msg, Elapsed: time.Since(start)})
		}
	}
	o, err := m.measuring(p.Oracle, m.Repeats)
	if err == nil && m.RetryRepeats > max(m.Repeats, 1) {
		_, err = m.measuring(p.Oracle, m.RetryRepeats) // refused now, not after stage 4
	}
	if err != nil {
		return nil, err
	}
	names := p.PortNames
	if names == nil {
		for k := 0; k < p.Ports; k++ {
			names = append(names, fmt.Sprint(k))
		}
	}
	arch, err := portmap.NewArchitecture("explainable", names, p.Instructions)
	if err != nil {
		return nil, fmt.Errorf("explainable: %w", err)
	}
	r := &Report{Epsilon: eps, MacroOps: m.MacroOps, Runs: runs, arch: arch, insns: map[string]*Insn{}}
	res := &infer.Result{Report: r}

	// Stages 0–2.
	b, err := FindBlocking(ctx, o, p.Instructions, eps, func(done, total int) {
		progress("stages 0-2", done, total, fmt.Sprintf("stages 0–2 (alone, pairs): %d/%d", done, total))
	})
	if err != nil {
		if errors.Is(err, ErrNoUopCounter) {
			err = fmt.Errorf("%w; %s", err, pmu.Detect().Advice())
		}
		return nil, err
	}
	r.Blocking = b
	alone := map[string]portmap.Measurement{}
	for _, insn := range p.Instructions {
		r.insns[insn] = &Insn{Insn: insn}
		r.order = append(r.order, insn)
	}
	for _, x := range b.Excluded {
		// Instructions that are no blocking candidates go to stage 5,
		// unless they could not be measured at all.
		if in := r.insns[x.Insn]; strings.HasPrefix(x.Reason, "measuring it alone") {
			in.Outcome, in.Why = Failed, x.Reason
		}
	}

	// Stage 3: the front end's peak.
	ipc := p.InstructionsPerCycle
	r.Peak = PeakIPC{Given: ipc}
	if ipc <= 0 {
		pk, err := measurePeak(ctx, o, b, func(done int) {
			progress("stage 3", done, 0, fmt.Sprintf("stage 3 (peak IPC): %d mixes", done))
		})
		r.Peak = pk
		if err != nil {
			return res, err
		}
		ipc = pk.Measured
	}
	r.Peak.Used = ipc
	for _, c := range b.Classes {
		if float64(c.Ports) >= ipc-eps {
			r.Peak.Warning = fmt.Sprintf("a blocking class has %d ports and the front end admits %.3g instructions per cycle: stage 2 cannot tell port sets of that size apart, stage 5 sees no evasion from them (thesis §6.2.3)", c.Ports, ipc)
		}
	}

	// Stage 4: the blocking instructions' ports by SMT.
	var reps []string
	portCount := map[string]int{}
	for _, c := range b.Classes {
		reps = append(reps, c.Insns[0])
		portCount[c.Insns[0]] = c.Ports
	}
	uopCount := map[string]int{}
	present := map[string]bool{}
	for _, insn := range p.Instructions {
		present[insn] = true
	}
	for _, insn := range m.Improper {
		if !present[insn] {
			r.Notes = append(r.Notes, fmt.Sprintf("improper blocking instruction %q is not among the instructions: not used", insn))
			continue
		}
		x, err := o.Measure(ctx, portmap.NewExperiment(insn))
		if err != nil {
			if ctx.Err() != nil {
				return res, ctx.Err()
			}
			r.Notes = append(r.Notes, fmt.Sprintf("improper blocking instruction %q: %v: not used", insn, err))
			continue
		}
		if n := math.Round(x.Uops); n != 2 || math.Abs(x.Uops-n) > 0.25 {
			r.Notes = append(r.Notes, fmt.Sprintf("improper blocking instruction %q retires %.4g µops, not 2: not used", insn, x.Uops))
			continue
		}
		alone[insn] = x
		reps = append(reps, insn)
		uopCount[insn] = 2
	}
	blockerMap, err := m.stage4(ctx, o, p.Ports, reps, portCount, uopCount, eps, ipc, r, progress)
	if err != nil {
		return res, err
	}
	r.BlockerMapping = blockerMap
	proper := map[portmap.PortSet]bool{}
	var bs []blocker
	for _, insn := range blockerMap.Instructions() {
		u, _ := blockerMap.Uops(insn)
		if len(u) == 1 && u[0].Count == 1 {
			proper[u[0].Ports] = true
			bs = append(bs, blocker{insn: insn, ports: u[0].Ports, uops: u})
		}
	}
	for _, insn := range blockerMap.Instructions() {
		u, _ := blockerMap.Uops(insn)
		if len(u) == 1 && u[0].Count == 1 {
			continue
		}
		// An improper blocker blocks the port set of its µop that no
		// proper blocker has; it is no blocker when there is none.
		var own []portmap.PortSet
		for _, x := range u {
			if !proper[x.Ports] {
				own = append(own, x.Ports)
			}
		}
		if len(own) == 1 {
			bs = append(bs, blocker{insn: insn, ports: own[0], uops: u})
			proper[own[0]] = true
		} else {
			r.Notes = append(r.Notes, fmt.Sprintf("improper blocking instruction %q (%s) is not needed in stage 5: its µops' port sets %s", insn, portmap.FormatUsage(u, arch),
				map[bool]string{true: "have blocking instructions already", false: "are both new (it cannot tell which it blocks)"}[len(own) == 0]))
		}
	}
	// Record the blockers and their classes.
	classOf := map[string]*Class{}
	for k := range b.Classes {
		for _, insn := range b.Classes[k].Insns {
			classOf[insn] = &b.Classes[k]
		}
	}
	mapping := portmap.NewMappingFor(arch)
	for _, insn := range blockerMap.Instructions() {
		u, _ := blockerMap.Uops(insn)
		if err := mapping.Set(insn, u...); err != nil {
			return res, fmt.Errorf("explainable: %w", err)
		}
		in := r.insns[insn]
		in.Uops = u
		if c := classOf[insn]; c != nil {
			in.Outcome = Blocker
		} else {
			in.Outcome = ImproperBlocker
		}
	}
	repUops := map[string][]portmap.Uop{}
	for _, c := range b.Classes {
		rep := c.Insns[0]
		u, ok := blockerMap.Uops(rep)
		if !ok {
			for _, insn := range c.Insns {
				in := r.insns[insn]
				in.Outcome, in.Why = NotCandidate, fmt.Sprintf("its class (representative %s) was left out of stage 4", rep)
			}
			continue
		}
		// The other members go through stage 5 as well, which confirms
		// (or refutes) that they share the representative's port set.
		for _, insn := range c.Insns[1:] {
			r.insns[insn].Rep = rep
			repUops[insn] = u
		}
	}

	// Stage 5: every other instruction, Runs times.
	var rest []string
	for _, insn := range p.Instructions {
		if r.insns[insn].Outcome == 0 {
			rest = append(rest, insn)
		}
	}
	r.Blockers = nil
	for _, x := range bs {
		r.Blockers = append(r.Blockers, BlockerInfo{Insn: x.insn, Ports: x.ports})
	}
	perRun := make([][]Decomposition, 0, runs)
	for run := 0; run < runs; run++ {
		progress("stage 5", run, runs, fmt.Sprintf("stage 5 (blocking experiments), run %d of %d: %d instructions × %d blocking instructions", run+1, runs, len(rest), len(bs)))
		decs, _, err := decompose(ctx, o, rest, bs, arch, eps, ipc, true)
		if err != nil {
			return res, err
		}
		perRun = append(perRun, decs)
	}
	if m.RetryRepeats > max(m.Repeats, 1) {
		// A second try for the unstable instructions, with more repeats.
		var retry []string
		at := map[string]int{}
		for i, insn := range rest {
			probe := &Insn{Insn: insn}
			for _, decs := range perRun {
				probe.Runs = append(probe.Runs, decs[i])
			}
			m.settle(probe, runs, arch)
			if probe.Outcome == Unstable {
				at[insn] = len(retry)
				retry = append(retry, insn)
			}
		}
		if len(retry) > 0 {
			ro, err := m.measuring(p.Oracle, m.RetryRepeats)
			if err != nil {
				return res, err
			}
			again := make([][]Decomposition, 0, runs)
			for run := 0; run < runs; run++ {
				progress("stage 5", run, runs, fmt.Sprintf("stage 5 again for %d unstable instructions, %d repeats, run %d of %d", len(retry), m.RetryRepeats, run+1, runs))
				decs, _, err := decompose(ctx, ro, retry, bs, arch, eps, ipc, true)
				if err != nil {
					return res, err
				}
				again = append(again, decs)
			}
			for i, insn := range rest {
				if j, ok := at[insn]; ok {
					for run := range perRun {
						perRun[run][i] = again[run][j]
					}
				}
			}
			r.Notes = append(r.Notes, fmt.Sprintf("stage 5 run again for %d unstable instructions with %d repeats per experiment", len(retry), m.RetryRepeats))
		}
	}
	for i, insn := range rest {
		in := r.insns[insn]
		for _, decs := range perRun {
			in.Runs = append(in.Runs, decs[i])
		}
		m.settle(in, runs, arch)
		if u, ok := repUops[insn]; ok {
			switch {
			case in.Outcome == Mapped && portmap.FormatUsage(in.Uops, arch) == portmap.FormatUsage(u, arch):
				in.Outcome = Equivalent
			case in.Outcome == Mapped:
				in.Outcome = Inconsistent
				in.Why = fmt.Sprintf("stage 2 put it with %s (%s), but its blocking experiments find %s", in.Rep, portmap.FormatUsage(u, arch), portmap.FormatUsage(in.Uops, arch))
				in.Uops = nil
			case in.Outcome == Unstable:
				// Noise: the runs disagree, so they refute nothing; the
				// pair experiment of stage 2 stands.
				in.Outcome = Equivalent
				in.Why = fmt.Sprintf("by stage 2 alone: its blocking experiments were unstable (%s)", in.Why)
				in.Uops = u
			default:
				in.Why = fmt.Sprintf("stage 2 put it with %s (%s), but: %s", in.Rep, portmap.FormatUsage(u, arch), in.Why)
				if !in.Outcome.Mapped() {
					in.Uops = nil
				}
			}
		}
		if in.Outcome.Mapped() {
			if err := mapping.Set(insn, in.Uops...); err != nil {
				return res, fmt.Errorf("explainable: %w", err)
			}
		}
	}
	res.Mapping = mapping
	pred := oracle.FromMapping(mapping)
	pred.FrontEnd.InstructionsPerCycle = ipc
	res.Predictor = pred
	r.finish()
	progress("done", runs, runs, r.summary())
	return res, nil
}

// settle decides an instruction's outcome from its stage-5 runs: the
// decomposition a majority of the runs found.
func (m *Method) settle(in *Insn, runs int, arch *portmap.Architecture) {
	votes := map[string]int{}
	first := map[string]Decomposition{}
	for _, d := range in.Runs {
		key := portmap.FormatUsage(d.Found, arch) + "|" + fmt.Sprint(d.Complete, d.Fits, d.Problem == "")
		if d.Problem != "" && !d.Fits {
			key = "problem|" + d.Problem
		}
		votes[key]++
		if _, ok := first[key]; !ok {
			first[key] = d
		}
	}
	best, n := "", 0
	for k, v := range votes {
		if v > n || v == n && k < best {
			best, n = k, v
		}
	}
	d := first[best]
	in.Cycles, in.Counted = d.Cycles, d.Uops
	if 2*n <= runs && runs > 1 {
		in.Outcome = Unstable
		var seen []string
		for _, d := range in.Runs {
			seen = append(seen, describeRun(d, arch))
		}
		in.Why = fmt.Sprintf("no majority of the %d runs agrees: %s", runs, strings.Join(seen, "; "))
		return
	}
	switch {
	case d.Complete:
		in.Outcome, in.Uops = Mapped, d.Found
	case d.Fits && len(d.Found) > 0 && !strings.HasPrefix(d.Problem, "found ") && d.Problem != "":
		in.Outcome, in.Why = Inconsistent, d.Problem
	case d.Fits && len(d.Found) > 0:
		in.Outcome, in.Why = CountDiffers, d.Problem
		if !m.StrictCounts {
			in.Uops = d.Found
		} else {
			in.Outcome = CountDiffersUnmapped
		}
	case strings.HasPrefix(d.Problem, "measuring"):
		in.Outcome, in.Why = Failed, d.Problem
	case strings.Contains(d.Problem, "not a whole number"):
		in.Outcome, in.Why = Inconsistent, d.Problem
	default:
		in.Outcome, in.Why = Incomplete, d.Problem
	}
}

// describeRun is one stage-5 run in a few words.
func describeRun(d Decomposition, arch *portmap.Architecture) string {
	if d.Complete {
		return portmap.FormatUsage(d.Found, arch)
	}
	return d.Problem
}

// stage4 maps the blocking instructions to ports with counterexample-guided
// SMT search. When no mapping explains the measurements, it leaves out the
// instruction that occurs in most of the conflicting measurements (thesis
// §6.3.4: imul, vpmuldq and vmovd were out of the model on Zen+) and tries
// again, at most three times.
func (m *Method) stage4(ctx context.Context, o oracle.Oracle, ports int, insns []string, portCount, uopCount map[string]int, eps, ipc float64, r *Report, progress func(string, int, int, string)) (*portmap.Mapping, error) {
	cfg := m.SMT
	if cfg.StartSize == 0 {
		cfg = cegis.DefaultConfig()
		cfg.Timeout, cfg.Z3 = m.SMT.Timeout, m.SMT.Z3
	}
	cfg.Epsilon, cfg.InstructionsPerCycle = eps, ipc
	for attempt := 0; ; attempt++ {
		cfg.PortCounts, cfg.UopCounts = map[string]int{}, map[string]int{}
		for _, insn := range insns {
			if n, ok := portCount[insn]; ok {
				cfg.PortCounts[insn] = n
			}
			if n, ok := uopCount[insn]; ok {
				cfg.UopCounts[insn] = n
			}
		}
		// One µop of an improper blocker is a proper blocker's (§6.3.4).
		cfg.Shares = map[string][]string{}
		for _, insn := range insns {
			if uopCount[insn] < 2 {
				continue
			}
			for _, p := range insns {
				if _, ok := portCount[p]; ok {
					cfg.Shares[insn] = append(cfg.Shares[insn], p)
				}
			}
		}
		cfg.Progress = func(it cegis.Iteration) {
			progress("stage 4", it.Index, 0, fmt.Sprintf("stage 4 (SMT over %d blocking instructions): iteration %d, %d measured", len(insns), it.Index, it.Measured))
		}
		res, err := cegis.Infer(ctx, o, insns, ports, cfg)
		var none *cegis.NoMappingError
		if errors.As(err, &none) && attempt < 3 && len(insns) > 1 {
			count := map[string]int{}
			for _, x := range none.Conflicting {
				for _, it := range x.Experiment.Items() {
					count[it.Insn]++
				}
			}
			worst := ""
			for _, insn := range insns {
				if count[insn] > count[worst] {
					worst = insn
				}
			}
			if worst == "" {
				return nil, fmt.Errorf("explainable: stage 4: %w", err)
			}
			r.SMTDropped = append(r.SMTDropped, Dropped{Insn: worst, Why: err.Error()})
			insns = removeString(insns, worst)
			continue
		}
		if res != nil {
			r.SMT = res
		}
		if err != nil {
			return nil, fmt.Errorf("explainable: stage 4: %w", err)
		}
		return res.Mapping, nil
	}
}

func removeString(list []string, x string) []string {
	var out []string
	for _, s := range list {
		if s != x {
			out = append(out, s)
		}
	}
	return out
}

// PeakIPC is stage 3's account of the front end's peak (thesis §6.2.3).
type PeakIPC struct {
	// Measured is the largest instructions per cycle measured (rounded to
	// a whole number when within 2 % of one), Mix the experiment that
	// reached it, Tried the number of experiments; Given is the peak the
	// problem gave instead (then nothing is measured); Used is what the
	// method used.
	Measured    float64
	Mix         portmap.Experiment
	MixCycles   float64
	Tried       int
	Given, Used float64
	// Warning is set when a blocking class has as many ports as the peak
	// admits instructions per cycle or more.
	Warning string
}

// measurePeak measures the front end's peak with greedy mixes of the
// blocking classes' representatives (thesis §4.3): start with as many
// copies of one as take a cycle, add copies of the others while the
// instructions per cycle rise; repeat from every representative.
func measurePeak(ctx context.Context, o oracle.Oracle, b *Blocking, progress func(int)) (PeakIPC, error) {
	var pk PeakIPC
	type rep struct {
		insn   string
		cycles float64
	}
	var reps []rep
	cycles := map[string]float64{}
	for _, c := range b.Candidates {
		cycles[c.Insn] = c.Cycles
	}
	for _, c := range b.Classes {
		reps = append(reps, rep{c.Insns[0], cycles[c.Insns[0]]})
	}
	sort.SliceStable(reps, func(i, j int) bool { return reps[i].cycles < reps[j].cycles })
	measure := func(e portmap.Experiment) (float64, error) {
		pk.Tried++
		progress(pk.Tried)
		x, err := o.Measure(ctx, e)
		if err != nil {
			return 0, err
		}
		ipc := float64(e.Len()) / x.Cycles
		if ipc > pk.Measured {
			pk.Measured, pk.Mix, pk.MixCycles = ipc, e, x.Cycles
		}
		return ipc, nil
	}
	for i, first := range reps {
		if first.cycles <= 0 {
			continue
		}
		e := portmap.NewExperiment().With(first.insn, max(1, int(math.Round(1/first.cycles))))
		best, err := measure(e)
		if err != nil {
			if ctx.Err() != nil {
				return pk, ctx.Err()
			}
			continue
		}
		for j := 1; j < len(reps); j++ {
			next := reps[(i+j)%len(reps)].insn
			for {
				try := e.With(next, 1)
				ipc, err := measure(try)
				if err != nil {
					if ctx.Err() != nil {
						return pk, ctx.Err()
					}
					break
				}
				if ipc <= best*(1+1e-9) {
					break
				}
				e, best = try, ipc
			}
		}
	}
	if pk.Tried == 0 || pk.Measured == 0 {
		return pk, errors.New("explainable: stage 3: no blocking instruction to measure the peak with")
	}
	if w := math.Round(pk.Measured); math.Abs(pk.Measured-w) <= 0.02*w {
		pk.Measured = w
	}
	return pk, nil
}
