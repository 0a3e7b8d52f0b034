package throughput

import (
	"context"
	"fmt"
	"math/bits"
	"runtime"
	"sync"

	"github.com/portlab/portlab/lib/portmap"
)

// Bound says which limit determines a Result.
type Bound int

const (
	// PortBound: the ports (the bottleneck formula, thesis Thm 5.2).
	PortBound Bound = iota
	// InstructionBound: the front end's instructions per cycle.
	InstructionBound
	// UopBound: the µops per cycle the core can issue or retire.
	UopBound
)

func (b Bound) String() string {
	switch b {
	case PortBound:
		return "ports"
	case InstructionBound:
		return "instructions per cycle"
	case UopBound:
		return "µops per cycle"
	}
	return fmt.Sprintf("Bound(%d)", int(b))
}

// Result is the modeled inverse throughput of an experiment: the average
// number of core cycles per execution of its multiset in steady state.
type Result struct {
	// Cycles is the inverse throughput, the larger of the port bound
	// Num/Den and any front-end bound of the Model.
	Cycles float64
	// Num/Den is the exact port bound: Num µops on Den bottleneck ports
	// (Den = |Bottleneck|). Num = 0, Den = 1 for an experiment with no µops.
	Num int64
	Den int
	// Bottleneck is the set of bottleneck ports BP(e) (thesis Thm 3.14): the
	// union of all port sets Q maximizing mass(µops ⊆ Q)/|Q|, i.e. the ports
	// that are busy all the time in every optimal schedule.
	Bottleneck portmap.PortSet
	// Bound says whether the ports or a front-end limit set Cycles.
	Bound Bound
	// Instructions and Uops are the experiment's numbers of instructions and
	// µops.
	Instructions int64
	Uops         int64
}

// PortCycles returns the exact port bound Num/Den as a float.
func (r Result) PortCycles() float64 { return float64(r.Num) / float64(r.Den) }

// IPC returns instructions per cycle, or 0 when Cycles is 0.
func (r Result) IPC() float64 {
	if r.Cycles == 0 {
		return 0
	}
	return float64(r.Instructions) / r.Cycles
}

// FrontEnd bounds the throughput by the rate at which the core can decode,
// issue or retire work, in addition to the ports (thesis §3.2.2, Ch. 4/5:
// t ≥ |e| / R_max). Zero fields mean no limit.
type FrontEnd struct {
	InstructionsPerCycle float64 // e.g. 4 for Skylake's retirement of 4 IPC
	UopsPerCycle         float64
}

// Model is a port mapping prepared for fast throughput evaluation. It is safe
// for concurrent use.
type Model struct {
	arch     *portmap.Architecture
	mapped   []bool
	nports   int
	frontEnd FrontEnd
	// The µops of instruction i are umask/ucount[off[i]:off[i+1]], flat for
	// cache-friendly evaluation.
	off    []int32
	umask  []portmap.PortSet
	ucount []int64
	// ukind numbers the distinct µop port sets of the mapping (kinds), when
	// there are at most 255 of them, so that Evaluate can merge µops of the
	// same kind by table lookup; kindMask maps a kind back to its ports.
	ukind    []uint8
	kindMask []portmap.PortSet
	// fast, for a mapping with at most 16 ports and 255 kinds, are the µops
	// for the fast path of small.go.
	fast []fastUop
	// sub, for a mapping with at most 11 ports on a CPU with AVX2, are the
	// subset tables of subsets.go.
	sub *subsetTables
}

// fastUop is a µop of a Model for the fast path: its ports, its kind and
// its count.
type fastUop struct {
	ports uint32
	kind  uint8
	count int32
}

// NewModel prepares m for evaluation. Later changes to m do not affect the
// model.
func NewModel(m *portmap.Mapping) *Model { return newModel(m, true) }

