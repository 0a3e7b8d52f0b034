package explainable

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/portlab/portlab/lib/infer/account"
	"github.com/portlab/portlab/lib/infer/uopsinfo"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// Witness is one blocking experiment of stage 5 (account.Evidence):
// Blocked and WithInsn are the inverse throughputs of {Blocker ↦ Copies}
// and {Blocker ↦ Copies, insn ↦ 1}; Subsets the µops found before on
// proper subsets of Ports; Surplus = (WithInsn − Blocked)·|Ports| −
// Subsets, the µops whose port set is exactly Ports; Uops its whole
// number.
type Witness = account.Evidence

// Decomposition is stage 5's account of one instruction
// (account.Decomposition).
type Decomposition = account.Decomposition

// Decompose runs stage 5 of the explainable method: it finds the µops of
// each instruction of insns with cycles and the µop counter only, given
// blockers, the mapping of the blocking instructions (one µop each: the
// result of stage 4, or known otherwise). For every blocking instruction
// B for Q, smallest Q first, it measures {B ↦ k} and {B ↦ k, i ↦ 1} with
// uops.info's k (uopsinfo.NanoBenchCopies) and counts (t₂ − t₁)·|Q| µops
// of i that cannot leave Q, less those found on proper subsets, which must
// be a whole number within a quarter µop; it stops once it has found all
// of i's µops. An instruction is complete when the
// µops found add up to its µop count and their bottleneck throughput is
// its inverse throughput alone, within epsilon cycles per instruction
// (0: DefaultEpsilon); otherwise Problem says why, and the result's
// mapping leaves it out. The mapping holds the complete instructions. It
// returns an error for a blocker with other than one µop, and ctx's error
// (with the decompositions so far) when ctx is cancelled.
func Decompose(ctx context.Context, o oracle.Oracle, insns []string, blockers *portmap.Mapping, epsilon float64) ([]Decomposition, *portmap.Mapping, error) {
	var bs []blocker
	for _, b := range blockers.Instructions() {
		u, _ := blockers.Uops(b)
		if len(u) != 1 || u[0].Count != 1 {
			return nil, nil, fmt.Errorf("explainable: blocking instruction %q has µops %s, want one", b, blockers.Usage(b))
		}
		bs = append(bs, blocker{insn: b, ports: u[0].Ports, uops: u})
	}
	return decompose(ctx, o, insns, bs, blockers.Arch(), epsilon, 0, false)
}

// blocker is a blocking instruction for ports: its µops are uops, of
// which one (more for an improper blocker) runs on exactly ports.
type blocker struct {
	insn  string
	ports portmap.PortSet
	uops  []portmap.Uop
}

