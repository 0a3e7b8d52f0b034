package palmed

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strings"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/solver"
)

// users is a set of basic instructions, bit k standing for basic[k].
type users uint64

func (u users) has(k int) bool { return u&(1<<uint(k)) != 0 }
func (u users) len() int       { return bits.OnesCount64(uint64(u)) }

// count is a basic instruction's multiplicity σ in a kernel.
type count struct{ i, n int }

// coreKernel is a kernel over basic instructions: σ per basic index, in
// increasing index order (every sum over it and every constraint built
// from it comes out in the same order in every run).
type coreKernel struct {
	Kernel
	sigma []count
	mask  users
}

// newCoreKernel returns the core kernel of e, idx giving the basic index
// of each instruction.
func newCoreKernel(k Kernel, idx map[string]int) *coreKernel {
	K := &coreKernel{Kernel: k}
	for _, it := range k.Experiment.Items() {
		K.sigma = append(K.sigma, count{idx[it.Insn], it.Count})
		K.mask |= 1 << uint(idx[it.Insn])
	}
	sort.Slice(K.sigma, func(a, b int) bool { return K.sigma[a].i < K.sigma[b].i })
	return K
}

// coreModel is the core mapping: resources as sets of basic instructions
// with the loads w[r][k] of basic instruction k.
type coreModel struct {
	basic []string
	res   []users
	w     [][]float64
}

// load returns Σ σ·w on resource r for kernel k, in cycles.
func (c *coreModel) load(k *coreKernel, r int) float64 {
	s := 0.0
	for _, x := range k.sigma {
		i, n := x.i, x.n
		s += float64(n) * c.w[r][i]
	}
	return s
}

// predict returns the modelled cycles of k and the bottleneck.
func (c *coreModel) predict(k *coreKernel) (float64, int) {
	best, arg := 0.0, -1
	for r := range c.res {
		if l := c.load(k, r); l > best {
			best, arg = l, r
		}
	}
	return best, arg
}

