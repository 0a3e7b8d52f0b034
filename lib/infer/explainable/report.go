package explainable

import (
	"fmt"
	"sort"
	"strings"

	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/infer/account"
	"github.com/portlab/portlab/lib/infer/cegis"
	"github.com/portlab/portlab/lib/portmap"
)

// Outcome is what the method concluded about an instruction: one of the
// outcomes shared with uops.info's algorithm (package infer/account).
type Outcome = account.Outcome

// The method's outcomes, from stages 1–2 (NotCandidate, Failed), 4
// (Blocker, ImproperBlocker, Equivalent) and 5 (the others); see
// account.Outcome.
const (
	// Blocker: a blocking class's representative, mapped by stage 4.
	Blocker = account.Blocking
	// ImproperBlocker: a two-µop blocking instruction mapped by stage 4.
	ImproperBlocker = account.ImproperBlocking
	// Equivalent: in a blocking class, mapped like its representative.
	Equivalent = account.Equivalent
	// Mapped: stage 5 found µops that add up to the µop count and predict
	// its throughput alone.
	Mapped = account.Mapped
	// CountDiffers: the µops found predict its throughput alone, but their
	// number is not the µop count (mapped unless StrictCounts).
	CountDiffers = account.CountDiffers
	// CountDiffersUnmapped: as CountDiffers, left out (StrictCounts).
	CountDiffersUnmapped = account.CountDiffersUnmapped
	// Incomplete: the µops found do not explain it (a µop on a port set no
	// blocking instruction has).
	Incomplete = account.Incomplete
	// Inconsistent: a blocking experiment gave a µop count that is not a
	// whole number (noise, or the machine leaves the model).
	Inconsistent = account.Inconsistent
	// Unstable: the runs of stage 5 disagree.
	Unstable = account.Unstable
	// NotCandidate: not a blocking candidate and not measured further
	// (stages 0–2), or its class was left out of stage 4.
	NotCandidate = account.Excluded
	// Failed: a measurement failed.
	Failed = account.Failed
)

// Insn is the method's account of one instruction (account.Insn): the µops
// mapped (Uops, nil if unmapped), the representative of its blocking class
// (Rep, for Equivalent), its measurement alone (Cycles, and Counted by the
// µop counter, corrected when the method corrects macro-ops), its stage-5
// decompositions, one per run (Runs), the deciding run's blocking
// experiments (Evidence), and why it is not mapped or what disagrees
// (Why).
type Insn = account.Insn

// BlockerInfo is a blocking instruction of stage 5 and the port set it
// blocks.
type BlockerInfo struct {
	Insn  string
	Ports portmap.PortSet
}

// Dropped is a blocking instruction left out of stage 4 because no mapping
// explained the measurements with it.
type Dropped struct {
	Insn, Why string
}

// Report is the explainable method's account of a run: every stage's
// evidence and every instruction's outcome.
type Report struct {
	Epsilon  float64
	MacroOps bool
	Runs     int
	// Blocking is stages 0–2: candidates, pair experiments, classes,
	// exclusions.
	Blocking *Blocking
	// Peak is stage 3.
	Peak PeakIPC
	// SMT is stage 4's search (its measurements and iterations),
	// BlockerMapping its result, SMTDropped the blocking instructions left
	// out because no mapping explained them.
	SMT            *cegis.Result `json:"-"`
	BlockerMapping *portmap.Mapping
	SMTDropped     []Dropped
	// Blockers are the blocking instructions of stage 5.
	Blockers []BlockerInfo
	// Insns are the instructions' outcomes, in the problem's order.
	Insns []*Insn
	// Notes are remarks on the run (improper blockers not used, …).
	Notes []string

	arch  *portmap.Architecture
	insns map[string]*Insn
	order []string
}

// finish lists the instructions in order.
func (r *Report) finish() {
	r.Insns = r.Insns[:0]
	for _, insn := range r.order {
		r.Insns = append(r.Insns, r.insns[insn])
	}
}

// Lookup returns the account of insn.
func (r *Report) Lookup(insn string) (*Insn, bool) {
	in, ok := r.insns[insn]
	return in, ok
}