// newModel is NewModel, with subset tables if subsets is set (they pay off
// from a few evaluations per instruction on).
func newModel(m *portmap.Mapping, subsets bool) *Model {
	a := m.Arch()
	n := a.NumInstructions()
	md := &Model{arch: a, nports: m.NumPorts(), mapped: make([]bool, n), off: make([]int32, n+1)}
	for i := 0; i < n; i++ {
		md.off[i] = int32(len(md.umask))
		if m.MappedAt(i) {
			md.mapped[i] = true
			for _, u := range m.UopsAt(i) {
				md.umask = append(md.umask, u.Ports)
				md.ucount = append(md.ucount, int64(u.Count))
			}
		}
	}
	md.off[n] = int32(len(md.umask))
	kinds := map[portmap.PortSet]int{}
	for _, p := range md.umask {
		if _, ok := kinds[p]; !ok {
			kinds[p] = len(md.kindMask)
			md.kindMask = append(md.kindMask, p)
		}
	}
	if len(md.kindMask) <= 255 {
		md.ukind = make([]uint8, len(md.umask))
		for k, p := range md.umask {
			md.ukind[k] = uint8(kinds[p])
		}
		if md.nports <= smallPorts {
			md.fast = make([]fastUop, len(md.umask))
			for k, p := range md.umask {
				md.fast[k] = fastUop{ports: uint32(p), kind: md.ukind[k], count: int32(md.ucount[k])}
				if md.ucount[k] > 1<<31-1 {
					md.fast = nil
					break
				}
			}
		}
	}
	if subsets {
		md.sub = newSubsetTables(md)
	}
	return md
}

// WithFrontEnd returns a copy of md that also applies the front-end bound f.
func (md *Model) WithFrontEnd(f FrontEnd) *Model {
	c := *md
	c.frontEnd = f
	return &c
}

// Arch returns the architecture whose instruction indices the model uses.
func (md *Model) Arch() *portmap.Architecture { return md.arch }

// Index returns e indexed for the model (see Evaluate). It returns an error
// naming an instruction the mapping does not map.
func (md *Model) Index(e portmap.Experiment) (portmap.Indexed, error) {
	x, err := md.arch.Index(e)
	if err != nil {
		return x, err
	}
	for _, t := range x.Terms {
		if !md.mapped[t.Insn] {
			return portmap.Indexed{}, &portmap.UnknownInstructionError{Insn: md.arch.InstructionName(int(t.Insn)), Mapping: md.arch.Name()}
		}
	}
	return x, nil
}

// InvThroughput returns the modeled inverse throughput of e. It returns an
// error naming an instruction the mapping does not map.
func (md *Model) InvThroughput(e portmap.Experiment) (Result, error) {
	x, err := md.Index(e)
	if err != nil {
		return Result{}, err
	}
	return md.Evaluate(x.Terms), nil
}

// Cycles is InvThroughput returning only the cycles.
func (md *Model) Cycles(e portmap.Experiment) (float64, error) {
	r, err := md.InvThroughput(e)
	return r.Cycles, err
}

// Bottleneck returns the inverse throughput of e under m by the bottleneck
// formula (thesis Thm 5.2), with the bottleneck ports as explanation. For
// many experiments build a Model once instead.
func Bottleneck(m *portmap.Mapping, e portmap.Experiment) (Result, error) {
	// Filling subset tables would cost more than one evaluation saves.
	return newModel(m, false).InvThroughput(e)
}

// maxUnionMasks is the number of distinct µop port sets up to which the
// union enumeration (2^d·d steps) is used; beyond it the subset-sum
// transform over all port sets (2^k·k steps) is used when cheaper.
const maxUnionMasks = 24

// Evaluate returns the inverse throughput of an experiment given as terms
// indexed by md.Arch() (see Index); it is the hot path of inference. It does
// not allocate for experiments with at most 32 distinct µop kinds on at most
// 20 ports (larger ones take the subset-sum transform, which allocates 2^k
// words). The terms must name mapped instructions.
func (md *Model) Evaluate(terms []portmap.Term) Result {
	num, den, bp, ninsn, nuops := md.bound(terms)
	// One composite literal of scalars: returning a Result that another
	// call returned costs store-forwarding stalls.
	cycles, bound := md.cycles(num, den, ninsn, nuops)
	return Result{Cycles: cycles, Num: num, Den: den, Bottleneck: bp, Bound: bound, Instructions: ninsn, Uops: nuops}
}