// coreMapping infers the core mapping of the basic instructions: LP1 and
// enrichment until no new kernel, then LP2; a shape whose LP2 leaves a
// kernel sub-saturated by more than FitTol is rejected and grown by a free
// resource. It returns the accepted (or, with an ErrNoFit error, the best)
// core.
func (r *run) coreMapping(ctx context.Context, basic, vb, mf []string, t map[string]float64, sd map[[2]string]float64, pair func(a, b string) portmap.Experiment) (*coreModel, error) {
	cfg := r.cfg
	if len(basic) > 64 {
		return nil, fmt.Errorf("palmed: %d basic instructions, at most 64", len(basic))
	}
	idx := map[string]int{}
	for k, b := range basic {
		idx[b] = k
	}
	// Seed kernels: a, a^ā b^b̄, a^M b, and with RatioKernels a^k b for
	// 1 ≤ k < M.
	var seeds []portmap.Experiment
	origin := map[string]string{}
	add := func(e portmap.Experiment, o string) {
		if _, ok := origin[e.Key()]; !ok {
			origin[e.Key()] = o
			seeds = append(seeds, e)
		}
	}
	for _, a := range basic {
		add(single(a), "single")
	}
	for i, a := range basic {
		for j, b := range basic {
			if i < j {
				add(pair(a, b), "pair")
			}
			if i != j {
				add(single(a).Scale(cfg.M).Plus(single(b)), "a^M b")
				if cfg.RatioKernels {
					for k := 1; k < cfg.M; k++ {
						add(single(a).Scale(k).Plus(single(b)), "a^k b")
					}
				}
			}
		}
	}
	if err := r.b.measure(ctx, "core kernels", seeds); err != nil {
		return nil, err
	}
	if err := r.topUp(ctx, "core re-measurement", seeds); err != nil {
		return nil, err
	}
	var kernels []*coreKernel
	have := map[string]bool{}
	addKernels := func(exps []portmap.Experiment) int {
		n := 0
		for _, e := range exps {
			if have[e.Key()] {
				continue
			}
			c, ok := r.b.get(e)
			if !ok {
				continue // skipped, recorded by the bench
			}
			have[e.Key()] = true
			kernels = append(kernels, newCoreKernel(Kernel{Experiment: e, Cycles: c, Origin: origin[e.Key()]}, idx))
			n++
		}
		return n
	}
	addKernels(seeds)
	// The IMF requirement: i shares a resource with every basic
	// instruction it conflicts with.
	var imfShared []users
	for _, a := range mf {
		u := users(1) << uint(idx[a])
		for _, b := range basic {
			if v := sd[[2]string{a, b}]; a != b && !(v <= 1+cfg.DisjointTol) {
				u |= 1 << uint(idx[b])
			}
		}
		imfShared = append(imfShared, u)
	}
	// Disjoint basic pairs (Alg. 1's Dj): LP1 pays MergeCost for every
	// such pair a resource holds.
	dj := make([]users, len(basic))
	for i, a := range basic {
		for j, b := range basic {
			if v := sd[[2]string{a, b}]; i != j && v <= 1+cfg.DisjointTol {
				dj[i] |= 1 << uint(j)
			}
		}
	}
	var vbMask users
	for _, a := range vb {
		vbMask |= 1 << uint(idx[a])
	}
	enrichKernel := func(u users) portmap.Experiment {
		var parts []part
		for k, b := range basic {
			if u.has(k) {
				parts = append(parts, part{single(b), 1 / t[b]})
			}
		}
		return mix(parts, cfg.RoundTol, cfg.MaxScale)
	}
	// LP1 with enrichment.
	var shape []users
	for round := 1; ; round++ {
		priv, shared := r.requirements(kernels, basic, t, vbMask, imfShared)
		var err error
		shape, err = r.lp1(ctx, len(basic), priv, shared, dj)
		if err != nil {
			return nil, err
		}
		r.step("LP1", "round %d: %d resources from %d kernels (%d private and %d shared requirements): %s",
			round, len(shape), len(kernels), len(priv), len(shared), describeShape(shape, basic))
		var fresh []portmap.Experiment
		for _, u := range shape {
			e := enrichKernel(u)
			if !have[e.Key()] {
				if _, ok := origin[e.Key()]; !ok {
					origin[e.Key()] = "enrich"
				}
				fresh = append(fresh, e)
			}
		}
		if err := r.b.measure(ctx, "enrichment", fresh); err != nil {
			return nil, err
		}
		if err := r.topUp(ctx, "core re-measurement", fresh); err != nil {
			return nil, err
		}
		n := addKernels(fresh)
		r.step("enrichment", "round %d: %d new kernels", round, n)
		if n == 0 || round >= cfg.MaxEnrich {
			break
		}
	}
	// LP2, shape rejection and growth.
	var best *coreModel
	bestWorst := math.Inf(1)
	var fitErr error
	var hints map[int]int // kernel → the resource grown for it
	for grow := 0; ; grow++ {
		model, sub, err := r.lp2(ctx, basic, shape, kernels, t, hints)
		if err != nil {
			return nil, err
		}
		residual, worst, worstK := 0.0, 0.0, -1
		for k, s := range sub {
			residual += s
			if s > worst {
				worst, worstK = s, k
			}
		}
		desc := ""
		if worstK >= 0 {
			desc = fmt.Sprintf(", worst %v at %.1f%%", kernels[worstK].Experiment, 100*worst)
		}
		r.step("LP2", "shape of %d resources: residual Σ(1−S_K) = %.4g over %d kernels%s", len(shape), residual, len(kernels), desc)
		if worst < bestWorst {
			best, bestWorst = model, worst
			r.res.Residual, r.res.WorstFit = residual, worst
			r.res.Misfits = nil
			for k, s := range sub {
				if s > cfg.FitTol {
					r.res.Misfits = append(r.res.Misfits, Misfit{Kernel: kernels[k].Kernel, SubSaturation: s})
				}
			}
			sort.SliceStable(r.res.Misfits, func(a, b int) bool { return r.res.Misfits[a].SubSaturation > r.res.Misfits[b].SubSaturation })
		}
		if worst <= cfg.FitTol {
			r.step("LP2", "shape accepted: %s", describeShape(model.res, basic))
			break
		}
		if grow >= cfg.MaxGrow {
			fitErr = r.noFit(grow, len(kernels))
			r.step("LP2", "%v", fitErr)
			break
		}
		// Reject and grow ("splitting undesired merges"). By default, as
		// the previous release: keep the support of the fitted weights and
		// add, for every kernel sub-saturated by more than FitTol, a
		// resource used by exactly its instructions unless one exists, or
		// a resource every basic instruction may use when they all exist.
		// With PersistentGrowth: the shape only grows, every such kernel
		// without one gets a new resource (even when one with the same
		// users exists, as that one is loaded for other kernels) that LP2
		// aims it at in every later round. Then enrich with the kernels of
		// the resources' users.
		if cfg.PersistentGrowth {
			if hints == nil {
				hints = map[int]int{}
			}
			grown := map[users]int{}
			for k, s := range sub {
				if _, hinted := hints[k]; s <= cfg.FitTol || hinted {
					continue
				}
				u := kernels[k].mask
				idx, ok := grown[u]
				if !ok {
					idx = len(shape)
					grown[u] = idx
					shape = append(shape, u)
				}
				hints[k] = idx
			}
			if len(grown) == 0 {
				fitErr = r.noFit(grow, len(kernels))
				r.step("LP2", "%v", fitErr)
				break
			}
		} else {
			shape = append([]users(nil), model.res...)
			exists := map[users]bool{}
			for _, u := range shape {
				exists[u] = true
			}
			added := 0
			for k, s := range sub {
				if u := kernels[k].mask; s > cfg.FitTol && !exists[u] {
					exists[u] = true
					shape = append(shape, u)
					added++
				}
			}
			if added == 0 {
				shape = append(shape, users(1)<<uint(len(basic))-1)
			}
		}
		r.step("LP2", "shape rejected (worst fit %.1f%% > %.1f%%): grown to %d resources", 100*worst, 100*cfg.FitTol, len(shape))
		var fresh []portmap.Experiment
		for _, u := range model.res {
			if e := enrichKernel(u); !have[e.Key()] {
				if _, ok := origin[e.Key()]; !ok {
					origin[e.Key()] = "enrich"
				}
				fresh = append(fresh, e)
			}
		}
		if err := r.b.measure(ctx, "enrichment", fresh); err != nil {
			return nil, err
		}
		if err := r.topUp(ctx, "core re-measurement", fresh); err != nil {
			return nil, err
		}
		addKernels(fresh)
	}
	for _, k := range kernels {
		r.res.Core = append(r.res.Core, k.Kernel)
	}
	return best, fitErr
}

