package resource

import (
	"context"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/solver"
)

// NotDualError is PortMapping's answer for a resource mapping that is not
// (or could not be shown to be) the dual of a port mapping; Reason says
// why.
type NotDualError struct {
	Mapping, Reason string
}

func (e *NotDualError) Error() string {
	return fmt.Sprintf("resource: mapping %q is not the dual of a port mapping: %s", e.Mapping, e.Reason)
}

// PrimalMaxNodes bounds the placements PortMapping's search for a
// compact port mapping tries.
const PrimalMaxNodes = 50000

// PortMapping returns a port mapping whose bottleneck throughput equals
// m's prediction on every experiment: a primal of m, the inverse of Dual.
// It reports whether the mapping is compact (found by the search below) or
// the plain construction, and returns a *NotDualError when no port mapping
// on at most portmap.MaxPorts ports does.
//
// Every resource r used by some instruction stands for a port set J_r: its
// size |J_r| is the least common denominator of the loads on r, so that
// every instruction uses r a whole number of times,
// n(i,r) = ρ(i,r)·|J_r|. The plain construction gives every resource its
// own ports and instruction i n(i,r) µops on J_r; the port sets are then
// disjoint, their ∇-closure is themselves, and the dual is m again. So
// every resource mapping with rational loads is a dual; the question is
// how few ports suffice. The search places the port sets in order of size
// on ports already in use where it can (fresh ports, being
// interchangeable, are taken in order); the µops of i with port set
// exactly J follow by Möbius inversion over the placed sets,
//
//	µops(i, J) = n(i, J) − Σ_{placed J' ⊊ J} µops(i, J'),
//
// and must be non-negative; two partly overlapping sets need a later
// resource for their union. A placement is accepted when the ∇-closure of
// the µops' port sets adds no resource that could be a bottleneck (each
// such resource's loads are at most one of m's): the dual over the placed
// sets is m by construction, so by Thm A.1/A.2 the throughputs are m's.
// The search tries at most PrimalMaxNodes placements and then falls back to
// the plain construction. Ports are named "0", "1", …; resources used by
// no instruction and repeated resources are ignored.
func PortMapping(m *Mapping) (pm *portmap.Mapping, compact bool, err error) {
	notDual := func(format string, args ...any) error {
		return &NotDualError{Mapping: m.name, Reason: fmt.Sprintf(format, args...)}
	}
	// The resources that matter: used, and not a repeat of another.
	var keep []int
	seen := map[string]bool{}
	for r := range m.resources {
		var key strings.Builder
		used := false
		for i := range m.insns {
			if v := m.exact[i][r]; v != nil {
				used = true
				key.WriteString(v.RatString())
			}
			key.WriteByte(',')
		}
		if used && !seen[key.String()] {
			seen[key.String()] = true
			keep = append(keep, r)
		}
	}
	// Sizes: the least common denominator of the loads; uses n(i, r).
	size := map[int]int64{}
	total := int64(0)
	for _, r := range keep {
		l := big.NewInt(1)
		for i := range m.insns {
			if v := m.exact[i][r]; v != nil {
				lcmWith(l, v.Denom())
				if l.Cmp(big.NewInt(portmap.MaxPorts)) > 0 {
					return nil, false, notDual("the loads on %s (e.g. %s of %s) need a port set of more than %d ports (a port set J gives loads k/|J|)",
						m.resources[r], v.RatString(), m.insns[i], portmap.MaxPorts)
				}
			}
		}
		size[r] = l.Int64()
		total += l.Int64()
	}
	// Placed in order of the number of users (a subset's users are among
	// its superset's), then of size.
	users := map[int]int{}
	for _, r := range keep {
		for i := range m.insns {
			if m.exact[i][r] != nil {
				users[r]++
			}
		}
	}
	sort.SliceStable(keep, func(a, b int) bool {
		if x, y := users[keep[a]], users[keep[b]]; x != y {
			return x < y
		}
		return size[keep[a]] < size[keep[b]]
	})
	s := &primal{m: m, res: keep, lcm: make([]int, len(keep)), n: make([][]int64, len(keep))}
	for k, r := range keep {
		s.lcm[k] = int(size[r])
		s.n[k] = make([]int64, len(m.insns))
		for i := range m.insns {
			if v := m.exact[i][r]; v != nil {
				x := new(big.Rat).Mul(v, big.NewRat(size[r], 1))
				s.n[k][i] = x.Num().Int64()
			}
		}
	}
	s.sets = make([]portmap.PortSet, len(keep))
	s.uops = make([][]int64, len(keep))
	s.mult = make([]int, len(keep))
	if s.place(0, 0) {
		return s.result, true, nil
	}
	// The plain construction: disjoint port sets.
	if total > portmap.MaxPorts {
		if s.why == "" {
			s.why = fmt.Sprintf("it gave up after %d placements", s.nodes)
		}
		return nil, false, notDual("its %d resources need %d ports in all when each has its own, more than %d, and the search for a compact mapping found none (%s)",
			len(keep), total, portmap.MaxPorts, s.why)
	}
	used := 0
	for k := range keep {
		s.sets[k] = portmap.PortSet((uint64(1)<<uint(s.lcm[k]) - 1) << uint(used))
		s.uops[k] = s.n[k]
		used += s.lcm[k]
	}
	if !s.finish(used) {
		return nil, false, notDual("%s", s.why) // cannot happen: disjoint sets are closed
	}
	return s.result, false, nil
}

