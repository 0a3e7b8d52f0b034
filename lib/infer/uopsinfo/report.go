package uopsinfo

import (
	"fmt"
	"strings"

	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/infer/account"
	"github.com/portlab/portlab/lib/portmap"
)

// Outcome is what the method concluded about an instruction: one of the
// outcomes shared with the explainable method (package infer/account).
type Outcome = account.Outcome

// The method's outcomes (see account.Outcome): Blocking (one µop, on the
// ports it uses alone; it blocks them for the others), Resolved (the µops
// found with the blocking instructions add up to the µops it retires and
// use the ports it uses alone), Incomplete, Inconsistent, Failed and
// StoreBlocking (the store blocker, see StoreBlocker).
const (
	pending       = account.Pending // not yet measured with blocking instructions
	Blocking      = account.Blocking
	Resolved      = account.Resolved
	Incomplete    = account.Incomplete
	Inconsistent  = account.Inconsistent
	Failed        = account.Failed
	StoreBlocking = account.StoreBlocking
)

// Blocker is a blocking instruction: one µop that runs on Ports, or with
// Store the store blocker, which has one µop on Ports and one elsewhere.
type Blocker struct {
	Ports portmap.PortSet
	Insn  string
	Store bool `json:",omitempty"`
	// Others are the other single-µop instructions on the same ports, in
	// the problem's order; the method uses the first, Insn.
	Others []string `json:",omitempty"`
}

// Step is one measurement of an instruction with Copies copies of the
// blocking instruction for Ports, and what it showed (account.Evidence:
// OnPorts, the µops counted on Ports; Subsets, those of the instruction
// found before on proper subsets of Ports; Surplus = OnPorts − Copies −
// Subsets, the µops whose port set is exactly Ports; Uops its whole
// number).
type Step = account.Evidence

// Insn is the method's account of one instruction (account.Insn): its
// measurement alone (Cycles, Counted, PortUops and the ports it uses,
// Used), the µops found (Uops; its decomposition when Outcome.Mapped()),
// its measurements with blocking instructions in order (Evidence) and why
// the outcome is not Blocking or Resolved (Why).
type Insn = account.Insn

// Report is the method's account of a run: the blocking instructions found
// and every instruction's measurements and outcome.
type Report struct {
	// Ports names the ports, in the order of the counters.
	Ports    []string
	Blockers []Blocker
	// Store is the store blocker, or why there is none; nil when the
	// run stopped before choosing one.
	Store *StoreBlocker `json:",omitempty"`
	// Insns lists the instructions in the problem's order.
	Insns []Insn
}

// finish maps the instructions whose outcome allows it into m, and gives
// the ones left pending by an interrupted run a reason.
func (r *Report) finish(m *portmap.Mapping) {
	for i := range r.Insns {
		in := &r.Insns[i]
		if in.Outcome == pending {
			in.Why = "not measured with the blocking instructions: the run was interrupted"
		}
		if in.Outcome.Mapped() {
			if err := m.Set(in.Insn, in.Uops...); err != nil {
				in.Outcome, in.Why = Inconsistent, err.Error()
			}
		}
	}
}

// Count returns the number of instructions with outcome o.
func (r *Report) Count(o Outcome) int {
	n := 0
	for _, in := range r.Insns {
		if in.Outcome == o {
			n++
		}
	}
	return n
}

// Unmapped returns the instructions the method could not map (every
// outcome but Blocking, Resolved and StoreBlocking), with the reasons.
func (r *Report) Unmapped() []Insn {
	var out []Insn
	for _, in := range r.Insns {
		if !in.Outcome.Mapped() {
			out = append(out, in)
		}
	}
	return out
}

// Lookup returns the account of insn.
func (r *Report) Lookup(insn string) (Insn, bool) {
	for _, in := range r.Insns {
		if in.Insn == insn {
			return in, true
		}
	}
	return Insn{}, false
}

// names formats a port set by the report's port names.
func (r *Report) names(s portmap.PortSet) string {
	var out []string
	for _, k := range s.Indices() {
		if k < len(r.Ports) {
			out = append(out, r.Ports[k])
		}
	}
	return "[" + strings.Join(out, " ") + "]"
}