// noFit is the error of a core that does not fit after grow rounds.
func (r *run) noFit(grow, kernels int) error {
	m := r.res.Misfits
	return fmt.Errorf("%w: after %d growth rounds %d of %d core kernels are sub-saturated by more than FitTol %.1f%%, the worst, %v, by %.1f%% (see Result.Misfits)",
		ErrNoFit, grow, len(m), kernels, 100*r.cfg.FitTol, m[0].Kernel.Experiment, 100*m[0].SubSaturation)
}

// requirement is LP1's "some resource of instruction i that none of
// others uses" (private) or "some resource all of set use" (shared).
type requirement struct {
	i      int
	others users
}

// requirements derives LP1's constraints (Alg. 3) from the kernels.
func (r *run) requirements(kernels []*coreKernel, basic []string, t map[string]float64, vb users, imf []users) ([]requirement, []users) {
	var priv []requirement
	var shared []users
	for k := range basic {
		if vb.has(k) {
			priv = append(priv, requirement{k, vb &^ (1 << uint(k))})
		}
	}
	shared = append(shared, imf...)
	for _, k := range kernels {
		if k.mask.len() < 2 {
			continue
		}
		var sat []int
		for _, x := range k.sigma {
			i, n := x.i, x.n
			if math.Abs(float64(n)*t[basic[i]]-k.Cycles) <= r.cfg.SatTol*k.Cycles {
				sat = append(sat, i)
			}
		}
		if len(sat) == 0 {
			if r.frontEnd(k.Experiment) >= (1-r.cfg.SatTol)*k.Cycles {
				continue // the front end binds: no evidence of a shared port
			}
			shared = append(shared, k.mask)
			continue
		}
		for _, i := range sat {
			priv = append(priv, requirement{i, k.mask &^ (1 << uint(i))})
		}
	}
	// Drop duplicates and implied requirements: private (i, S) is implied
	// by (i, S') with S ⊆ S'; shared T by T' ⊇ T.
	var p2 []requirement
	for a, x := range priv {
		implied := false
		for b, y := range priv {
			if x.i == y.i && x.others&^y.others == 0 && (x.others != y.others || b < a) {
				implied = true
				break
			}
		}
		if !implied && x.others != 0 {
			p2 = append(p2, x)
		}
	}
	var s2 []users
	for a, x := range shared {
		implied := false
		for b, y := range shared {
			if x&^y == 0 && (x != y || b < a) {
				implied = true
				break
			}
		}
		if !implied && x.len() > 1 {
			s2 = append(s2, x)
		}
	}
	return p2, s2
}

