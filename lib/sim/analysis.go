package sim

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/portlab/portlab/lib/block"
)

// Sensitivity is the effect of one Change on a block: Gus's speed-up
// s_{w,r} (Dutilleul, Pompougnac et al., "Performance debugging through
// microarchitectural sensitivity and causality analysis", 2024, §3.2), the cycles per
// iteration before the change over those after it. Above 1 the block got
// faster: the changed resource or latency limits it; 1 means it is
// insensitive to it.
type Sensitivity struct {
	Change        Change
	Base, Changed float64 // cycles per iteration
	Speedup       float64 // Base / Changed
}

// String returns "latency ×0.5 of …: 4 → 2 cycles/iteration, speed-up 2".
func (x Sensitivity) String() string {
	return fmt.Sprintf("%s: %.4g → %.4g cycles/iteration, speed-up %.3g", x.Change, x.Base, x.Changed, x.Speedup)
}

// Sensitivities simulates b once as it is and once per change (each
// alone, on top of the simulator's own Options.Changes) and returns the
// speed-ups. A simulation without a steady state is an error, as is a
// change that names no resource or form of the machine.
func (s *Simulator) Sensitivities(ctx context.Context, b *block.Block, changes []Change) ([]Sensitivity, error) {
	base, err := s.Simulate(b)
	if err != nil {
		return nil, err
	}
	if !base.Converged {
		return nil, fmt.Errorf("sim: sensitivity: %s", base.Detection)
	}
	var out []Sensitivity
	for _, c := range changes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		opt := s.opt
		opt.Changes = append(append([]Change(nil), s.opt.Changes...), c)
		t, err := New(s.m, opt)
		if err != nil {
			return nil, err
		}
		r, err := t.Simulate(b)
		if err != nil {
			return nil, err
		}
		if !r.Converged {
			return nil, fmt.Errorf("sim: sensitivity to %s: %s", c, r.Detection)
		}
		out = append(out, Sensitivity{Change: c, Base: base.Cycles, Changed: r.Cycles, Speedup: base.Cycles / r.Cycles})
	}
	return out, nil
}

// SweepChanges returns the changes of a sensitivity sweep over b: the
// throughput of every resource, of the load and store ports (when the
// machine names them) and of the front end doubled, and the latency of
// every form of b halved.
func (s *Simulator) SweepChanges(b *block.Block) []Change {
	var cs []Change
	for _, r := range s.resNames {
		cs = append(cs, Change{Resources: []string{r}, Throughput: 2})
	}
	if s.opt.Resources == nil {
		if len(s.m.LoadPorts) > 0 {
			cs = append(cs, Change{Resources: []string{"load"}, Throughput: 2})
		}
		if len(s.m.StorePorts) > 0 {
			cs = append(cs, Change{Resources: []string{"store"}, Throughput: 2})
		}
	}
	cs = append(cs, Change{Resources: []string{"frontend"}, Throughput: 2})
	seen := map[string]bool{}
	for _, in := range b.Insns {
		if k := in.Form.Key(); !seen[k] {
			seen[k] = true
			cs = append(cs, Change{Form: k, Latency: 0.5})
		}
	}
	return cs
}

// The causes of an event on the critical path.
const (
	byNone     = iota
	byFrontEnd // issue waited for the previous instruction's issue
	byROB      // issue waited for a reorder-buffer entry
	byResource // a resource was busy with an earlier instruction
	byValue    // an input came from an earlier instruction
	byRetire   // retirement waited for the previous instruction's
)

// event is one dynamic instruction's times with what constrained each.
type event struct {
	issue, start, complete, retire float64
	issueBy, startBy, valueBy      int32 // the dynamic instruction, -1: none
	issueKind, startKind           uint8
	valueIn                        float64 // the critical input's time (start when none)
	retireByPrev                   bool
}

// CriticalShare is one instruction's part in the critical path, Gus Table
// 1 style: the share of the steady state's time the critical path spends
// on it, by cause.
type CriticalShare struct {
	// Index is the instruction's position in the block, Text as written,
	// Resources its µops' port sets ("1*p01") or resource loads.
	Index     int
	Text      string
	Resources string
	// Share is the fraction of the time on the critical path spent on
	// this instruction: Latency (waiting for its result), Resource (its
	// µops holding a port another instruction waited for), FrontEnd (its
	// issue slot), ROB (waiting for a reorder-buffer entry beyond the
	// retirement that freed it: the path then goes on through the
	// instruction that held the entry, so ROB itself is mostly 0 and a
	// full reorder buffer shows as the shares of that path), Retire (its
	// retirement slot). Where two causes tie, the walk prefers
	// retirement, then latency, then ports, then the front end.
	Share                                    float64
	Latency, Resource, FrontEnd, ROB, Retire float64
}

