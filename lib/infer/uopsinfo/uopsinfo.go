package uopsinfo

import (
	"context"
	"flag"
	"fmt"
	"math"
	"sort"

	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/pmu"
	"github.com/portlab/portlab/lib/portmap"
)

func init() { infer.Register("uopsinfo", func() infer.Method { return New() }) }

// DefaultTolerance is how far, in µops, a count may be from a whole number
// before the method calls the counters inconsistent.
const DefaultTolerance = 0.25

// usedThreshold is the count, in µops per execution, above which a port
// counts as used by an instruction measured alone.
const usedThreshold = 0.05

// Method is uops.info's blocking-instruction algorithm behind the inference
// contract of package infer. The result's Report is a *Report. The fields
// tagged with a flag are the command line's settings (infer.BindFlags).
type Method struct {
	// Copies returns the number of copies k of the blocking instruction
	// for a port set of blockedPorts ports, when measuring an instruction
	// that alone takes cycles cycles and uops µops; nil means SameCopies
	// when it is set, NanoBenchCopies otherwise.
	Copies func(blockedPorts int, cycles float64, uops int) int `json:"-"`
	// SameCopies, when positive and Copies is nil, is the number of copies
	// for every port set (FixedCopies).
	SameCopies int `flag:"copies" help:"copies of the blocking instruction, the same for every port set (0: uops.info's rule, see NanoBenchCopies)" min:"0"`
	// Exhaustive makes the method measure every instruction with every
	// blocking instruction, as Algorithm 6.1 is printed. By default it
	// skips port sets disjoint from the ports the instruction uses alone
	// and stops once it has found all of the instruction's µops, as the
	// uops.info implementation does.
	Exhaustive bool `flag:"exhaustive" help:"measure with every blocking instruction (Algorithm 6.1 as printed), without uops.info's shortcuts"`
	// Tolerance is how far, in µops, a count may be from a whole number;
	// 0 means DefaultTolerance.
	Tolerance float64 `flag:"tolerance" help:"how far in µops a count may be from a whole number (0: 0.25)" min:"0" max:"0.5"`
	// StoreBlocker names the store blocker: an instruction of two µops on
	// two disjoint port sets that no single-µop instruction blocks (on
	// Intel cores a store: store-address and store-data µop), used as the
	// blocking instruction for both sets as uops.info does. "" lets the
	// method choose one from the counts (see ChooseStoreBlocker); "none"
	// turns the store blocker off.
	StoreBlocker string `flag:"store-blocker" help:"the store blocker: a two-µop instruction blocking the store-address and store-data ports (default: chosen from the counts; none: off)"`
	// StoreSplit names the ports of one of the store blocker's two µops;
	// the other runs on the rest of the ports it uses. Nil means: from its
	// counts, when they allow only one split (they do not when both µops
	// spread evenly over two ports each, as on Ice Lake).
	StoreSplit []string `flag:"store-split" help:"comma-separated ports of one of the store blocker's two µops, e.g. 4,9 on Ice Lake (default: from its counts when they allow one split)" min:"1"`
}

// New returns the method with its defaults: nanoBench's number of copies,
// early exit, DefaultTolerance.
func New() *Method { return &Method{} }

// Name returns "uopsinfo".
func (*Method) Name() string { return "uopsinfo" }

// Uses returns what the method needs: an oracle (or data) with per-port
// µop counters. It finds the number of ports from the counters.
func (*Method) Uses() infer.Needs { return infer.Needs{Queries: true, PortCounters: true} }

// Configuration returns the method's settings, for infer.Validate.
func (m *Method) Configuration() any { return m }

// SetFlags defines the method's settings as command-line flags
// (infer.BindFlags).
func (m *Method) SetFlags(fs *flag.FlagSet) { infer.BindFlags(fs, m) }

// NanoBenchCopies is the number of copies of a blocking instruction that
// the uops.info implementation (nanoBench's cpuBench) uses to flood
// blockedPorts ports while measuring an instruction that alone takes
// cycles cycles and uops µops: min(max(2·|Q|·max(1, ⌊cycles⌋), |Q|·uops,
// 10), 100). It satisfies the flooding condition k ≥ |Q|·uops (thesis
// Constraint 6.1) for instructions of up to 100/|Q| µops.
func NanoBenchCopies(blockedPorts int, cycles float64, uops int) int {
	k1 := 2 * blockedPorts * max(1, int(math.Floor(cycles)))
	k2 := blockedPorts * uops
	return min(max(k1, k2, 10), 100)
}