// MaxBasicLP1 is the largest number of basic instructions LP1 accepts: it
// enumerates every subset of them as a candidate resource.
const MaxBasicLP1 = 16

// lp1 solves the shape problem (Alg. 3) as a 0-1 ILP in set-cover form.
// A resource is identified with the set of basic instructions that use it,
// so every non-empty subset C of them is a candidate with a binary x_C.
// Every instruction lies in a chosen set; a private requirement (i, S) is
// met by a chosen C ∋ i disjoint from S, a shared requirement T by a chosen
// C ⊇ T. The objective is the number of resources (the prose of Sec. 4.2;
// the printed objective is constant), plus a small cost per edge so that
// the sparsest of the smallest shapes is chosen. This form has none of the
// slot symmetry of the ρ(i,r) form and is equivalent to it. With
// Config.MergeCost, a candidate also costs that much per pair of disjoint
// instructions (dj) it holds: the fewest resources merge pipelines that
// no kernel shows to be shared, the error the paper reports on Zen
// (Sec. 5.2).
func (r *run) lp1(ctx context.Context, n int, priv []requirement, shared []users, dj []users) ([]users, error) {
	// merges counts the disjoint pairs a candidate holds.
	merges := func(c users) int {
		k := 0
		for i := range n {
			if c.has(i) {
				k += (dj[i] & c).len()
			}
		}
		return k / 2
	}
	if n > MaxBasicLP1 {
		return nil, fmt.Errorf("palmed: LP1: %d basic instructions, at most %d", n, MaxBasicLP1)
	}
	// Requirements as predicates on a candidate set.
	var reqs []func(users) bool
	hasPrivate := map[int]bool{}
	for _, req := range priv {
		hasPrivate[req.i] = true
	}
	for i := range n {
		if !hasPrivate[i] { // a private requirement puts i on a resource too
			reqs = append(reqs, func(c users) bool { return c.has(i) })
		}
	}
	for _, req := range priv {
		reqs = append(reqs, func(c users) bool { return c.has(req.i) && c&req.others == 0 })
	}
	for _, set := range shared {
		reqs = append(reqs, func(c users) bool { return c&set == set })
	}
	// Candidates, reduced without changing the optimum: a set is dropped
	// when adding one more instruction to it meets every requirement it
	// meets (a solution using it can use the larger set instead). The
	// chosen sets are shrunk afterwards.
	words := (len(reqs) + 63) / 64
	full := users(1)<<uint(n) - 1
	pattern := make([][]uint64, full+1)
	for c := users(1); c <= full; c++ {
		meets := make([]uint64, words)
		for q, ok := range reqs {
			if ok(c) {
				meets[q/64] |= 1 << uint(q%64)
			}
		}
		pattern[c] = meets
	}
	subset := func(a, b []uint64) bool {
		for w := range a {
			if a[w]&^b[w] != 0 {
				return false
			}
		}
		return true
	}
	var cand []users
	var meets [][]uint64
	for c := users(1); c <= full; c++ {
		empty := true
		for _, w := range pattern[c] {
			if w != 0 {
				empty = false
			}
		}
		if empty {
			continue
		}
		dominated := false
		for j := range n {
			if !c.has(j) && merges(c|1<<uint(j)) == merges(c) && subset(pattern[c], pattern[c|1<<uint(j)]) {
				dominated = true
				break
			}
		}
		if !dominated {
			cand = append(cand, c)
			meets = append(meets, pattern[c])
		}
	}
	p := &solver.Problem{}
	x := make([]int, len(cand))
	for j, c := range cand {
		x[j] = p.AddBinary(fmt.Sprintf("x%d", c))
		p.Objective = append(p.Objective, solver.Term{Var: x[j], Coeff: 1 + float64(c.len())/float64(n*n+1) + r.cfg.MergeCost*float64(merges(c))})
	}
	for q := range reqs {
		var ts []solver.Term
		for j := range cand {
			if meets[j][q/64]&(1<<uint(q%64)) != 0 {
				ts = append(ts, solver.Term{Var: x[j], Coeff: 1})
			}
		}
		p.AddConstraint(fmt.Sprintf("requirement %d", q), ts, solver.GreaterEq, 1)
	}
	sol, err := (&solver.CBC{TimeLimit: r.cfg.SolverTimeLimit, Gap: r.cfg.LP1Gap}).Solve(ctx, p)
	if errors.Is(err, solver.ErrInfeasible) {
		return nil, fmt.Errorf("palmed: LP1 has no shape: %w", err)
	}
	if err != nil {
		return nil, fmt.Errorf("palmed: LP1: %w%s", err, timeLimitHint(err))
	}
	if sol.Warning != "" {
		r.step("LP1", "warning: %s", sol.Warning)
	}
	var shape []users
	for j, c := range cand {
		if sol.Values[x[j]] > 0.5 {
			shape = append(shape, c)
		}
	}
	// Shrink: drop an instruction from a resource when every requirement
	// is still met.
	covered := func() bool {
		for q := range reqs {
			ok := false
			for _, c := range shape {
				if pattern[c][q/64]&(1<<uint(q%64)) != 0 {
					ok = true
					break
				}
			}
			if !ok {
				return false
			}
		}
		return true
	}
	for k := range shape {
		for j := range n {
			if c := shape[k]; c.has(j) && c&^(1<<uint(j)) != 0 {
				shape[k] = c &^ (1 << uint(j))
				if !covered() {
					shape[k] = c
				}
			}
		}
	}
	return shape, nil
}