// bound returns the port bound of an experiment, num µops on the den ports
// bp, and its numbers of instructions and µops.
func (md *Model) bound(terms []portmap.Term) (num int64, den int, bp portmap.PortSet, ninsn, nuops int64) {
	if md.sub != nil && (md.fast == nil || !md.sub.few(terms)) {
		if num, den, bp, ninsn, nuops, ok := md.sub.bound(md, terms); ok {
			return num, den, bp, ninsn, nuops
		}
	}
	if md.fast != nil {
		var ks kinds
		if ninsn, ok := md.gather(&ks, terms); ok {
			if bp, ok := ks.solve(); ok {
				num, den := ks.tally(bp)
				return num, den, portmap.PortSet(bp), ninsn, ks.total
			}
		}
	}
	var masksBuf [32]portmap.PortSet
	var massBuf [32]int64
	masks, mass := masksBuf[:0], massBuf[:0]
	if md.ukind != nil {
		// slot[kind] is 1 + the kind's position in masks, 0 if not seen.
		var slot [256]uint8
		for _, t := range terms {
			c := int64(t.Count)
			ninsn += c
			for k := md.off[t.Insn]; k < md.off[t.Insn+1]; k++ {
				w := c * md.ucount[k]
				nuops += w
				id := md.ukind[k]
				if s := slot[id]; s != 0 {
					mass[s-1] += w
					continue
				}
				masks = append(masks, md.kindMask[id])
				mass = append(mass, w)
				slot[id] = uint8(len(masks))
			}
		}
	} else {
		for _, t := range terms {
			c := int64(t.Count)
			ninsn += c
		next:
			for k := md.off[t.Insn]; k < md.off[t.Insn+1]; k++ {
				w := c * md.ucount[k]
				p := md.umask[k]
				nuops += w
				for j := range masks {
					if masks[j] == p {
						mass[j] += w
						continue next
					}
				}
				masks = append(masks, p)
				mass = append(mass, w)
			}
		}
	}
	num, den, bp = portBoundOf(masks, mass)
	return num, den, bp, ninsn, nuops
}

// gather lists the µop mass of terms by kind in ks for the fast path of
// small.go. It returns the number of instructions, and false if the
// experiment has more than 32 kinds.
func (md *Model) gather(ks *kinds, terms []portmap.Term) (int64, bool) {
	var slot [256]uint8 // 1 + a kind's position in ks.km, 0 if not seen
	var ninsn, nuops int64
	var cover uint32
	d := 0
	for _, t := range terms {
		c := int64(t.Count)
		ninsn += c
		for _, u := range md.fast[md.off[t.Insn]:md.off[t.Insn+1]] {
			w := c * int64(u.count)
			nuops += w
			if s := slot[u.kind]; s != 0 {
				ks.kw[(s-1)&(maxKinds-1)] += w
				continue
			}
			if d == maxKinds {
				return 0, false
			}
			ks.km[d], ks.kw[d] = u.ports, w
			cover |= u.ports
			d++
			slot[u.kind] = uint8(d)
		}
	}
	ks.d, ks.cover, ks.total = d, cover, nuops
	return ninsn, true
}

// cycles returns the inverse throughput of an experiment with ninsn
// instructions and nuops µops whose port bound is num/den, and which bound
// determines it.
func (md *Model) cycles(num int64, den int, ninsn, nuops int64) (float64, Bound) {
	cycles, bound := float64(num)/float64(den), PortBound
	if f := md.frontEnd.InstructionsPerCycle; f > 0 {
		if c := float64(ninsn) / f; c > cycles {
			cycles, bound = c, InstructionBound
		}
	}
	if f := md.frontEnd.UopsPerCycle; f > 0 {
		if c := float64(nuops) / f; c > cycles {
			cycles, bound = c, UopBound
		}
	}
	return cycles, bound
}

