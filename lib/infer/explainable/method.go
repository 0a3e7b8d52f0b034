package explainable

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"sort"
	"strings"

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
// *Report. The fields tagged with a flag are the command line's settings
// (infer.BindFlags).
type Method struct {
	// Epsilon is the tolerance on cycles per instruction (0:
	// DefaultEpsilon).
	Epsilon float64 `flag:"epsilon" help:"tolerance on cycles per instruction (0: 0.02)" min:"0"`
	// MacroOps says that the oracle's µop counter counts AMD macro-ops:
	// its counts are corrected to µops with Postulate65 (oracle.CorrectUops).
	MacroOps bool `flag:"macro-ops" help:"the µop counter counts AMD macro-ops: correct its counts with the thesis's Postulate 6.5 (portlab:zenplus-like needs it)"`
	// Improper are improper blocking instructions (two µops, one of them
	// on a port set no proper blocking instruction has; thesis §6.3.4),
	// used where they are among the problem's instructions.
	Improper []string `flag:"improper" sep:";" none:"none" help:"improper blocking instructions, separated by ';' ('none' for none; by default the thesis's two stores, where present)"`
	// Repeats, when above 1, measures every experiment that many times
	// and takes the median (oracle.Repeat, which asks for all repeats of a
	// batch as one batch; the thesis took 11 on Zen+). The oracle must
	// measure afresh (not a Replay or a campaign's file: see
	// oracle.Rememberer).
	Repeats int `flag:"repeats" help:"measure every experiment this often and take the median (the thesis: 11)" min:"0"`
	// Runs is how often stage 5 is run, at least once (New: 3); an
	// instruction's decomposition counts when a majority of the runs agree
	// on it (thesis §6.3.5: two of three).
	Runs int `flag:"runs" help:"runs of stage 5; a majority must agree" min:"1"`
	// RetryRepeats, when above Repeats, re-runs stage 5 for the
	// instructions whose runs disagree (Unstable), and only for them, with
	// every experiment measured that many times (median): more repeats
	// only where the noise showed. 0: no second try.
	RetryRepeats int `flag:"retry-repeats" help:"re-run stage 5 for the unstable instructions only, measuring every experiment this often (median; 0: no retry)" min:"0"`
	// StrictCounts leaves out of the mapping the instructions whose µops
	// found predict their throughput alone but disagree with the µop
	// counter; by default they are mapped and flagged (CountDiffers).
	StrictCounts bool `flag:"strict-counts" help:"leave out instructions whose µops found disagree with the µop counter"`
	// SMT configures stage 4's counterexample-guided search (package
	// infer/cegis); Epsilon, UopCounts, PortCounts and
	// InstructionsPerCycle are set by the method. Its Timeout is the
	// setting -smt-timeout.
	SMT cegis.Config `flag:"smt-*" only:"timeout"`
}

// New returns the method with its defaults: ε = 0.02, the thesis's
// improper blockers, three runs of stage 5, portlab's SMT settings.
func New() *Method {
	return &Method{Improper: ThesisImproper, Runs: 3, SMT: cegis.DefaultConfig()}
}

// Name returns "explainable".
func (*Method) Name() string { return "explainable" }

// Uses returns what the method needs: an oracle (or data) with the total
// µop counter, and the number of ports.
func (*Method) Uses() infer.Needs { return infer.Needs{Queries: true, Ports: true, UopCounter: true} }

// Configuration returns the method's settings, for infer.Validate.
func (m *Method) Configuration() any { return m }

// SetFlags defines the method's settings as command-line flags
// (infer.BindFlags).
func (m *Method) SetFlags(fs *flag.FlagSet) { infer.BindFlags(fs, m) }

// ErrNoCounter is wrapped by the error of a run whose oracle counts no
// µops (ErrNoUopCounter from stages 0–2).
var ErrNoCounter = ErrNoUopCounter

// Infer runs the five stages on p (thesis Ch. 6; see the package
// documentation): stages 0–2 find the blocking instructions and their
// classes (findBlocking), stage 3 the front end's peak (peak), stage 4
// maps the blocking instructions by SMT (mapBlockers) and stage 5
// decomposes every other instruction with blocking experiments
// (decomposeRest, settle). It needs p.Ports; p.InstructionsPerCycle, when
// positive, is taken as the front end's peak instead of measuring it.
func (m *Method) Infer(ctx context.Context, p *infer.Problem, s *infer.Settings) (*infer.Result, error) {
	x, err := m.newRun(p, s)
	if err != nil {
		return nil, err
	}
	if err := x.findBlocking(ctx); err != nil {
		return nil, err
	}
	for _, stage := range []func(context.Context) error{x.peak, x.mapBlockers, x.decomposeRest} {
		if err := stage(ctx); err != nil {
			return x.res, err
		}
	}
	x.finish()
	return x.res, nil
}