// lp2 solves the Bipartite Weight Problem (Alg. 4): weights 0 ≤ w(i,r) on
// the shape's edges, no resource loaded above 100 % at a kernel's measured
// cycles, and Σ_K S_K maximised, S_K being the load of K's bottleneck. It
// is not an LP (S_K is a maximum inside a maximisation): small problems
// are solved exactly as a MILP (lp2MILP, by CBC), larger ones by
// alternating LPs with fixed bottlenecks (lp2Alternating, gonum). It
// returns the model with the support of the weights (loads below Eps
// dropped, empty resources removed) and each kernel's sub-saturation
// 1 − S_K.
func (r *run) lp2(ctx context.Context, basic []string, shape []users, kernels []*coreKernel, t map[string]float64, hints map[int]int) (*coreModel, []float64, error) {
	binaries := 0
	for _, K := range kernels {
		for _, u := range shape {
			if u&K.mask != 0 {
				binaries++
			}
		}
	}
	solve := func() ([][]float64, error) {
		if binaries <= r.cfg.MaxLP2Binaries {
			return r.lp2MILP(ctx, basic, shape, kernels, t)
		}
		return r.lp2Alternating(ctx, basic, shape, kernels, t, hints)
	}
	w, err := solve()
	if err != nil {
		return nil, nil, err
	}
	// Noisy measurements from an oracle that samples afresh: re-measure
	// the kernels whose constraints bind (tight within FitTol, or
	// exceeded) and solve again, at most twice.
	for round := 0; r.canRemeasure() && round < 2; round++ {
		var again []*coreKernel
		var exps []portmap.Experiment
		for _, K := range kernels {
			if r.remeasured[K.Experiment.Key()] {
				continue
			}
			pred := 0.0
			for s := range shape {
				l := 0.0
				for _, x := range K.sigma {
					i, n := x.i, x.n
					l += float64(n) * w[s][i]
				}
				pred = max(pred, l)
			}
			if pred >= (1-r.cfg.FitTol)*K.Cycles {
				again = append(again, K)
				exps = append(exps, K.Experiment)
			}
		}
		if len(again) == 0 {
			break
		}
		if err := r.b.again(ctx, "LP2 re-measurement", exps, r.cfg.Remeasure); err != nil {
			return nil, nil, err
		}
		for _, K := range again {
			r.remeasured[K.Experiment.Key()] = true
			if c, ok := r.b.get(K.Experiment); ok {
				K.Cycles = c
			}
		}
		r.step("LP2", "%d binding kernels measured %d more times (median kept); LP2 solved again", len(again), r.cfg.Remeasure)
		if w, err = solve(); err != nil {
			return nil, nil, err
		}
	}
	m := &coreModel{basic: basic}
	for s := range shape {
		var set users
		ws := make([]float64, len(basic))
		for i := range basic {
			if w[s][i] >= r.cfg.Eps {
				set |= 1 << uint(i)
				ws[i] = w[s][i]
			}
		}
		if set != 0 {
			m.res = append(m.res, set)
			m.w = append(m.w, ws)
		}
	}
	// A resource whose every load is at most another's never decides a
	// throughput: drop it.
	var keep []int
	for a := range m.res {
		dominated := false
		for b := range m.res {
			if a == b {
				continue
			}
			le, eq := true, true
			for i := range basic {
				if m.w[a][i] > m.w[b][i]+1e-9 {
					le = false
				}
				if math.Abs(m.w[a][i]-m.w[b][i]) > 1e-9 {
					eq = false
				}
			}
			if le && (!eq || b < a) {
				dominated = true
				break
			}
		}
		if !dominated {
			keep = append(keep, a)
		}
	}
	pruned := &coreModel{basic: basic}
	for _, a := range keep {
		pruned.res = append(pruned.res, m.res[a])
		pruned.w = append(pruned.w, m.w[a])
	}
	m = pruned
	sub := make([]float64, len(kernels))
	for k, K := range kernels {
		pred, _ := m.predict(K)
		pred = max(pred, r.frontEnd(K.Experiment))
		sub[k] = max(0, 1-pred/K.Cycles)
	}
	return m, sub, nil
}