// FixedCopies returns a rule for Method.Copies that always uses k copies.
// The uops.info paper's rule, k = maximal latency · number of ports, is
// FixedCopies(latency·ports) when every instruction has that latency; it
// breaks the flooding condition for instructions with many µops (thesis
// App. E.1).
func FixedCopies(k int) func(blockedPorts int, cycles float64, uops int) int {
	return func(int, float64, int) int { return k }
}

// ErrNoPortCounters is wrapped by the error of a run whose oracle gives no
// per-port µop counts (it is oracle.ErrNoPortCounters).
var ErrNoPortCounters = oracle.ErrNoPortCounters

// Infer runs the algorithm on p (thesis Algorithm 6.1; see the package
// documentation) in three stages: measure every instruction alone
// (measureAlone), take the single-µop instructions and the store blocker
// as blocking instructions for the ports they use (chooseBlockers), and
// measure every other instruction with the blocking instructions
// (blockAll). When ctx is cancelled it returns the instructions mapped so
// far with ctx's error.
func (m *Method) Infer(ctx context.Context, p *infer.Problem, s *infer.Settings) (*infer.Result, error) {
	r, err := m.newRun(p)
	if err != nil {
		return nil, err
	}
	set, failures, err := r.measureAlone(ctx, p, s)
	if err != nil {
		return nil, err
	}
	rep, res, err := r.newReport(p, failures)
	if err != nil {
		return nil, err
	}
	if err := r.chooseBlockers(rep, set); err != nil {
		return nil, err
	}
	err = r.blockAll(ctx, rep, s)
	rep.finish(res.Mapping)
	if err != nil {
		return res, err
	}
	return res, nil
}

// newRun checks the settings and returns the state of a run on p.
func (m *Method) newRun(p *infer.Problem) (*run, error) {
	tol := m.Tolerance
	if tol == 0 {
		tol = DefaultTolerance
	}
	if !(tol > 0 && tol < 0.5) {
		return nil, fmt.Errorf("uopsinfo: tolerance %v µops, want more than 0 and less than 0.5", m.Tolerance)
	}
	copies := m.Copies
	switch {
	case copies == nil && m.SameCopies > 0:
		copies = FixedCopies(m.SameCopies)
	case copies == nil:
		copies = NanoBenchCopies
	}
	return &run{m: m, o: p.Oracle, tol: tol, copies: copies, total: map[string]int{}}, nil
}

// measureAlone measures every instruction alone: its cycles, its µops and
// the ports it uses (thesis Algorithm 6.1, first loop).
func (r *run) measureAlone(ctx context.Context, p *infer.Problem, s *infer.Settings) (*portmap.ExperimentSet, []portmap.Failure, error) {
	singletons := make([]portmap.Experiment, len(p.Instructions))
	for i, insn := range p.Instructions {
		singletons[i] = portmap.NewExperiment(insn)
	}
	set, failures, err := oracle.MeasureAll(ctx, p.Oracle, singletons, func(pr oracle.Progress) {
		s.Notify("alone", pr.Done, pr.Total, fmt.Sprintf("measuring the instructions alone: %d/%d, %d failed", pr.Done, pr.Total, pr.Failed))
	})
	if err != nil {
		return nil, nil, fmt.Errorf("uopsinfo: measuring the instructions alone: %w", err)
	}
	if set.Len() == 0 {
		return nil, nil, fmt.Errorf("uopsinfo: all %d instructions failed alone; first: %v", len(failures), failures[0])
	}
	first := set.Measurements[0]
	if first.PortUops == nil {
		return nil, nil, fmt.Errorf("uopsinfo: %w (PortUops of %v is nil); the method needs per-port counters: "+
			"simulate with oracle.SimulateWithPortCounters (infer.Infer turns a simulation's on for this method), "+
			"or replay data measured with them; the hardware oracle reads no counters; this host: %s",
			ErrNoPortCounters, first.Experiment, pmu.Detect())
	}
	r.nports = len(first.PortUops)
	if p.Ports != 0 && p.Ports != r.nports {
		return nil, nil, fmt.Errorf("uopsinfo: the problem has %d ports, the oracle counts µops on %d (for %v)", p.Ports, r.nports, first.Experiment)
	}
	return set, failures, nil
}

