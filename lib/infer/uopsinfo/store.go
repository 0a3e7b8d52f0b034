package uopsinfo

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/portlab/portlab/lib/portmap"
)

// StoreBlocker is the store blocker of a run: uops.info's blocking
// instruction for the store-address and store-data ports, which no
// single-µop instruction blocks. It decomposes into two µops, one on each
// of Ports; k copies of it put k µops on each, so it serves as the
// blocking instruction for both sets at once.
type StoreBlocker struct {
	// Insn is the instruction; "" when the run used no store blocker, and
	// Note says why.
	Insn string `json:",omitempty"`
	// Ports are the port sets of its two µops.
	Ports [2]portmap.PortSet
	// Split says how the two port sets were found: "given" (Method's
	// StoreSplit) or "from its counts" (the only split of the ports it
	// uses into two sets of one µop each).
	Split string `json:",omitempty"`
	// Candidates is the number of instructions that qualified.
	Candidates int
	// Note says why there is no store blocker, or what was assumed.
	Note string
}

// splits returns the ways to split the ports in uses alone into two
// port sets of one µop each (counts within tol of 1) that are not port
// sets of single-µop blocking instructions, each once, as {A, B} with A
// holding in's lowest used port; with want ≠ 0 only the splits with want
// as one of the two sets.
func (r *run) splits(in *Insn, blocked map[portmap.PortSet]bool, want portmap.PortSet) [][2]portmap.PortSet {
	idx := in.Used.Indices()
	if len(idx) < 2 || len(idx) > 16 {
		return nil
	}
	var out [][2]portmap.PortSet
	lowest := portmap.Ports(idx[0])
	for bits := 1; bits < 1<<len(idx)-1; bits++ {
		var a portmap.PortSet
		var sa float64
		for j, k := range idx {
			if bits&(1<<j) != 0 {
				a |= portmap.Ports(k)
				sa += in.PortUops[k]
			}
		}
		if a&lowest == 0 {
			continue
		}
		b := in.Used &^ a
		var sb float64
		for _, k := range b.Indices() {
			sb += in.PortUops[k]
		}
		if math.Abs(sa-1) > r.tol || math.Abs(sb-1) > r.tol || blocked[a] || blocked[b] {
			continue
		}
		if want != 0 && a != want && b != want {
			continue
		}
		out = append(out, [2]portmap.PortSet{a, b})
	}
	return out
}