// weightVars adds the edge weights of shape to p; the result holds -1 for
// non-edges.
func weightVars(p *solver.Problem, basic []string, shape []users, t map[string]float64) [][]int {
	w := make([][]int, len(shape))
	for s, u := range shape {
		w[s] = make([]int, len(basic))
		for i := range basic {
			w[s][i] = -1
			if u.has(i) {
				w[s][i] = p.AddVar(fmt.Sprintf("w%d_%d", s, i), 0, t[basic[i]], false)
			}
		}
	}
	return w
}

// loadTerms returns K's load on resource s in units of K's measured cycles.
func loadTerms(K *coreKernel, w [][]int, s int) []solver.Term {
	var load []solver.Term
	for _, x := range K.sigma {
		i, n := x.i, x.n
		if w[s][i] >= 0 {
			load = append(load, solver.Term{Var: w[s][i], Coeff: float64(n) / K.Cycles})
		}
	}
	sort.Slice(load, func(a, b int) bool { return load[a].Var < load[b].Var })
	return load
}

func values(sol *solver.Solution, w [][]int) [][]float64 {
	out := make([][]float64, len(w))
	for s := range w {
		out[s] = make([]float64, len(w[s]))
		for i, v := range w[s] {
			if v >= 0 {
				out[s][i] = sol.Values[v]
			}
		}
	}
	return out
}

// lp2MILP is LP2 as a MILP: binaries z(K,r) pick each kernel's bottleneck,
// S_K ≤ load(K,r) + 1 − z(K,r) (big-M 1: all terms lie in [0, 1]).
func (r *run) lp2MILP(ctx context.Context, basic []string, shape []users, kernels []*coreKernel, t map[string]float64) ([][]float64, error) {
	p := &solver.Problem{}
	w := weightVars(p, basic, shape, t)
	for k, K := range kernels {
		var touched []int
		for s, u := range shape {
			if u&K.mask != 0 {
				touched = append(touched, s)
			}
		}
		if len(touched) == 0 {
			continue
		}
		if r.feSaturated(K) {
			// Saturated by the front end: only its caps.
			e := r.overshootVar(p, k, K)
			for _, s := range touched {
				r.addCap(p, K, s, loadTerms(K, w, s), e)
			}
			continue
		}
		hi := 1.0
		if r.soft() {
			hi = math.Inf(1) // S_K − λ·e_K: beyond 1 it costs
		}
		S := p.AddVar(fmt.Sprintf("S%d", k), 0, hi, false)
		p.Objective = append(p.Objective, solver.Term{Var: S, Coeff: -1})
		e := r.overshootVar(p, k, K)
		var pick []solver.Term
		for _, s := range touched {
			load := loadTerms(K, w, s)
			r.addCap(p, K, s, load, e)
			if len(touched) == 1 {
				p.AddConstraint("S", append([]solver.Term{{Var: S, Coeff: 1}}, negate(load)...), solver.LessEq, 0)
				continue
			}
			z := p.AddBinary(fmt.Sprintf("z%d_%d", k, s))
			pick = append(pick, solver.Term{Var: z, Coeff: 1})
			p.AddConstraint("S", append([]solver.Term{{Var: S, Coeff: 1}, {Var: z, Coeff: 1}}, negate(load)...), solver.LessEq, 1)
		}
		if len(pick) > 0 {
			p.AddConstraint(fmt.Sprintf("bottleneck of %v", K.Experiment), pick, solver.GreaterEq, 1)
		}
	}
	sol, err := solver.Solve(ctx, p, r.cfg.SolverTimeLimit)
	if err != nil {
		return nil, fmt.Errorf("palmed: LP2 (MILP): %w%s", err, timeLimitHint(err))
	}
	if sol.Warning != "" {
		r.step("LP2", "warning: %s", sol.Warning)
	}
	return values(sol, w), nil
}