// portBound computes max over Q of mass(µops ⊆ Q)/|Q| and the union of all
// maximizers, by the fast path of small.go when the masks fit it and by
// generalBound otherwise.
func portBound(masks []portmap.PortSet, mass []int64) Result {
	num, den, bp := portBoundOf(masks, mass)
	return Result{Num: num, Den: den, Bottleneck: bp}
}

// portBoundOf is portBound returning the parts of the Result: num µops on
// the den bottleneck ports bp.
func portBoundOf(masks []portmap.PortSet, mass []int64) (num int64, den int, bp portmap.PortSet) {
	switch len(masks) {
	case 0:
		return 0, 1, 0
	case 1:
		return mass[0], masks[0].Len(), masks[0]
	}
	if num, den, bp, ok := foldedBound(masks, mass); ok {
		return num, den, bp
	}
	r := generalBound(masks, mass)
	return r.Num, r.Den, r.Bottleneck
}

// generalBound is portBound beyond the fast path of small.go. The µop kinds
// are split into connected components (kinds that share ports); a maximizer
// of a union of disjoint components is never better than the best
// component, so each component is solved alone and the global bottleneck is
// the union of the best components' bottlenecks.
func generalBound(masks []portmap.PortSet, mass []int64) Result {
	d := len(masks)
	if d <= 5 {
		return onBottleneck(smallBound(masks, mass))
	}
	// Order masks by component: repeatedly grow a component from the first
	// unassigned mask.
	var best Result
	best.Den = 1
	done := 0
	for done < d {
		cover := masks[done]
		end := done + 1
		for grew := true; grew; {
			grew = false
			for j := end; j < d; j++ {
				if masks[j]&cover != 0 {
					cover |= masks[j]
					masks[j], masks[end] = masks[end], masks[j]
					mass[j], mass[end] = mass[end], mass[j]
					end++
					grew = true
				}
			}
		}
		r := componentBound(masks[done:end], mass[done:end], cover)
		switch {
		case better(r.Num, r.Den, best.Num, best.Den):
			best = r
		case r.Num*int64(best.Den) == best.Num*int64(r.Den):
			best.Bottleneck |= r.Bottleneck
		}
		done = end
	}
	return onBottleneck(best)
}

// componentBound solves one connected component whose masks cover the
// ports in cover.
func componentBound(masks []portmap.PortSet, mass []int64, cover portmap.PortSet) Result {
	d := len(masks)
	if d == 1 {
		return Result{Num: mass[0], Den: masks[0].Len(), Bottleneck: masks[0]}
	}
	switch {
	case d <= 5:
		return smallBound(masks, mass)
	case d <= 8:
		var q [256]portmap.PortSet
		var w [256]int64
		return enumBound(masks, mass, q[:1<<d], w[:1<<d])
	}
	if d <= maxFlowKinds && cover.Len() <= maxFlowPorts {
		if r, ok := flowBound(masks, mass, cover); ok {
			return r
		}
	}
	return searchBound(masks, mass, cover)
}

// searchBound chooses between the subset-sum transform and the pruned
// search for one component.
func searchBound(masks []portmap.PortSet, mass []int64, cover portmap.PortSet) Result {
	d := len(masks)
	np := cover.Len()
	if d > maxUnionMasks || (d > 12 && d > np+bits.Len(uint(np))) {
		if np <= 26 {
			return zetaBound(masks, mass, cover)
		}
		if d > maxUnionMasks {
			return lpBound(masks, mass, cover)
		}
	}
	// Depth-first search over subsets S of the masks, valued
	// W(S)/|∪S|: for a subset that is not closed (some other mask lies inside
	// ∪S) the value only undercounts ∪S, which its closure counts right, so
	// the maximum over all subsets is the port bound. A subtree is pruned when
	// even adding all remaining mass cannot reach the best ratio.
	sortByDensity(masks, mass)
	var rest [maxUnionMasks + 1]int64
	for j := d - 1; j >= 0; j-- {
		rest[j] = rest[j+1] + mass[j]
	}
	s := search{masks: masks, mass: mass, rest: rest[:d+1]}
	// Start from the whole component, a valid candidate and often the
	// answer, or the densest single kind if that is better.
	s.bestNum, s.bestDen, s.bp = rest[0], np, cover
	if n := masks[0].Len(); mass[0]*int64(np) > rest[0]*int64(n) {
		s.bestNum, s.bestDen, s.bp = mass[0], n, 0
	}
	s.dfs(0, 0, 0)
	return Result{Num: s.bestNum, Den: s.bestDen, Bottleneck: s.bp}
}

