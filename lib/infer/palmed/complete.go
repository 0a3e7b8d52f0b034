package palmed

import (
	"context"
	"fmt"
	"math"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/resource"
)

// RationalTol is the tolerance within which inferred loads are written as
// simple fractions (resource.Rational): 0.3333333 becomes 1/3.
const RationalTol = 1e-6

// complete builds the resource mapping: the core, saturating kernels, and
// LPAUX in closed form for every representative that is not basic, with a
// private resource for instructions whose alone cycles the result
// under-predicts by more than PrivateTol.
func (r *run) complete(ctx context.Context, core *coreModel, basic, reps []string, t map[string]float64, pair func(a, b string) portmap.Experiment) error {
	cfg := r.cfg
	names := make([]string, len(core.res))
	for k := range core.res {
		names[k] = fmt.Sprintf("R%d", k)
	}
	m := resource.MustNew("palmed", names...)
	r.res.Mapping = m
	isBasic := map[string]bool{}
	for i, b := range basic {
		isBasic[b] = true
		m.AddInstruction(b)
		for k := range core.res {
			if v := core.w[k][i]; v > 0 {
				m.SetLoadAt(b, k, resource.Rational(v, RationalTol))
			}
		}
	}
	// Core loads as the mapping holds them (rationalised).
	coreLoad := func(insn string, k int) float64 {
		l, _ := m.Loads(insn)
		return l[k]
	}
	// Saturating kernels: among the core kernels whose bottleneck is r at
	// ≥ 1 − SatTol of their measured cycles, the most exclusive one (the
	// largest 1 − max_{r'≠r} load(r')/load(r), cf. Def. B.5), ties broken
	// by the smallest total load Σ_r' load(K,r') (the paper's cons).
	sat := make([]*Kernel, len(core.res))
	for k := range core.res {
		bestExcl, bestCons := -1.0, math.Inf(1)
		for j := range r.res.Core {
			K := &r.res.Core[j]
			loads := make([]float64, len(core.res))
			for q := range core.res {
				for _, it := range K.Experiment.Items() {
					loads[q] += float64(it.Count) * coreLoad(it.Insn, q)
				}
			}
			lr, other, cons := loads[k], 0.0, 0.0
			for q, l := range loads {
				cons += l / K.Cycles
				if q != k {
					other = max(other, l)
				}
			}
			// A kernel the front end binds as well would bind the
			// front end in K_sat too, and every load would seem to
			// fill it.
			if lr <= 0 || other > lr*(1+1e-9) || lr < (1-cfg.SatTol)*K.Cycles || r.frontEnd(K.Experiment) > (1-cfg.SatTol)*lr {
				continue
			}
			excl := 1 - other/lr
			if excl > bestExcl+1e-9 || math.Abs(excl-bestExcl) <= 1e-9 && cons < bestCons {
				bestExcl, bestCons, sat[k] = excl, cons, K
			}
		}
		if sat[k] == nil {
			r.step("saturating", "no saturating kernel for %s: LPAUX maps no other instruction onto it", names[k])
			continue
		}
		r.res.Saturating[names[k]] = *sat[k]
		r.step("saturating", "%s: %v (%.3g cycles)", names[k], sat[k].Experiment, sat[k].Cycles)
	}
	// K_sat(i, r) = i^ī · sat[r]^(L·S̄) for every other representative.
	var others []string
	for _, a := range reps {
		if !isBasic[a] {
			others = append(others, a)
		}
	}
	ksat := func(insn string, k int) portmap.Experiment {
		return mix([]part{{single(insn), 1 / t[insn]}, {sat[k].Experiment, float64(cfg.L) / sat[k].Cycles}}, cfg.RoundTol, cfg.MaxScale)
	}
	var exps []portmap.Experiment
	for _, a := range others {
		for k := range core.res {
			if sat[k] != nil {
				exps = append(exps, ksat(a, k))
			}
		}
	}
	if err := r.b.measure(ctx, "LPAUX kernels", exps); err != nil {
		return err
	}
	// With noise, the K_sat kernels (|R| per class representative, a few
	// per cent of a run's kernels) are measured CoreRepeats times, as the
	// core's: each sets a load on its own.
	if err := r.topUp(ctx, "LPAUX re-measurement", exps); err != nil {
		return err
	}
	kernelsOf := func(a string) []portmap.Experiment {
		kernels := []portmap.Experiment{single(a)}
		for k := range core.res {
			if sat[k] != nil {
				kernels = append(kernels, ksat(a, k))
			}
		}
		return kernels
	}
	// bound returns the upper bound of a's load on resource k, the
	// smallest load the noise could not explain, and the kernel setting
	// the bound.
	bound := func(a string, k int, kernels []portmap.Experiment) (u, floor float64, bind portmap.Experiment) {
		u, floor = math.Inf(1), cfg.Eps
		for _, e := range kernels {
			c, ok := r.b.get(e)
			if !ok {
				continue
			}
			// A kernel measured once may be too fast by noise, and the
			// least of several bounds is biased low: a slack of Slack.
			// The median of a re-measured kernel is not: no slack, and
			// its noise is that of a median of 1 + Remeasure samples.
			slack, noise := cfg.Slack, cfg.Noise
			if n := len(r.b.samples[e.Key()]); n > 1 && cfg.Noise > 0 && !oracle.Remembers(r.b.o) {
				slack, noise = 0, cfg.Noise*math.Sqrt(math.Pi/2/float64(n))
			}
			rest := 0.0
			for _, it := range e.Items() {
				if it.Insn != a {
					rest += float64(it.Count) * coreLoad(it.Insn, k)
				}
			}
			if v := (c*(1+slack) - rest) / float64(e.Count(a)); v < u {
				// The noise of this kernel's cycles, per instance of a:
				// a smaller load cannot be told from noise.
				u, floor, bind = v, max(cfg.Eps, cfg.NoiseWidth*noise*c/float64(e.Count(a))), e
			}
		}
		return u, floor, bind
	}
	// Noisy measurements from an oracle that samples afresh: the kernel
	// bounding each load is measured Remeasure more times (median kept),
	// so that one measurement too fast by noise does not set the load.
	if r.canRemeasure() {
		var again []portmap.Experiment
		for _, a := range others {
			kernels := kernelsOf(a)
			for k := range core.res {
				if sat[k] == nil {
					continue
				}
				if u, _, e := bound(a, k, kernels); !math.IsInf(u, 1) && !r.remeasured[e.Key()] {
					r.remeasured[e.Key()] = true
					again = append(again, e)
				}
			}
		}
		if err := r.b.again(ctx, "LPAUX re-measurement", again, cfg.Remeasure); err != nil {
			return err
		}
		r.step("LPAUX", "%d binding kernels measured %d more times (median kept)", len(again), cfg.Remeasure)
	}
	clamped, private := 0, 0
	for _, a := range others {
		kernels := kernelsOf(a)
		m.AddInstruction(a)
		for k := range core.res {
			if sat[k] == nil {
				// Only a's kernel alone would bound the load: every
				// instruction would get its whole alone cycles on this
				// resource, which then adds up the cycles of any kernel
				// like a serial machine (on host data, 109 of 120
				// instructions, held-out predictions 1.7× too slow). The
				// private resource below carries what the others leave
				// unexplained.
				continue
			}
			u, floor, _ := bound(a, k, kernels)
			if u < 0 {
				clamped++
			}
			if u >= floor && !math.IsInf(u, 1) {
				m.SetLoadAt(a, k, resource.Rational(u, RationalTol))
			}
		}
	}
	// Instructions that use a unit no basic instruction uses: a resource
	// carrying the unexplained cycles, shared by the instructions whose
	// pair kernels show that they use the same such unit (see
	// extraGroups), private to the others.
	var extra []string
	for _, a := range others {
		pred, _, _ := m.Cycles(single(a))
		pred = max(pred, r.frontEnd(single(a)))
		if pred < t[a]*(1-cfg.PrivateTol) {
			extra = append(extra, a)
		}
	}
	groups := r.extraGroups(m, extra, t, pair)
	shared := 0
	for _, g := range groups {
		name := "R:" + g[0]
		if len(g) > 1 {
			name = fmt.Sprintf("R:%s (+%d)", g[0], len(g)-1)
			shared++
		}
		k, err := m.AddResource(name)
		if err != nil {
			return err
		}
		for _, a := range g {
			m.SetLoadAt(a, k, resource.Rational(t[a], RationalTol))
			private++
		}
	}
	r.step("LPAUX", "%d instructions mapped from %d K_sat kernels; %d negative upper bounds clamped to 0; %d instructions given %d resources of their own (%d of them shared)",
		len(others), len(exps), clamped, private, len(groups), shared)
	return nil
}