// lp2Alternating is the fixed-bottleneck heuristic for LP2: with each
// kernel's bottleneck r*(K) fixed, maximising Σ_K load(K, r*(K)) subject
// to every load ≤ 1 is an LP; the bottlenecks of the kernels it saturates
// (within FitTol) are then set to the argmax loads of its solution, the
// others keep theirs, and the LP is solved again, until nothing changes or
// after 20 rounds; the best weights seen are returned. The
// first bottleneck of a kernel is the resource hints name for it, or else
// the resource covering most of its instructions' alone cycles, with the
// fewest other users, among those no hint names (a resource grown for a
// kernel would otherwise attract every kernel of the same instructions,
// such as a^4·b for a·b^4, and be fitted to none).
func (r *run) lp2Alternating(ctx context.Context, basic []string, shape []users, kernels []*coreKernel, t map[string]float64, hints map[int]int) ([][]float64, error) {
	loads := func(w [][]float64, K *coreKernel) []float64 {
		out := make([]float64, len(shape))
		for s := range shape {
			for _, x := range K.sigma {
				i, n := x.i, x.n
				out[s] += float64(n) * w[s][i]
			}
		}
		return out
	}
	// First bottlenecks: the resource covering most of the kernel's alone
	// cycles Σ σ·t(i), and among those the one with the fewest other users.
	fixed := make([]int, len(kernels))
	target := map[int]bool{} // resources grown for particular kernels
	for _, h := range hints {
		target[h] = true
	}
	for k, K := range kernels {
		bestCover, bestOthers, arg := -1.0, 0, -1
		for s, u := range shape {
			if target[s] {
				continue // aimed at by its own kernels only
			}
			cover := 0.0
			for _, x := range K.sigma {
				i, n := x.i, x.n
				if u.has(i) {
					cover += float64(n) * t[basic[i]]
				}
			}
			others := (u &^ K.mask).len()
			if cover > bestCover+1e-9 || math.Abs(cover-bestCover) <= 1e-9 && others < bestOthers {
				bestCover, bestOthers, arg = cover, others, s
			}
		}
		fixed[k] = arg
		if h, ok := hints[k]; ok {
			fixed[k] = h
		}
	}
	var bestW [][]float64
	bestScore := math.Inf(-1)
	for round := 0; round < 20; round++ {
		p := &solver.Problem{}
		w := weightVars(p, basic, shape, t)
		for k, K := range kernels {
			e := r.overshootVar(p, k, K)
			for s, u := range shape {
				if u&K.mask != 0 {
					r.addCap(p, K, s, loadTerms(K, w, s), e)
				}
			}
		}
		for k, K := range kernels {
			if s := fixed[k]; s >= 0 && shape[s]&K.mask != 0 && !r.feSaturated(K) {
				p.Objective = append(p.Objective, negate(loadTerms(K, w, s))...)
			}
		}
		sol, err := solver.Solve(ctx, p, r.cfg.SolverTimeLimit)
		if err != nil {
			return nil, fmt.Errorf("palmed: LP2 (alternating LP, round %d): %w", round+1, err)
		}
		cur := values(sol, w)
		score := 0.0
		same := true
		for k, K := range kernels {
			l := loads(cur, K)
			arg := fixed[k]
			for s := range shape {
				if arg < 0 || l[s] > l[arg]+1e-9 {
					arg = s
				}
			}
			if arg >= 0 {
				score += max(l[arg], r.frontEnd(K.Experiment)) / K.Cycles
				if r.soft() {
					over := 0.0
					for s := range shape {
						over = max(over, l[s]/K.Cycles-1)
					}
					score -= r.cfg.SlackPenalty * over
				}
				if l[arg] < (1-r.cfg.FitTol)*K.Cycles && !r.feSaturated(K) {
					// Still sub-saturated: keep aiming at the resource
					// chosen for it rather than the one loaded most.
					continue
				}
			}
			if arg != fixed[k] {
				same = false
				fixed[k] = arg
			}
		}
		if score > bestScore+1e-12 {
			bestScore, bestW = score, cur
		}
		if same {
			break
		}
	}
	return bestW, nil
}