// run is the state of one Infer call, passed from stage to stage.
type run struct {
	m    *Method
	p    *infer.Problem
	s    *infer.Settings
	o    oracle.Oracle // p.Oracle, with the medians and corrections asked for
	eps  float64
	runs int
	arch *portmap.Architecture
	r    *Report
	res  *infer.Result

	b       *Blocking                // stages 0–2
	ipc     float64                  // stage 3: the peak used
	bs      []blocker                // stage 4: the blocking instructions of stage 5
	mapping *portmap.Mapping         // the blockers' mapping, then every instruction's
	repUops map[string][]portmap.Uop // a class member's representative's µops
}

// newRun checks p and the settings and returns the run's state.
func (m *Method) newRun(p *infer.Problem, s *infer.Settings) (*run, error) {
	eps := m.Epsilon
	if eps == 0 {
		eps = DefaultEpsilon
	}
	runs := max(m.Runs, 1)
	arch, err := portmap.NewArchitecture("explainable", p.PortNames, p.Instructions)
	if err != nil {
		return nil, fmt.Errorf("explainable: %w", err)
	}
	o, err := m.measuring(p.Oracle, m.Repeats)
	if err == nil && m.RetryRepeats > max(m.Repeats, 1) {
		_, err = m.measuring(p.Oracle, m.RetryRepeats) // refused now, not after stage 4
	}
	if err != nil {
		return nil, err
	}
	r := &Report{Epsilon: eps, MacroOps: m.MacroOps, Runs: runs, arch: arch, insns: map[string]*Insn{}}
	return &run{m: m, p: p, s: s, o: o, eps: eps, runs: runs, arch: arch, r: r, res: &infer.Result{Report: r}}, nil
}

// findBlocking is stages 0–2 (thesis §6.2.1–6.2.2): every instruction
// alone, the blocking candidates and their classes by pair experiments.
func (x *run) findBlocking(ctx context.Context) error {
	b, err := FindBlocking(ctx, x.o, x.p.Instructions, x.eps, func(done, total int) {
		x.s.Notify("stages 0-2", done, total, fmt.Sprintf("stages 0–2 (alone, pairs): %d/%d", done, total))
	})
	if err != nil {
		if errors.Is(err, ErrNoUopCounter) {
			err = fmt.Errorf("%w; %s", err, pmu.Detect().Advice())
		}
		return err
	}
	x.r.Blocking = b
	x.b = b
	for _, insn := range x.p.Instructions {
		x.r.insns[insn] = &Insn{Insn: insn}
		x.r.order = append(x.r.order, insn)
	}
	for _, e := range b.Excluded {
		// Instructions that are no blocking candidates go to stage 5,
		// unless they could not be measured at all.
		if in := x.r.insns[e.Insn]; strings.HasPrefix(e.Reason, "measuring it alone") {
			in.Outcome, in.Why = Failed, e.Reason
		}
	}
	return nil
}

// peak is stage 3 (thesis §6.2.3): the front end's peak, measured unless
// the problem gives it.
func (x *run) peak(ctx context.Context) error {
	ipc := x.p.InstructionsPerCycle
	x.r.Peak = PeakIPC{Given: ipc}
	if ipc <= 0 {
		pk, err := measurePeak(ctx, x.o, x.b, func(done int) {
			x.s.Notify("stage 3", done, 0, fmt.Sprintf("stage 3 (peak IPC): %d mixes", done))
		})
		x.r.Peak = pk
		if err != nil {
			return err
		}
		ipc = pk.Measured
	}
	x.r.Peak.Used = ipc
	for _, c := range x.b.Classes {
		if float64(c.Ports) >= ipc-x.eps {
			x.r.Peak.Warning = fmt.Sprintf("a blocking class has %d ports and the front end admits %.3g instructions per cycle: stage 2 cannot tell port sets of that size apart, stage 5 sees no evasion from them (thesis §6.2.3)", c.Ports, ipc)
		}
	}
	x.ipc = ipc
	return nil
}