// String summarises the run: the blocking instructions, the outcomes, and
// the first unmapped instructions of each outcome with the reason.
func (r *Report) String() string {
	var b strings.Builder
	insns := map[string]bool{}
	for _, bl := range r.Blockers {
		insns[bl.Insn] = true
	}
	fmt.Fprintf(&b, "uops.info algorithm: %s for %d port sets\n", portmap.Count(len(insns), "blocking instruction"), len(r.Blockers))
	for _, bl := range r.Blockers {
		fmt.Fprintf(&b, "  %-12s %s", r.names(bl.Ports), bl.Insn)
		if len(bl.Others) > 0 {
			fmt.Fprintf(&b, " (and %d more)", len(bl.Others))
		}
		if bl.Store {
			b.WriteString(" (store blocker)")
		}
		b.WriteByte('\n')
	}
	if r.Store != nil {
		if r.Store.Insn != "" {
			fmt.Fprintf(&b, "store blocker %s: %s\n", r.Store.Insn, r.Store.Note)
		} else {
			fmt.Fprintf(&b, "no store blocker: %s\n", r.Store.Note)
		}
	}
	var parts []string
	for _, o := range []Outcome{Blocking, Resolved, Incomplete, Inconsistent, Failed, StoreBlocking} {
		if n := r.Count(o); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, o))
		}
	}
	fmt.Fprintf(&b, "%d instructions: %s\n", len(r.Insns), strings.Join(parts, ", "))
	for _, o := range []Outcome{Incomplete, Inconsistent, Failed} {
		shown := 0
		for _, in := range r.Insns {
			if in.Outcome != o {
				continue
			}
			if shown == 3 {
				fmt.Fprintf(&b, "  … %d more %s\n", r.Count(o)-shown, o)
				break
			}
			fmt.Fprintf(&b, "  %s %s: %s\n", o, in.Insn, in.Why)
			shown++
		}
	}
	return b.String()
}

// Explain returns the evidence for insn: its measurement alone, every
// measurement with a blocking instruction, and the outcome.
func (r *Report) Explain(insn string) string {
	in, ok := r.Lookup(insn)
	if !ok {
		return fmt.Sprintf("%q: not in the report\n", insn)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: alone %.4g cycles, %.4g µops on ports %s\n", in.Insn, in.Cycles, in.Counted, r.names(in.Used))
	if len(in.Evidence) > 0 {
		fmt.Fprintf(&b, "  %-12s %-24s %6s %9s %7s %8s %5s\n", "ports", "blocking", "copies", "on ports", "subsets", "surplus", "µops")
		for _, st := range in.Evidence {
			fmt.Fprintf(&b, "  %-12s %-24s %6d %9.4g %7d %8.4g %5d\n", r.names(st.Ports), st.Blocker, st.Copies, st.OnPorts, st.Subsets, st.Surplus, st.Uops)
		}
	}
	fmt.Fprintf(&b, "  %s", in.Outcome)
	if len(in.Uops) > 0 {
		fmt.Fprintf(&b, ": %s", r.usage(in.Uops))
	}
	if in.Why != "" {
		fmt.Fprintf(&b, " (%s)", in.Why)
	}
	b.WriteByte('\n')
	return b.String()
}

// usage formats µops as "1*[p0 p1]+2*[p5]".
func (r *Report) usage(uops []portmap.Uop) string {
	parts := make([]string, len(uops))
	for i, u := range uops {
		parts[i] = fmt.Sprintf("%d*%s", u.Count, r.names(u.Ports))
	}
	return strings.Join(parts, "+")
}

// HTML renders the summary for a notebook cell.
func (r *Report) HTML() string {
	var h infer.HTML
	return h.Pre(r.String()).String()
}

// WriteFiles writes no files of its own: the report's JSON
// (PREFIX.report.json) is written by infer.Result.WriteFiles.
func (r *Report) WriteFiles(prefix string) ([]string, error) { return nil, nil }