// storeBlocker chooses the store blocker (Method.StoreBlocker, or the
// instruction of two µops alone that uses the most ports no single-µop
// instruction blocks and whose counts split its ports into two sets of one
// µop each in one way only; ties: the fewest cycles alone, then the
// problem's order), maps it, and adds it to rep.Blockers for both sets.
// It returns an error only for a store blocker or split given that does
// not fit.
func (r *run) storeBlocker(rep *Report) error {
	st := &StoreBlocker{}
	rep.Store = st
	if r.m.StoreBlocker == "none" {
		st.Note = "turned off"
		return nil
	}
	var covered portmap.PortSet
	blocked := map[portmap.PortSet]bool{}
	for _, b := range rep.Blockers {
		covered |= b.Ports
		blocked[b.Ports] = true
	}
	var want portmap.PortSet
	if len(r.m.StoreSplit) > 0 {
		s, err := r.arch.PortSet(r.m.StoreSplit...)
		if err != nil {
			return fmt.Errorf("uopsinfo: store split %v: %w", r.m.StoreSplit, err)
		}
		want = s
	}
	fits := func(in *Insn) bool {
		return in.Outcome == pending && r.total[in.Insn] == 2 && in.Used&^covered != 0
	}
	var chosen *Insn
	var split [2]portmap.PortSet
	if r.m.StoreBlocker != "" {
		i := -1
		for j := range rep.Insns {
			if rep.Insns[j].Insn == r.m.StoreBlocker {
				i = j
			}
		}
		if i < 0 {
			return fmt.Errorf("uopsinfo: store blocker %q is not one of the %d instructions", r.m.StoreBlocker, len(rep.Insns))
		}
		in := &rep.Insns[i]
		if !fits(in) {
			return fmt.Errorf("uopsinfo: store blocker %q does not fit: alone it has %d µops on ports %s (outcome %v), want 2 µops and a port that no single-µop instruction blocks (those cover %s)",
				in.Insn, r.total[in.Insn], r.ports(in.Used), in.Outcome, r.ports(covered))
		}
		ss := r.splits(in, blocked, want)
		switch {
		case len(ss) == 0:
			return fmt.Errorf("uopsinfo: store blocker %q: its counts %s on ports %s do not split into two port sets of one µop each%s",
				in.Insn, r.counts(in), r.ports(in.Used), r.wanted(want))
		case len(ss) > 1:
			return fmt.Errorf("uopsinfo: store blocker %q: its counts %s allow %d splits (%s); name the ports of one µop (StoreSplit, -store-split)",
				in.Insn, r.counts(in), len(ss), r.splitList(ss))
		}
		chosen, split, st.Candidates = in, ss[0], 1
	} else {
		var ambiguous []string
		for i := range rep.Insns {
			in := &rep.Insns[i]
			if !fits(in) {
				continue
			}
			ss := r.splits(in, blocked, want)
			if len(ss) == 0 {
				continue
			}
			st.Candidates++
			if len(ss) > 1 {
				if len(ambiguous) < 1 {
					ambiguous = append(ambiguous, fmt.Sprintf("%s: %s", in.Insn, r.splitList(ss)))
				}
				continue
			}
			better := chosen == nil
			if !better {
				a, b := (in.Used &^ covered).Len(), (chosen.Used &^ covered).Len()
				better = a > b || a == b && in.Cycles < chosen.Cycles-1e-9
			}
			if better {
				chosen, split = in, ss[0]
			}
		}
		if chosen == nil {
			if st.Candidates == 0 {
				st.Note = fmt.Sprintf("no instruction of two µops whose counts split into two port sets of one µop each on ports no single-µop instruction blocks (those cover %s)", r.ports(covered))
			} else {
				st.Note = fmt.Sprintf("%d candidates, but their counts allow several splits, e.g. %s: name the ports of one µop (StoreSplit, -store-split)", st.Candidates, ambiguous[0])
			}
			return nil
		}
	}
	st.Insn, st.Ports = chosen.Insn, split
	st.Split = "from its counts"
	if want != 0 {
		st.Split = "given"
	}
	st.Note = fmt.Sprintf("assumed to be one µop on %s and one on %s (its counts %s; split %s), as uops.info assumes of its store blocker",
		r.ports(split[0]), r.ports(split[1]), r.counts(chosen), st.Split)
	chosen.Outcome, chosen.Why = StoreBlocking, "the store blocker: "+st.Note
	chosen.Uops = []portmap.Uop{{Ports: split[0], Count: 1}, {Ports: split[1], Count: 1}}
	for _, q := range split {
		rep.Blockers = append(rep.Blockers, Blocker{Ports: q, Insn: chosen.Insn, Store: true})
	}
	sort.SliceStable(rep.Blockers, func(a, b int) bool {
		qa, qb := rep.Blockers[a].Ports, rep.Blockers[b].Ports
		return qa.Len() < qb.Len() || qa.Len() == qb.Len() && qa < qb
	})
	return nil
}

// counts formats in's per-port counts on the ports it uses.
func (r *run) counts(in *Insn) string {
	var parts []string
	for _, k := range in.Used.Indices() {
		parts = append(parts, fmt.Sprintf("%s:%.3g", r.arch.PortName(k), in.PortUops[k]))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// splitList formats splits as "[4 9]+[7 8], …".
func (r *run) splitList(ss [][2]portmap.PortSet) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = r.ports(s[0]) + "+" + r.ports(s[1])
	}
	return strings.Join(parts, ", ")
}

// wanted formats the split asked for, if any.
func (r *run) wanted(want portmap.PortSet) string {
	if want == 0 {
		return ""
	}
	return " with one on " + r.ports(want)
}