// mapBlockers is stage 4 (thesis §6.2.4, §6.3.4): the ports of the
// classes' representatives and of the improper blocking instructions by
// SMT, then the blocking instructions of stage 5 and the outcomes of the
// instructions mapped so far.
func (x *run) mapBlockers(ctx context.Context) error {
	reps, portCount, uopCount, err := x.improper(ctx)
	if err != nil {
		return err
	}
	blockerMap, err := x.m.smtBlockers(ctx, x.o, x.p.Ports, reps, portCount, uopCount, x.eps, x.ipc, x.r, x.s.Notify)
	if err != nil {
		return err
	}
	x.r.BlockerMapping = blockerMap
	x.bs = x.blockers(blockerMap)
	// Record the blockers and their classes.
	classOf := map[string]*Class{}
	for k := range x.b.Classes {
		for _, insn := range x.b.Classes[k].Insns {
			classOf[insn] = &x.b.Classes[k]
		}
	}
	x.mapping = portmap.NewMappingFor(x.arch)
	for _, insn := range blockerMap.Instructions() {
		u, _ := blockerMap.Uops(insn)
		if err := x.mapping.Set(insn, u...); err != nil {
			return fmt.Errorf("explainable: %w", err)
		}
		in := x.r.insns[insn]
		in.Uops = u
		if c := classOf[insn]; c != nil {
			in.Outcome = Blocker
		} else {
			in.Outcome = ImproperBlocker
		}
	}
	x.repUops = map[string][]portmap.Uop{}
	for _, c := range x.b.Classes {
		rep := c.Insns[0]
		u, ok := blockerMap.Uops(rep)
		if !ok {
			for _, insn := range c.Insns {
				in := x.r.insns[insn]
				in.Outcome, in.Why = NotCandidate, fmt.Sprintf("its class (representative %s) was left out of stage 4", rep)
			}
			continue
		}
		// The other members go through stage 5 as well, which confirms
		// (or refutes) that they share the representative's port set.
		for _, insn := range c.Insns[1:] {
			x.r.insns[insn].Rep = rep
			x.repUops[insn] = u
		}
	}
	return nil
}

// improper returns stage 4's instructions: the classes' representatives
// with their numbers of ports, and the improper blocking instructions
// among the problem's that retire two µops (thesis §6.3.4), with their
// µop counts.
func (x *run) improper(ctx context.Context) (reps []string, portCount, uopCount map[string]int, err error) {
	portCount, uopCount = map[string]int{}, map[string]int{}
	for _, c := range x.b.Classes {
		reps = append(reps, c.Insns[0])
		portCount[c.Insns[0]] = c.Ports
	}
	present := map[string]bool{}
	for _, insn := range x.p.Instructions {
		present[insn] = true
	}
	for _, insn := range x.m.Improper {
		if !present[insn] {
			x.r.Notes = append(x.r.Notes, fmt.Sprintf("improper blocking instruction %q is not among the instructions: not used", insn))
			continue
		}
		a, err := x.o.Measure(ctx, portmap.NewExperiment(insn))
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, nil, ctx.Err()
			}
			x.r.Notes = append(x.r.Notes, fmt.Sprintf("improper blocking instruction %q: %v: not used", insn, err))
			continue
		}
		if n := math.Round(a.Uops); n != 2 || math.Abs(a.Uops-n) > 0.25 {
			x.r.Notes = append(x.r.Notes, fmt.Sprintf("improper blocking instruction %q retires %.4g µops, not 2: not used", insn, a.Uops))
			continue
		}
		reps = append(reps, insn)
		uopCount[insn] = 2
	}
	return reps, portCount, uopCount, nil
}

// blockers returns the blocking instructions of stage 5 from stage 4's
// mapping: every single-µop instruction for its port set, and an improper
// blocker for the port set of its µop that no proper blocker has.
func (x *run) blockers(blockerMap *portmap.Mapping) []blocker {
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
		for _, a := range u {
			if !proper[a.Ports] {
				own = append(own, a.Ports)
			}
		}
		if len(own) == 1 {
			bs = append(bs, blocker{insn: insn, ports: own[0], uops: u})
			proper[own[0]] = true
		} else {
			x.r.Notes = append(x.r.Notes, fmt.Sprintf("improper blocking instruction %q (%s) is not needed in stage 5: its µops' port sets %s", insn, portmap.FormatUsage(u, x.arch),
				map[bool]string{true: "have blocking instructions already", false: "are both new (it cannot tell which it blocks)"}[len(own) == 0]))
		}
	}
	return bs
}