// newReport returns the report and the result of the run, with the
// instructions that failed alone recorded.
func (r *run) newReport(p *infer.Problem, failures []portmap.Failure) (*Report, *infer.Result, error) {
	names := p.PortNames
	if names == nil {
		names = infer.PortNames(r.nports)
	}
	arch, err := portmap.NewArchitecture("uopsinfo", names, p.Instructions)
	if err != nil {
		return nil, nil, fmt.Errorf("uopsinfo: %w", err)
	}
	r.arch = arch
	rep := &Report{Ports: names, Insns: make([]Insn, len(p.Instructions))}
	for i, insn := range p.Instructions {
		rep.Insns[i] = Insn{Insn: insn}
	}
	for _, f := range failures {
		rep.Insns[f.Index].Outcome, rep.Insns[f.Index].Why = Failed, "measuring it alone: "+f.Reason
	}
	return rep, &infer.Result{Mapping: portmap.NewMappingFor(arch), Report: rep}, nil
}

// chooseBlockers records every instruction's measurement alone, takes the
// single-µop instructions as the blocking instructions of the port sets
// they use (the first of each set in the problem's order) and adds the
// store blocker, sorted by the size of their port sets.
func (r *run) chooseBlockers(rep *Report, set *portmap.ExperimentSet) error {
	at := map[string]int{}
	for i := range rep.Insns {
		at[rep.Insns[i].Insn] = i
	}
	blockers := map[portmap.PortSet]*Blocker{}
	for _, x := range set.Measurements {
		in := &rep.Insns[at[x.Experiment.List()[0]]]
		r.alone(in, x)
		if in.Outcome == Blocking {
			if b, ok := blockers[in.Used]; ok {
				b.Others = append(b.Others, in.Insn)
			} else {
				blockers[in.Used] = &Blocker{Ports: in.Used, Insn: in.Insn}
			}
		}
	}
	for _, b := range blockers {
		rep.Blockers = append(rep.Blockers, *b)
	}
	if err := r.storeBlocker(rep); err != nil {
		return err
	}
	sort.Slice(rep.Blockers, func(a, b int) bool {
		qa, qb := rep.Blockers[a].Ports, rep.Blockers[b].Ports
		return qa.Len() < qb.Len() || qa.Len() == qb.Len() && qa < qb
	})
	return nil
}

// blockAll measures every instruction left pending with the blocking
// instructions (thesis Algorithm 6.1, second loop). It returns an error
// only when ctx is done, leaving the instruction it was at pending.
func (r *run) blockAll(ctx context.Context, rep *Report, s *infer.Settings) error {
	var todo []int
	for i := range rep.Insns {
		if rep.Insns[i].Outcome == pending {
			todo = append(todo, i)
		}
	}
	for n, i := range todo {
		if err := ctx.Err(); err != nil {
			return err
		}
		in := &rep.Insns[i]
		s.Notify("blocking", n, len(todo), fmt.Sprintf("measuring with blocking instructions: %d/%d, %s", n, len(todo), in.Insn))
		if err := r.blocked(ctx, in, rep.Blockers); err != nil {
			in.Outcome, in.Why = pending, ""
			return err
		}
	}
	s.Notify("blocking", len(todo), len(todo), fmt.Sprintf("measured %d instructions with blocking instructions", len(todo)))
	return nil
}

// run is the state of one Infer call.
type run struct {
	m      *Method
	o      oracle.Oracle
	arch   *portmap.Architecture
	nports int
	tol    float64
	copies func(int, float64, int) int
	total  map[string]int // µops an instruction retires alone (whole number)
}

// whole returns x rounded to the nearest whole number, and whether x is
// within the tolerance of it.
func (r *run) whole(x float64) (int, bool) {
	n := math.Round(x)
	return int(n), math.Abs(x-n) <= r.tol
}

// alone records the measurement x of in alone: its µops, the ports it uses,
// and the outcome for instructions with at most one µop.
func (r *run) alone(in *Insn, x portmap.Measurement) {
	in.Cycles, in.Counted, in.PortUops = x.Cycles, x.Uops, x.PortUops
	if len(x.PortUops) != r.nports {
		in.Outcome, in.Why = Inconsistent, fmt.Sprintf("alone it has µop counts for %d ports, other instructions for %d", len(x.PortUops), r.nports)
		return
	}
	var sum float64
	for k, c := range x.PortUops {
		sum += c
		if c > usedThreshold {
			in.Used |= portmap.Ports(k)
		}
	}
	total := x.Uops
	if total == 0 {
		total = sum // no total counter: the per-port counts add up to it
	}
	n, ok := r.whole(total)
	if !ok {
		in.Outcome, in.Why = Inconsistent, fmt.Sprintf("alone it retires %.3g µops, not a whole number", total)
		return
	}
	if math.Abs(sum-float64(n)) > r.tol {
		in.Outcome, in.Why = Inconsistent, fmt.Sprintf("alone it retires %d µops but the ports count %.3g", n, sum)
		return
	}
	r.total[in.Insn] = n
	switch n {
	case 0:
		in.Outcome, in.Why = Resolved, "no µops"
	case 1:
		if in.Used == 0 {
			in.Outcome, in.Why = Inconsistent, fmt.Sprintf("alone it retires 1 µop but no port counts more than %v of it", usedThreshold)
			return
		}
		in.Outcome, in.Uops = Blocking, []portmap.Uop{{Ports: in.Used, Count: 1}}
	default:
		in.Outcome = pending
	}
}