// feSaturated reports whether the front end (Config.FrontEnd) explains
// K's measured cycles within FitTol: LP2 then has no port load to raise
// for it.
func (r *run) feSaturated(K *coreKernel) bool {
	return r.frontEnd(K.Experiment) >= (1-r.cfg.FitTol)*K.Cycles
}

// canRemeasure reports whether binding kernels are measured again
// (Config.Remeasure): noisy measurements from an oracle that gives fresh
// samples.
func (r *run) canRemeasure() bool {
	return r.cfg.Noise > 0 && r.cfg.Remeasure > 0 && !oracle.Remembers(r.b.o)
}

// soft reports whether LP2's caps are soft (Config.SlackPenalty): only
// for noisy measurements, so that an exact run is the hard-capped LP.
func (r *run) soft() bool { return r.cfg.Noise > 0 && r.cfg.SlackPenalty > 0 }

// overshootVar adds kernel K's overshoot e_K ≥ 0, costing SlackPenalty in
// the (minimised) objective, at most overshootMax(K), and returns it; -1
// with hard caps.
func (r *run) overshootVar(p *solver.Problem, k int, K *coreKernel) int {
	if !r.soft() {
		return -1
	}
	e := p.AddVar(fmt.Sprintf("e%d", k), 0, r.overshootMax(K), false)
	p.Objective = append(p.Objective, solver.Term{Var: e, Coeff: r.cfg.SlackPenalty})
	return e
}

// overshootMax returns how far (relative) LP2's soft caps may load kernel
// K beyond its measured cycles. A single measurement may be an outlier of
// any size, which the penalty absorbs: no bound. The median of n > 1
// measurements is not; its noise is about σ·√(π/(2n)), and a load more
// than NoiseWidth such deviations above it is a shape that over-predicts
// K, so K binds there as a hard cap would (and a kernel it leaves
// sub-saturated grows the shape). Unbounded, the soft caps let the
// alternating LP trade a kernel loaded a third beyond its median for
// loads elsewhere: on simulated Skylake with 2 % noise four of a run's
// saturating kernels were loaded 9–35 % beyond their measured cycles, and
// LPAUX, which subtracts a saturating kernel's load from the cycles of
// K_sat, held the other instructions' loads low.
func (r *run) overshootMax(K *coreKernel) float64 {
	n := len(r.b.samples[K.Experiment.Key()])
	if n <= 1 || !(r.cfg.NoiseWidth > 0) {
		return math.Inf(1)
	}
	return r.cfg.NoiseWidth * r.cfg.Noise * math.Sqrt(math.Pi/2/float64(n))
}

// addCap adds K's cap on resource s: load ≤ 1 + Slack (hard), or load ≤
// 1 + e_K with the overshoot variable e ≥ 0 (soft).
func (r *run) addCap(p *solver.Problem, K *coreKernel, s int, load []solver.Term, e int) {
	name := fmt.Sprintf("load %v on %d", K.Experiment, s)
	if e < 0 {
		p.AddConstraint(name, load, solver.LessEq, 1+r.cfg.Slack)
		return
	}
	p.AddConstraint(name, append(append([]solver.Term(nil), load...), solver.Term{Var: e, Coeff: -1}), solver.LessEq, 1)
}

func negate(ts []solver.Term) []solver.Term {
	out := make([]solver.Term, len(ts))
	for j, t := range ts {
		out[j] = solver.Term{Var: t.Var, Coeff: -t.Coeff}
	}
	return out
}

// describeShape lists the resources as sets of basic instructions.
func describeShape(shape []users, basic []string) string {
	var parts []string
	for _, u := range shape {
		var names []string
		for k, b := range basic {
			if u.has(k) {
				names = append(names, short(b))
			}
		}
		sort.Strings(names)
		parts = append(parts, "{"+strings.Join(names, " ")+"}")
	}
	return strings.Join(parts, " ")
}

// short shortens a long instruction name for traces.
func short(s string) string {
	if r := []rune(s); len(r) > 24 {
		return string(r[:23]) + "…"
	}
	return s
}

// timeLimitHint is what to do about a solver's time limit (err wraps
// solver.ErrTimeout), or "".
func timeLimitHint(err error) string {
	if errors.Is(err, solver.ErrTimeout) {
		return " (no feasible solution within Config.SolverTimeLimit, -solver-time: raise it)"
	}
	return ""
}