// Count returns the number of instructions with outcome o.
func (r *Report) Count(o Outcome) int {
	n := 0
	for _, in := range r.insns {
		if in.Outcome == o {
			n++
		}
	}
	return n
}

// Outcomes returns the number of instructions per outcome.
func (r *Report) Outcomes() map[Outcome]int {
	out := map[Outcome]int{}
	for _, in := range r.insns {
		out[in.Outcome]++
	}
	return out
}

func (r *Report) ports(s portmap.PortSet) string { return fmt.Sprint(r.arch.PortNames(s)) }

func (r *Report) usage(u []portmap.Uop) string { return portmap.FormatUsage(u, r.arch) }

// summary is one line of counts per outcome.
func (r *Report) summary() string {
	counts := r.Outcomes()
	var keys []Outcome
	for o := range counts {
		keys = append(keys, o)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	var parts []string
	mapped := 0
	for _, o := range keys {
		parts = append(parts, fmt.Sprintf("%d %s", counts[o], o))
		if o.Mapped() {
			mapped += counts[o]
		}
	}
	return fmt.Sprintf("%d of %d instructions mapped (%s)", mapped, len(r.insns), strings.Join(parts, ", "))
}

// String summarises the run: the stages' results and the outcomes.
func (r *Report) String() string {
	r.finish()
	var b strings.Builder
	fmt.Fprintf(&b, "explainable (thesis Ch. 6), ε = %v CPI", r.Epsilon)
	if r.MacroOps {
		b.WriteString(", macro-op counts corrected by Postulate 6.5")
	}
	b.WriteString("\n")
	if r.Blocking != nil {
		fmt.Fprintf(&b, "stages 0–2: %s", r.Blocking)
	}
	if r.Peak.Given > 0 {
		fmt.Fprintf(&b, "stage 3: peak %.3g instructions per cycle, given\n", r.Peak.Given)
	} else if r.Peak.Tried > 0 {
		fmt.Fprintf(&b, "stage 3: peak %.3g instructions per cycle measured (%v: %.4g cycles; %d mixes)\n", r.Peak.Measured, r.Peak.Mix, r.Peak.MixCycles, r.Peak.Tried)
	}
	if r.Peak.Warning != "" {
		fmt.Fprintf(&b, "  warning: %s\n", r.Peak.Warning)
	}
	if r.BlockerMapping != nil {
		fmt.Fprintf(&b, "stage 4: %d blocking instructions mapped by SMT", r.BlockerMapping.Len())
		if r.SMT != nil {
			fmt.Fprintf(&b, " (%d experiments measured, %d iterations, complete %v, %v)", r.SMT.Measurements.Len(), len(r.SMT.Iterations), r.SMT.Complete, r.SMT.Elapsed.Round(1e6))
		}
		b.WriteString("\n")
		for _, insn := range r.BlockerMapping.Instructions() {
			fmt.Fprintf(&b, "  %s: %s\n", insn, r.BlockerMapping.Usage(insn))
		}
		for _, d := range r.SMTDropped {
			fmt.Fprintf(&b, "  left out %s: %s\n", d.Insn, d.Why)
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	fmt.Fprintf(&b, "stage 5 (%d runs): %s\n", r.Runs, r.summary())
	return b.String()
}

// Explain says why insn is mapped as it is, or why not: the experiments
// that decided it.
func (r *Report) Explain(insn string) string {
	in, ok := r.insns[insn]
	if !ok {
		return fmt.Sprintf("%s: not among the instructions", insn)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", insn, in.Outcome)
	if in.Uops != nil {
		fmt.Fprintf(&b, ", %s", r.usage(in.Uops))
	}
	b.WriteString("\n")
	cand := func(name string) (Candidate, bool) {
		if r.Blocking == nil {
			return Candidate{}, false
		}
		for _, c := range r.Blocking.Candidates {
			if c.Insn == name {
				return c, true
			}
		}
		return Candidate{}, false
	}
	switch in.Outcome {
	case Blocker, Equivalent:
		rep := insn
		if in.Outcome == Equivalent {
			rep = in.Rep
		}
		if c, ok := cand(insn); ok {
			fmt.Fprintf(&b, "  alone: 1 µop counted, %.4g cycles: %.3g per cycle, so its µop has %s (stage 1)\n", c.Cycles, 1/c.Cycles, portmap.Count(c.Ports, "port"))
		}
		for _, p := range r.Blocking.Pairs {
			if p.B == insn && p.A == rep || in.Outcome == Blocker && (p.A == insn || p.B == insn) {
				verdict := "different ports"
				if p.Same {
					verdict = "the same ports (Thm 6.3)"
				}
				fmt.Fprintf(&b, "  with %s: %.4g cycles, alone together %.4g: %s\n", other(p, insn), p.Cycles, p.Sum, verdict)
			}
		}
		if in.Outcome == Equivalent {
			fmt.Fprintf(&b, "  so it shares the ports of %s, which stage 4 mapped to %s\n", rep, r.usage(in.Uops))
			break
		}
		b.WriteString(r.smtEvidence(insn))
	case ImproperBlocker:
		fmt.Fprintf(&b, "  given as an improper blocking instruction (2 µops counted)\n")
		b.WriteString(r.smtEvidence(insn))
	default:
		if in.Cycles > 0 || in.Counted > 0 {
			fmt.Fprintf(&b, "  alone: %.4g cycles, %.4g µops counted\n", in.Cycles, in.Counted)
		}
		if len(in.Runs) > 0 {
			d := in.Runs[0]
			fmt.Fprintf(&b, "  blocking experiments (run 1 of %d): (t₂ − t₁)·|Q| − µops on subsets = µops on Q\n", len(in.Runs))
			for _, w := range d.Witnesses {
				fmt.Fprintf(&b, "    %d × %s on %s: t₁ = %.4g, with it t₂ = %.4g: (%.4g)·%d − %d = %.3g → %d\n",
					w.Copies, w.Blocker, r.ports(w.Ports), w.Blocked, w.WithInsn, w.WithInsn-w.Blocked, w.Ports.Len(), w.Subsets, w.Surplus, w.Uops)
			}
			if d.Predicted > 0 {
				fmt.Fprintf(&b, "  the µops found predict %.4g cycles alone (measured %.4g)\n", d.Predicted, d.Cycles)
			}
		}
		if in.Why != "" {
			fmt.Fprintf(&b, "  %s\n", in.Why)
		}
	}
	return b.String()
}

func other(p Pair, insn string) string {
	if p.A == insn {
		return p.B
	}
	return p.A
}

// smtEvidence lists the stage-4 experiments with insn.
func (r *Report) smtEvidence(insn string) string {
	if r.SMT == nil {
		return ""
	}
	var b strings.Builder
	var lines []string
	for _, x := range r.SMT.Measurements.Measurements {
		if x.Experiment.Count(insn) > 0 {
			lines = append(lines, fmt.Sprintf("%v = %.4g", x.Experiment, x.Cycles))
		}
	}
	fmt.Fprintf(&b, "  stage 4: no mapping of the blocking instructions that explains these %d experiments (of %d) within ε puts it elsewhere (up to renaming ports):\n", len(lines), r.SMT.Measurements.Len())
	for _, l := range lines {
		fmt.Fprintf(&b, "    %s\n", l)
	}
	return b.String()
}

// HTML renders the report as a table of outcomes, one row per
// instruction.
func (r *Report) HTML() string {
	var h infer.HTML
	h.Pre(r.String())
	h.Table("", []string{"instruction", "outcome", "µops", "why"}, func(t *infer.Table) {
		for _, in := range r.Insns {
			u := ""
			if in.Uops != nil {
				u = r.usage(in.Uops)
			}
			t.RawRow("<code>"+infer.Escape(in.Insn)+"</code>", in.Outcome.String(), infer.Escape(u), infer.Escape(in.Why))
		}
	})
	return h.String()
}

// WriteFiles writes no files of its own: the report's JSON
// (PREFIX.report.json) is written by infer.Result.WriteFiles.
func (r *Report) WriteFiles(prefix string) ([]string, error) { return nil, nil }