// primal is PortMapping's search state.
type primal struct {
	m      *Mapping
	res    []int             // resource indices of m, in placement order
	lcm    []int             // least |J| per resource
	n      [][]int64         // n[k][i]: uses of resource k by instruction i with |J| = lcm[k]
	sets   []portmap.PortSet // placed port sets
	mult   []int             // |sets[k]| / lcm[k]
	uops   [][]int64         // uops[k][i]: µops of i with port set exactly sets[k]
	nodes  int
	deep   int
	why    string
	result *portmap.Mapping
}

// PrimalMaxMultiple bounds the port-set size PortMapping's search tries
// for a resource, as a multiple of the least common denominator of its
// loads (a set of 4 ports used twice by everyone has loads 1/2).
const PrimalMaxMultiple = 4

// place places resources k, k+1, … on ports, ports 0..used-1 being in use.
func (s *primal) place(k, used int) bool {
	if k == len(s.res) {
		return s.finish(used)
	}
	name := s.m.resources[s.res[k]]
	for mult := 1; mult <= PrimalMaxMultiple; mult++ {
		c := s.lcm[k] * mult
		if c > portmap.MaxPorts || mult > 1 && c > used {
			break
		}
		for fresh := 0; fresh <= c && used+fresh <= portmap.MaxPorts; fresh++ {
			freshBits := portmap.PortSet((uint64(1)<<uint(fresh) - 1) << uint(used))
			ok := eachSubset(used, c-fresh, func(old portmap.PortSet) bool {
				if s.nodes++; s.nodes >= PrimalMaxNodes {
					return false
				}
				J := old | freshBits
				for q := 0; q < k; q++ {
					if J == s.sets[q] {
						return true
					}
				}
				u := make([]int64, len(s.m.insns))
				for i := range u {
					u[i] = s.n[k][i] * int64(mult)
					for q := 0; q < k; q++ {
						if s.sets[q]&^J == 0 {
							u[i] -= s.uops[q][i]
						}
					}
					if u[i] < 0 {
						s.fail(k, fmt.Sprintf("no set of %d ports for resource %s keeps every µop count non-negative (e.g. on ports %s, %s would have %d µops)",
							c, name, J, s.m.insns[i], u[i]))
						return true
					}
				}
				// The µops on J are no longer µops on exactly a placed
				// superset of J.
				for q := 0; q < k; q++ {
					if J&^s.sets[q] == 0 {
						for i := range u {
							if u[i] > s.uops[q][i] {
								s.fail(k, fmt.Sprintf("resource %s on ports %s inside %s's ports %s takes %d µops of %s, more than %s has left",
									name, J, s.m.resources[s.res[q]], s.sets[q], u[i], s.m.insns[i], s.m.resources[s.res[q]]))
								return true
							}
						}
					}
				}
				// A partial overlap with a placed set needs a later resource
				// for the union, used at least as much as either.
				for q := 0; q < k; q++ {
					if x := s.sets[q]; x&J != 0 && x&^J != 0 && J&^x != 0 && !s.unionLater(k, q, mult, (x|J).Len()) {
						return true
					}
				}
				s.sets[k], s.uops[k], s.mult[k] = J, u, mult
				s.shift(k, -1)
				done := s.place(k+1, used+fresh)
				if !done {
					s.shift(k, 1)
				}
				return !done
			})
			if !ok {
				return s.result != nil
			}
		}
	}
	return false
}