// decompose is stage 5 with blockers bs over arch; ipc, when positive, caps
// the predicted throughput alone; exhaustive measures with every blocker
// instead of stopping once all µops are found.
func decompose(ctx context.Context, o oracle.Oracle, insns []string, bs []blocker, arch *portmap.Architecture, epsilon, ipc float64, exhaustive bool) ([]Decomposition, *portmap.Mapping, error) {
	if epsilon == 0 {
		epsilon = DefaultEpsilon
	}
	bs = slices.Clone(bs)
	sort.SliceStable(bs, func(a, b int) bool {
		qa, qb := bs[a].ports, bs[b].ports
		return qa.Len() < qb.Len() || qa.Len() == qb.Len() && qa < qb
	})
	isBlocker := map[string]bool{}
	out := portmap.NewMappingFor(arch)
	for _, b := range bs {
		isBlocker[b.insn] = true
		if err := out.Set(b.insn, b.uops...); err != nil {
			return nil, nil, fmt.Errorf("explainable: %w", err)
		}
	}
	measured := map[string]float64{} // blocker experiments, by key
	measure := func(e portmap.Experiment) (float64, error) {
		if t, ok := measured[e.Key()]; ok {
			return t, nil
		}
		m, err := o.Measure(ctx, e)
		if err != nil && oracle.IsTransient(err) && ctx.Err() == nil {
			m, err = o.Measure(ctx, e)
		}
		if err != nil {
			return 0, err
		}
		return m.Cycles, nil
	}
	var decs []Decomposition
	for _, insn := range insns {
		if err := ctx.Err(); err != nil {
			return decs, out, err
		}
		if isBlocker[insn] {
			continue
		}
		d := Decomposition{Insn: insn}
		alone, err := o.Measure(ctx, portmap.NewExperiment(insn))
		if err != nil {
			if ctx.Err() != nil {
				return decs, out, ctx.Err()
			}
			d.Problem = "measuring it alone: " + err.Error()
			decs = append(decs, d)
			continue
		}
		d.Cycles, d.Uops = alone.Cycles, alone.Uops
		n := int(math.Round(alone.Uops))
		if math.Abs(alone.Uops-float64(n)) > 0.25 || n < 1 {
			d.Problem = fmt.Sprintf("%.4g µops alone, not a whole number ≥ 1", alone.Uops)
			decs = append(decs, d)
			continue
		}
		found := 0
		for _, b := range bs {
			if found == n && !exhaustive {
				break
			}
			q := b.ports.Len()
			k := uopsinfo.NanoBenchCopies(q, d.Cycles, n)
			w := Witness{Blocker: b.insn, Ports: b.ports, Copies: k}
			e1 := portmap.NewExperiment().With(b.insn, k)
			e2 := e1.With(insn, 1)
			if w.Blocked, err = measure(e1); err == nil {
				measured[e1.Key()] = w.Blocked
				w.WithInsn, err = measure(e2)
			}
			if err != nil {
				if ctx.Err() != nil {
					return decs, out, ctx.Err()
				}
				d.Problem = fmt.Sprintf("measuring with %d × %s: %v", k, b.insn, err)
				break
			}
			for _, u := range d.Found {
				if u.Ports != b.ports && u.Ports.SubsetOf(b.ports) {
					w.Subsets += u.Count
				}
			}
			w.Surplus = (w.WithInsn-w.Blocked)*float64(q) - float64(w.Subsets)
			w.Uops = int(math.Round(w.Surplus))
			d.Witnesses = append(d.Witnesses, w)
			if math.Abs(w.Surplus-float64(w.Uops)) > 0.25 || w.Uops < 0 {
				d.Problem = fmt.Sprintf("with %d × %s, (%.4g − %.4g)·%d − %d = %.4g µops on %v, not a whole number ≥ 0",
					k, b.insn, w.WithInsn, w.Blocked, q, w.Subsets, w.Surplus, arch.PortNames(b.ports))
				break
			}
			if w.Uops > 0 {
				d.Found = append(d.Found, portmap.Uop{Ports: b.ports, Count: w.Uops})
				found += w.Uops
			}
		}
		if d.Problem == "" {
			masks := make([]portmap.PortSet, len(d.Found))
			mass := make([]int64, len(d.Found))
			for j, u := range d.Found {
				masks[j], mass[j] = u.Ports, int64(u.Count)
			}
			predicted := throughput.OfMasses(masks, mass).Cycles
			if ipc > 0 {
				predicted = max(predicted, 1/ipc)
			}
			d.Predicted = predicted
			d.Fits = math.Abs(predicted-d.Cycles) <= epsilon
			switch {
			case found > n:
				d.Problem = fmt.Sprintf("found %d µops, but it retires %d: the counter misses some (for Zen's macro-op counter, Postulate 6.5 does not hold for it), or a µop whose port set no blocking instruction has was found under several", found, n)
			case found < n:
				d.Problem = fmt.Sprintf("found %d of its %d µops: the others run on port sets no blocking instruction's contains", found, n)
			case !d.Fits:
				d.Problem = fmt.Sprintf("the µops found predict %.4g cycles alone, it takes %.4g: some run on a port set no blocking instruction has", predicted, d.Cycles)
			default:
				if err := out.Set(insn, d.Found...); err != nil {
					d.Problem = err.Error()
					break
				}
				d.Complete = true
			}
		}
		decs = append(decs, d)
	}
	return decs, out, nil
}