// decomposeRest is stage 5 (thesis §6.2.5, §6.3.5): every other
// instruction with blocking experiments, Runs times, the unstable ones
// again with more repeats when RetryRepeats asks, each settled by the
// majority of its runs.
func (x *run) decomposeRest(ctx context.Context) error {
	var rest []string
	for _, insn := range x.p.Instructions {
		if x.r.insns[insn].Outcome == 0 {
			rest = append(rest, insn)
		}
	}
	x.r.Blockers = nil
	for _, b := range x.bs {
		x.r.Blockers = append(x.r.Blockers, BlockerInfo{Insn: b.insn, Ports: b.ports})
	}
	perRun := make([][]Decomposition, 0, x.runs)
	for run := 0; run < x.runs; run++ {
		x.s.Notify("stage 5", run, x.runs, fmt.Sprintf("stage 5 (blocking experiments), run %d of %d: %d instructions × %d blocking instructions", run+1, x.runs, len(rest), len(x.bs)))
		decs, _, err := decompose(ctx, x.o, rest, x.bs, x.arch, x.eps, x.ipc, true)
		if err != nil {
			return err
		}
		perRun = append(perRun, decs)
	}
	if err := x.retry(ctx, rest, perRun); err != nil {
		return err
	}
	for i, insn := range rest {
		in := x.r.insns[insn]
		for _, decs := range perRun {
			in.Runs = append(in.Runs, decs[i])
		}
		x.m.settle(in, x.runs, x.arch)
		x.confirmClass(in)
		if in.Outcome.Mapped() {
			if err := x.mapping.Set(insn, in.Uops...); err != nil {
				return fmt.Errorf("explainable: %w", err)
			}
		}
	}
	return nil
}

// retry runs stage 5 again for the instructions of rest whose runs
// disagree, with RetryRepeats repeats per experiment, and puts the new
// runs in perRun.
func (x *run) retry(ctx context.Context, rest []string, perRun [][]Decomposition) error {
	if x.m.RetryRepeats <= max(x.m.Repeats, 1) {
		return nil
	}
	var again []string
	at := map[string]int{}
	for i, insn := range rest {
		probe := &Insn{Insn: insn}
		for _, decs := range perRun {
			probe.Runs = append(probe.Runs, decs[i])
		}
		x.m.settle(probe, x.runs, x.arch)
		if probe.Outcome == Unstable {
			at[insn] = len(again)
			again = append(again, insn)
		}
	}
	if len(again) == 0 {
		return nil
	}
	ro, err := x.m.measuring(x.p.Oracle, x.m.RetryRepeats)
	if err != nil {
		return err
	}
	second := make([][]Decomposition, 0, x.runs)
	for run := 0; run < x.runs; run++ {
		x.s.Notify("stage 5", run, x.runs, fmt.Sprintf("stage 5 again for %d unstable instructions, %d repeats, run %d of %d", len(again), x.m.RetryRepeats, run+1, x.runs))
		decs, _, err := decompose(ctx, ro, again, x.bs, x.arch, x.eps, x.ipc, true)
		if err != nil {
			return err
		}
		second = append(second, decs)
	}
	for i, insn := range rest {
		if j, ok := at[insn]; ok {
			for run := range perRun {
				perRun[run][i] = second[run][j]
			}
		}
	}
	x.r.Notes = append(x.r.Notes, fmt.Sprintf("stage 5 run again for %d unstable instructions with %d repeats per experiment", len(again), x.m.RetryRepeats))
	return nil
}

// confirmClass checks the stage-5 outcome of a blocking class's member
// against its representative's µops (stage 2 put it in the class).
func (x *run) confirmClass(in *Insn) {
	u, ok := x.repUops[in.Insn]
	if !ok {
		return
	}
	arch := x.arch
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

// finish completes the result: the mapping, its predictor with the peak
// used, and the report's order.
func (x *run) finish() {
	x.res.Mapping = x.mapping
	pred := oracle.FromMapping(x.mapping)
	pred.FrontEnd.InstructionsPerCycle = x.ipc
	x.res.Predictor = pred
	x.r.finish()
	x.s.Notify("done", x.runs, x.runs, x.r.summary())
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
	in.Cycles, in.Counted, in.Evidence = d.Cycles, d.Uops, d.Witnesses
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

// smtBlockers maps the blocking instructions to ports with counterexample-guided
// SMT search. When no mapping explains the measurements, it leaves out the
// instruction that occurs in most of the conflicting measurements (thesis
// §6.3.4: imul, vpmuldq and vmovd were out of the model on Zen+) and tries
// again, at most three times.
func (m *Method) smtBlockers(ctx context.Context, o oracle.Oracle, ports int, insns []string, portCount, uopCount map[string]int, eps, ipc float64, r *Report, progress func(string, int, int, string)) (*portmap.Mapping, error) {
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