// extraGroups groups the instructions of extra, which the resources so far
// leave under-predicted alone, by the units they use beyond those: a and
// b use the same one when their measured pair kernel a^ā·b^b̄ (from the
// quadratic benchmarks) is closer to the cycles predicted with one
// resource carrying both their alone cycles than to the prediction with
// two, and slower than the latter by more than DisjointTol. Groups are
// formed greedily in the order of extra: an instruction joins the first
// group with whose members it shares a unit (with all of them when the
// group has at most two, else with more than half, so that one noisy
// pair neither splits nor chains groups), or founds a group. Units no
// basic instruction uses are typically not pipelined (dividers, square
// roots, microcoded sequences); the PALMED paper's LPAUX can only load the
// core's resources, and a resource per instruction would let two
// divisions run in parallel.
func (r *run) extraGroups(m *resource.Mapping, extra []string, t map[string]float64, pair func(a, b string) portmap.Experiment) [][]string {
	shares := func(a, b string) bool {
		if pair == nil {
			return false
		}
		e := pair(a, b)
		c, ok := r.b.get(e)
		if !ok {
			return false
		}
		sep, _, err := m.Cycles(e)
		if err != nil {
			return false
		}
		sep = max(sep, r.frontEnd(e))
		// Without a's and b's own resources (not added yet): add their
		// alone cycles, separately or together.
		sa, sb := float64(e.Count(a))*t[a], float64(e.Count(b))*t[b]
		two := max(sep, sa, sb)
		one := max(sep, sa+sb)
		return c > two*(1+r.cfg.DisjointTol) && math.Abs(c-one) < math.Abs(c-two)
	}
	var groups [][]string
	for _, a := range extra {
		placed := false
		for g := range groups {
			n := 0
			for _, b := range groups[g] {
				if shares(a, b) {
					n++
				}
			}
			if k := len(groups[g]); k <= 2 && n == k || k > 2 && 2*n > k {
				groups[g] = append(groups[g], a)
				placed = true
				break
			}
		}
		if !placed {
			groups = append(groups, []string{a})
		}
	}
	return groups
}