// Critical simulates b as Simulate does, recording what constrained
// every instruction, then walks the critical path back from the last
// retirement over the steady state's last iterations (up to 64 periods)
// and returns each instruction's share of its time. The walk follows, at
// each instruction, its latest constraint (the input, resource, issue or
// retirement that came last), as Gus's taint propagation (Algorithm 1)
// does; for an instruction with several outputs it follows the latest
// one.
func (s *Simulator) Critical(b *block.Block) ([]CriticalShare, *Result, error) {
	p, err := s.compile(b)
	if err != nil {
		return nil, nil, err
	}
	r := s.run(p)
	if !r.Converged {
		return nil, r, fmt.Errorf("sim: critical path: %s", r.Detection)
	}
	n := len(p.ops)
	ev := make([]event, 0, r.Iterations*n)
	st := newState(p, s.rob, r.Iterations)
	tr := newTracer(p, s.rob)
	for range r.Iterations {
		ev = s.iterateTraced(p, st, &tr, ev)
	}
	window := min(r.Iterations/2, 64*max(r.Period, 1))
	end := ev[len(ev)-1].retire
	from := end - float64(window)*r.Cycles
	shares := make([]CriticalShare, n)
	for k, o := range p.ops {
		shares[k] = CriticalShare{Index: k, Text: o.text, Resources: s.resourceNames(b.Insns[k].Form.Key())}
	}
	// Walk back: stage 0 retire, 1 complete, 2 start, 3 issue.
	// span is the part of [next, t] inside the window.
	span := func(t, next float64) float64 { return math.Max(0, t-math.Max(next, from)) }
	d, stage, t := int32(len(ev)-1), 0, end
	// Every step goes to an earlier instruction or a later stage of the
	// same one; steps bounds the walk all the same.
	for steps := 4*len(ev) + 4; t > from && d >= 0 && steps > 0; steps-- {
		e := &ev[d]
		c := &shares[int(d)%n]
		switch stage {
		case 0:
			if e.retireByPrev && d > 0 {
				prev := math.Min(ev[d-1].retire, t)
				c.Retire += span(t, prev)
				d, t = d-1, prev
			} else {
				in := math.Min(e.complete, t)
				c.Retire += span(t, in)
				stage, t = 1, in
			}
		case 1:
			in := math.Min(e.valueIn, t)
			c.Latency += span(t, in)
			t = in
			if e.valueBy >= 0 && e.valueIn > e.start {
				d, stage = e.valueBy, 1
			} else {
				stage = 2
			}
		case 2:
			switch {
			case e.startKind == byResource && e.startBy >= 0 && e.start > e.issue:
				u := e.startBy
				tu := math.Min(ev[u].start, t)
				shares[int(u)%n].Resource += span(t, tu)
				d, t = u, tu
			default:
				stage, t = 3, math.Min(e.issue, t)
			}
		case 3:
			switch {
			case e.issueKind == byFrontEnd && e.issueBy >= 0:
				u := e.issueBy
				tu := math.Min(ev[u].issue, t)
				shares[int(u)%n].FrontEnd += span(t, tu)
				d, t = u, tu
			case e.issueKind == byROB && e.issueBy >= 0:
				u := e.issueBy
				tu := math.Min(ev[u].retire, t)
				c.ROB += span(t, tu)
				d, stage, t = u, 0, tu
			default:
				d = -1
			}
		}
	}
	total := end - math.Max(from, 0)
	if total <= 0 {
		return shares, r, nil
	}
	for k := range shares {
		c := &shares[k]
		c.Latency /= total
		c.Resource /= total
		c.FrontEnd /= total
		c.ROB /= total
		c.Retire /= total
		c.Share = c.Latency + c.Resource + c.FrontEnd + c.ROB + c.Retire
	}
	return shares, r, nil
}

// tracer holds who last wrote each value slot and used each resource.
type tracer struct {
	slotWriter []int32
	lastUser   []int32
	robOwner   []int32
	dyn        int32
}

// newTracer returns a tracer for p on a reorder buffer of rob entries,
// with no writer or user recorded yet.
func newTracer(p *program, rob int) tracer {
	tr := tracer{slotWriter: make([]int32, p.nslots), lastUser: make([]int32, p.nres)}
	for i := range tr.slotWriter {
		tr.slotWriter[i] = -1
	}
	for i := range tr.lastUser {
		tr.lastUser[i] = -1
	}
	if rob > 0 {
		tr.robOwner = make([]int32, rob)
	}
	return tr
}