// shift adds sign times the µops of resource k to those of every placed
// resource before k whose ports contain k's.
func (s *primal) shift(k int, sign int64) {
	for q := 0; q < k; q++ {
		if s.sets[k]&^s.sets[q] == 0 {
			for i, u := range s.uops[k] {
				s.uops[q][i] += sign * u
			}
		}
	}
}

func (s *primal) fail(k int, why string) {
	if k >= s.deep {
		s.deep, s.why = k, why
	}
}

// unionLater reports whether a resource after k can have the given size
// and every instruction's uses of resources k (at multiple mult) and q.
func (s *primal) unionLater(k, q, mult, size int) bool {
	for t := k + 1; t < len(s.res); t++ {
		if size%s.lcm[t] != 0 {
			continue
		}
		f := int64(size / s.lcm[t])
		ok := true
		for i := range s.m.insns {
			if s.n[t][i]*f < max(s.n[k][i]*int64(mult), s.n[q][i]*int64(s.mult[q])) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// eachSubset calls f with every subset of size c of ports 0..n-1 until f
// returns false; it returns false when f did.
func eachSubset(n, c int, f func(portmap.PortSet) bool) bool {
	if c > n || c < 0 {
		return true
	}
	var rec func(start, left int, acc portmap.PortSet) bool
	rec = func(start, left int, acc portmap.PortSet) bool {
		if left == 0 {
			return f(acc)
		}
		for p := start; p <= n-left; p++ {
			if !rec(p+1, left-1, acc|portmap.PortSet(1)<<uint(p)) {
				return false
			}
		}
		return true
	}
	return rec(0, c, 0)
}

// finish builds the port mapping of a complete placement and checks that
// its dual over the ∇-closure predicts what s.m does.
func (s *primal) finish(used int) bool {
	ports := make([]string, used)
	for p := range ports {
		ports[p] = strconv.Itoa(p)
	}
	pm, err := portmap.NewMapping(s.m.name+" (port mapping)", ports...)
	if err != nil {
		s.why = err.Error()
		return false
	}
	var occurring []portmap.PortSet
	for i, insn := range s.m.insns {
		var uops []portmap.Uop
		for k := range s.res {
			if u := s.uops[k][i]; u > 0 {
				uops = append(uops, portmap.Uop{Ports: s.sets[k], Count: int(u)})
				occurring = append(occurring, s.sets[k])
			}
		}
		if err := pm.Set(insn, uops...); err != nil {
			s.why = err.Error()
			return false
		}
	}
	// Sets of the closure that are not placed must not be bottlenecks:
	// each of their dual resources must be dominated by one of m's.
	placed := map[portmap.PortSet]bool{}
	for _, J := range s.sets {
		placed[J] = true
	}
	var extra []portmap.PortSet
	for _, J := range Closure(occurring) {
		if !placed[J] {
			extra = append(extra, J)
		}
	}
	if len(extra) > 0 {
		d, err := Dual(pm, extra)
		if err != nil {
			s.why = err.Error()
			return false
		}
		for r := range d.resources {
			if !s.dominated(d, r) {
				if len(s.res) >= s.deep {
					s.deep = len(s.res)
					s.why = fmt.Sprintf("the µops found for the resources need the port set %s (the union of two overlapping ones), which no resource of the mapping stands for",
						extra[r])
				}
				return false
			}
		}
	}
	s.result = pm
	return true
}

// dominated reports whether resource r of d carries, for every
// instruction, at most the load of some resource of s.m.
func (s *primal) dominated(d *Mapping, r int) bool {
	for _, q := range s.res {
		ok := true
		for i := range s.m.insns {
			a := d.exact[i][r]
			if a == nil {
				continue
			}
			b := s.m.exact[i][q]
			if b == nil || a.Cmp(b) > 0 {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// Equivalent reports whether a and b predict the same throughput for
// every experiment over their instructions. max_r Σσρ_r equals
// max_q Σσρ'_q for all σ ≥ 0 exactly when every resource of either is
// dominated (load for load) by a convex combination of the other's
// resources; a resource dominated by a single one is recognised exactly,
// a combination with an LP (gonum, tolerance 1e-9). When the answer is
// false the reason names a resource without a counterpart or an
// instruction only one of them maps.
func Equivalent(a, b *Mapping) (bool, string) {
	ia, ib := a.Instructions(), b.Instructions()
	sort.Strings(ia)
	sort.Strings(ib)
	for _, x := range ia {
		if !b.Has(x) {
			return false, fmt.Sprintf("%s maps %s, %s does not", a.name, x, b.name)
		}
	}
	for _, x := range ib {
		if !a.Has(x) {
			return false, fmt.Sprintf("%s maps %s, %s does not", b.name, x, a.name)
		}
	}
	if r, ok := covered(a, b, ia); !ok {
		return false, fmt.Sprintf("resource %s of %s is not dominated by %s's resources (nor by a mix of them)", a.resources[r], a.name, b.name)
	}
	if r, ok := covered(b, a, ia); !ok {
		return false, fmt.Sprintf("resource %s of %s is not dominated by %s's resources (nor by a mix of them)", b.resources[r], b.name, a.name)
	}
	return true, ""
}

// covered reports whether every resource of a is dominated by a convex
// combination of b's over insns, and else the first that is not.
func covered(a, b *Mapping, insns []string) (int, bool) {
	ra := make([]int, len(insns))
	rb := make([]int, len(insns))
	for j, insn := range insns {
		ra[j], rb[j] = a.insnIdx[insn], b.insnIdx[insn]
	}
	for r := range a.resources {
		single := false
		for q := range b.resources {
			ok := true
			for j := range insns {
				x, y := a.exact[ra[j]][r], b.exact[rb[j]][q]
				if x != nil && (y == nil || x.Cmp(y) > 0) {
					ok = false
					break
				}
			}
			if ok {
				single = true
				break
			}
		}
		if single {
			continue
		}
		// λ ≥ 0, Σλ = 1, Σ_q λ_q·ρ_b(i,q) ≥ ρ_a(i,r) for every i.
		p := &solver.Problem{}
		lambda := make([]int, len(b.resources))
		var sum []solver.Term
		for q := range b.resources {
			lambda[q] = p.AddVar(fmt.Sprintf("l%d", q), 0, 1, false)
			sum = append(sum, solver.Term{Var: lambda[q], Coeff: 1})
		}
		p.AddConstraint("convex", sum, solver.Equal, 1)
		for j := range insns {
			x := a.load[ra[j]][r]
			if x == 0 {
				continue
			}
			var ts []solver.Term
			for q := range b.resources {
				if y := b.load[rb[j]][q]; y > 0 {
					ts = append(ts, solver.Term{Var: lambda[q], Coeff: y})
				}
			}
			if len(ts) == 0 {
				return r, false
			}
			p.AddConstraint(insns[j], ts, solver.GreaterEq, x-1e-9)
		}
		if _, err := (solver.LP{}).Solve(context.Background(), p); err != nil {
			return r, false
		}
	}
	return 0, true
}