// blocked measures in with the blocking instructions bs (sorted by size)
// and records the outcome. It returns an error only when ctx is done.
func (r *run) blocked(ctx context.Context, in *Insn, bs []Blocker) error {
	found := 0
	for _, b := range bs {
		if !r.m.Exhaustive && (found == r.total[in.Insn] || b.Ports&in.Used == 0) {
			continue
		}
		k := r.copies(b.Ports.Len(), in.Cycles, r.total[in.Insn])
		e := portmap.NewExperiment(in.Insn).With(b.Insn, k)
		x, err := r.o.Measure(ctx, e)
		if err != nil && oracle.IsTransient(err) && ctx.Err() == nil {
			x, err = r.o.Measure(ctx, e)
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			in.Outcome, in.Why = Failed, fmt.Sprintf("measuring %v: %v", e, err)
			return nil
		}
		st := Step{Blocker: b.Insn, Ports: b.Ports, Copies: k}
		if len(x.PortUops) != r.nports {
			in.Evidence = append(in.Evidence, st)
			in.Outcome, in.Why = Inconsistent, fmt.Sprintf("%v has µop counts for %d ports, want %d", e, len(x.PortUops), r.nports)
			return nil
		}
		for _, q := range b.Ports.Indices() {
			st.OnPorts += x.PortUops[q]
		}
		for _, u := range in.Uops {
			if u.Ports != b.Ports && u.Ports.SubsetOf(b.Ports) {
				st.Subsets += u.Count
			}
		}
		st.Surplus = st.OnPorts - float64(k) - float64(st.Subsets)
		in.Evidence = append(in.Evidence, st)
		if st.OnPorts < float64(k)-r.tol {
			in.Outcome, in.Why = Inconsistent, fmt.Sprintf("with %d × %s its ports %s count %.4g µops, fewer than the blocking µops", k, b.Insn, r.ports(b.Ports), st.OnPorts)
			return nil
		}
		n, ok := r.whole(st.Surplus)
		if !ok || n < 0 {
			in.Outcome, in.Why = Inconsistent, fmt.Sprintf("with %d × %s, ports %s count %.4g µops: %.4g are left for it after %d blocking µops and %d µops found on smaller port sets, not a whole number ≥ 0",
				k, b.Insn, r.ports(b.Ports), st.OnPorts, st.Surplus, k, st.Subsets)
			return nil
		}
		st.Uops = n
		in.Evidence[len(in.Evidence)-1] = st
		if n > 0 {
			in.Uops = append(in.Uops, portmap.Uop{Ports: b.Ports, Count: n})
			found += n
		}
	}
	var union portmap.PortSet
	for _, u := range in.Uops {
		union |= u.Ports
	}
	var blocked portmap.PortSet
	for _, b := range bs {
		blocked |= b.Ports
	}
	switch {
	case found > r.total[in.Insn]:
		in.Outcome, in.Why = Inconsistent, fmt.Sprintf("found %d µops (%s), but it retires %d", found, r.usage(in.Uops), r.total[in.Insn])
	case found < r.total[in.Insn]:
		in.Outcome, in.Why = Incomplete, fmt.Sprintf("found %d of its %d µops: the others run on port sets no blocking instruction blocks (ports used alone %s, by the µops found %s, by no blocking instruction %s)",
			found, r.total[in.Insn], r.ports(in.Used), r.ports(union), r.ports(in.Used&^blocked))
	case union != in.Used:
		in.Outcome, in.Why = Inconsistent, fmt.Sprintf("its µops found (%s) use ports %s, but alone it uses %s", r.usage(in.Uops), r.ports(union), r.ports(in.Used))
	default:
		in.Outcome = Resolved
	}
	return nil
}

// usage formats µops in uops.info notation.
func (r *run) usage(uops []portmap.Uop) string { return portmap.FormatUsage(uops, r.arch) }

// ports formats a port set by the ports' names.
func (r *run) ports(s portmap.PortSet) string { return fmt.Sprint(r.arch.PortNames(s)) }