// iterateTraced is iterate recording an event per instruction: a copy of
// its loop, so that the plain simulation pays nothing for the tracing
// (TestTracedIterationIsTheSame keeps the two in step).
func (s *Simulator) iterateTraced(p *program, st *state, tr *tracer, ev []event) []event {
	res, vals, choices, uses, reads, lat, base := st.res, st.vals, p.choices, p.uses, p.reads, p.lat, p.base
	rob := st.rob
	nrob := len(rob)
	for k := range p.ops {
		o := &p.ops[k]
		e := event{issueBy: -1, startBy: -1, valueBy: -1}
		t := st.feI
		if st.feU > t {
			t = st.feU
		}
		if tr.dyn > 0 && t > 0 {
			e.issueKind, e.issueBy = byFrontEnd, tr.dyn-1
		}
		if nrob > 0 {
			last := st.uopCount + int(o.uops) - 1
			if last >= nrob {
				if r := rob[last%nrob]; r > t {
					t = r
					e.issueKind, e.issueBy = byROB, tr.robOwner[last%nrob]
				}
			}
		}
		st.feI = t + o.feCost
		st.feU = t + o.feUopCost
		e.issue = t
		start := t
		for u := o.uses0; u < o.uses1; u++ {
			us := &uses[u]
			best, bt := earliest(choices[us.lo:us.hi], res)
			if bt < t {
				bt = t
			} else if bt > start {
				e.startKind, e.startBy = byResource, tr.lastUser[best]
			}
			res[best] = bt + us.cost*s.resScale[best]
			tr.lastUser[best] = tr.dyn
			if bt > start {
				start = bt
			}
		}
		e.start = start
		nw := o.writes1 - o.writes0
		nr := o.reads1 - o.reads0
		complete := start
		e.valueIn = start
		for w := int32(0); w < nw; w++ {
			var ready, in0 float64
			var by int32 = -1
			if nr == 0 {
				ready, in0 = start+base[o.base0+w], start
			} else {
				ready = math.Inf(-1)
				row := o.lat0 + w
				for r := o.reads0; r < o.reads1; r++ {
					in := vals[reads[r]]
					who := tr.slotWriter[reads[r]]
					if in < start {
						in, who = start, -1
					}
					if x := in + lat[row]; x > ready {
						ready, in0, by = x, in, who
					}
					row += nw
				}
			}
			if ready > complete {
				complete = ready
				e.valueIn, e.valueBy = in0, by
			}
			st.tmp[w] = ready
		}
		copy(vals[o.writes0:o.writes1], st.tmp[:nw])
		for w := o.writes0; w < o.writes1; w++ {
			tr.slotWriter[w] = tr.dyn
		}
		e.complete = complete
		retire := st.ret
		if complete > retire {
			retire = complete
		} else if tr.dyn > 0 {
			e.retireByPrev = true
		}
		st.ret = retire + o.retCost
		e.retire = retire
		if nrob > 0 {
			for u := 0; u < int(o.uops); u++ {
				rob[(st.uopCount+u)%nrob] = retire
				tr.robOwner[(st.uopCount+u)%nrob] = tr.dyn
			}
		}
		st.uopCount += int(o.uops)
		if nrob > 0 {
			st.robAt = st.uopCount % nrob
		}
		ev = append(ev, e)
		tr.dyn++
	}
	return ev
}

// CriticalTable renders shares as a text table, most critical first:
// instruction, resources, share of the critical path and its causes.
func CriticalTable(shares []CriticalShare) string {
	sorted := append([]CriticalShare(nil), shares...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Share > sorted[j].Share })
	var b strings.Builder
	fmt.Fprintf(&b, "%-4s %-36s %-22s %7s %7s %7s %7s %7s %7s\n", "#", "instruction", "resources", "share", "latency", "ports", "front", "ROB", "retire")
	pct := func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
	for _, c := range sorted {
		fmt.Fprintf(&b, "%-4d %-36s %-22s %7s %7s %7s %7s %7s %7s\n", c.Index, c.Text, c.Resources, pct(c.Share), pct(c.Latency), pct(c.Resource), pct(c.FrontEnd), pct(c.ROB), pct(c.Retire))
	}
	return b.String()
}

// ScaledChanges returns c once per factor, with the factor as its
// throughput factor (when c changes resources) or latency factor (when
// it changes a form's latencies): the changes of a sensitivity curve,
// for Sensitivities.
func ScaledChanges(c Change, factors []float64) []Change {
	out := make([]Change, len(factors))
	for i, f := range factors {
		out[i] = c
		out[i].Resources = append([]string(nil), c.Resources...)
		if len(c.Resources) > 0 {
			out[i].Throughput = f
		}
		if c.Form != "" {
			out[i].Latency = f
		}
	}
	return out
}

// Speedups returns the speed-ups of xs, in order: a sensitivity curve's
// y values.
func Speedups(xs []Sensitivity) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x.Speedup
	}
	return out
}