// smallBound enumerates all unions of at most five kinds.
func smallBound(masks []portmap.PortSet, mass []int64) Result {
	var q [32]portmap.PortSet
	var w [32]int64
	return enumBound(masks, mass, q[:1<<len(masks)], w[:1<<len(masks)])
}

// enumBound enumerates all 2^d − 1 non-empty subsets of the kinds
// iteratively — subset s extends s without its lowest element — using q and
// w (2^d entries each) for the subsets' unions and masses.
func enumBound(masks []portmap.PortSet, mass []int64, q []portmap.PortSet, w []int64) Result {
	r := Result{Den: 1}
	q[0], w[0] = 0, 0
	for s := 1; s < len(q); s++ {
		low := bits.TrailingZeros32(uint32(s))
		prev := s & (s - 1)
		qs, ws := q[prev]|masks[low], w[prev]+mass[low]
		q[s], w[s] = qs, ws
		den := qs.Len()
		lhs, rhs := ws*int64(r.Den), r.Num*int64(den)
		switch {
		case lhs > rhs:
			r.Num, r.Den, r.Bottleneck = ws, den, qs
		case lhs == rhs:
			r.Bottleneck |= qs
		}
	}
	return r
}

type search struct {
	masks   []portmap.PortSet
	mass    []int64
	rest    []int64
	bestNum int64
	bestDen int
	bp      portmap.PortSet
}

// dfs visits every extension of the chosen masks (port union q, mass w) by
// masks of index ≥ j, each subset once.
func (s *search) dfs(j int, q portmap.PortSet, w int64) {
	for ; j < len(s.masks); j++ {
		nq := q | s.masks[j]
		nw := w + s.mass[j]
		den := nq.Len()
		lhs, rhs := nw*int64(s.bestDen), s.bestNum*int64(den)
		switch {
		case lhs > rhs:
			s.bestNum, s.bestDen, s.bp = nw, den, nq
		case lhs == rhs:
			s.bp |= nq
		}
		// Supersets within this subtree add at most rest[j+1] mass and no
		// fewer ports; explore only if they can tie or beat the best.
		if j+1 < len(s.masks) && (nw+s.rest[j+1])*int64(s.bestDen) >= s.bestNum*int64(den) {
			s.dfs(j+1, nq, nw)
		}
	}
}

// sortByDensity sorts masks by decreasing mass per port (insertion sort: d
// is small).
func sortByDensity(masks []portmap.PortSet, mass []int64) {
	for i := 1; i < len(masks); i++ {
		for j := i; j > 0; j-- {
			a, b := j-1, j
			if mass[b]*int64(masks[a].Len()) <= mass[a]*int64(masks[b].Len()) {
				break
			}
			masks[a], masks[b] = masks[b], masks[a]
			mass[a], mass[b] = mass[b], mass[a]
		}
	}
}

// better reports whether a/b > c/d for non-negative a, c and positive b, d.
func better(a int64, b int, c int64, d int) bool { return a*int64(d) > c*int64(b) }

// compress maps port sets inside cover to dense bit positions 0..|cover|-1.
func compress(s, cover portmap.PortSet) uint {
	var out uint
	bit := uint(1)
	for c := uint64(cover); c != 0; c &= c - 1 {
		low := c & -c
		if uint64(s)&low != 0 {
			out |= bit
		}
		bit <<= 1
	}
	return out
}

// expand is the inverse of compress.
func expand(x uint, cover portmap.PortSet) portmap.PortSet {
	var out portmap.PortSet
	for c := uint64(cover); c != 0 && x != 0; c &= c - 1 {
		if x&1 != 0 {
			out |= portmap.PortSet(c & -c)
		}
		x >>= 1
	}
	return out
}

// onBottleneck restates r as the µop mass on its bottleneck set: the union of
// all maximizers has the same ratio, so Num·|BP|/Den is a whole number.
func onBottleneck(r Result) Result {
	if n := r.Bottleneck.Len(); n > 0 && n != r.Den {
		r.Num, r.Den = r.Num*int64(n)/int64(r.Den), n
	}
	return r
}

// zetaBound computes f(Q) = Σ_{u ⊆ Q} mass(u) for all Q ⊆ cover by the
// subset-sum (zeta) transform in O(k·2^k), k = |cover|, and takes the best
// ratio.
func zetaBound(masks []portmap.PortSet, mass []int64, cover portmap.PortSet) Result {
	np := cover.Len()
	f := make([]int64, 1<<np)
	for j, mk := range masks {
		f[compress(mk, cover)] += mass[j]
	}
	for b := 0; b < np; b++ {
		bit := 1 << b
		for q := range f {
			if q&bit != 0 {
				f[q] += f[q^bit]
			}
		}
	}
	best := Result{Num: 0, Den: 1}
	var bp uint
	for q := 1; q < len(f); q++ {
		den := bits.OnesCount(uint(q))
		switch {
		case better(f[q], den, best.Num, best.Den):
			best.Num, best.Den, bp = f[q], den, uint(q)
		case f[q]*int64(best.Den) == best.Num*int64(den) && f[q] > 0:
			bp |= uint(q)
		}
	}
	best.Bottleneck = expand(bp, cover)
	return onBottleneck(best)
}

// Predict returns the inverse throughputs of exps under md, evaluated in
// parallel on all cores. It stops early with ctx's error when ctx is
// cancelled, and returns an error naming the first experiment with an
// instruction the mapping does not map.
func (md *Model) Predict(ctx context.Context, exps []portmap.Experiment) ([]float64, error) {
	idx := make([]portmap.Indexed, len(exps))
	for i, e := range exps {
		x, err := md.Index(e)
		if err != nil {
			return nil, fmt.Errorf("experiment %d: %w", i, err)
		}
		idx[i] = x
	}
	out := make([]float64, len(exps))
	workers := runtime.GOMAXPROCS(0)
	const chunk = 4096
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for lo := range next {
				for i := lo; i < min(lo+chunk, len(idx)); i++ {
					out[i] = md.Evaluate(idx[i].Terms).Cycles
				}
			}
		}()
	}
	var err error
feed:
	for lo := 0; lo < len(idx); lo += chunk {
		// A cancelled context wins over a waiting worker (select alone
		// picks either at random).
		if err = ctx.Err(); err != nil {
			break
		}
		select {
		case next <- lo:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Predict returns the inverse throughputs of exps under m (see
// Model.Predict).
func Predict(ctx context.Context, m *portmap.Mapping, exps []portmap.Experiment) ([]float64, error) {
	return NewModel(m).Predict(ctx, exps)
}

// OfMasses returns the exact port bound of µop mass placed on port sets:
// max over Q of Σ{mass[j] | masks[j] ⊆ Q} / |Q|, with the bottleneck ports,
// for callers that keep their own µop tables (inference algorithms evaluating
// millions of candidate mappings). Masks may repeat; masses must be
// non-negative; OfMasses does not allocate for at most 32 masks on at most 20
// ports, and is fastest for at most 32 masks on at most 16 ports (the fast
// path of the package doc). It may reorder masks and mass. Cycles is set to
// the port bound; Instructions and Uops are left zero.
func OfMasses(masks []portmap.PortSet, mass []int64) Result {
	num, den, bp := portBoundOf(masks, mass)
	return Result{Cycles: float64(num) / float64(den), Num: num, Den: den, Bottleneck: bp}
}
