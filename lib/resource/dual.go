package resource

import (
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/portlab/portlab/lib/portmap"
)

// NablaClosure returns the ∇-closure of m's µops (PALMED, end of App. A.2):
// the port sets of the µops that occur, with the union of any two
// intersecting sets added until nothing changes, sorted by size and then
// by ports. Its dual predicts exactly the bottleneck throughput of m, as
// the dual over all port subsets does (a minimal saturated port set is a
// union of transitively overlapping µop port sets).
func NablaClosure(m *portmap.Mapping) []portmap.PortSet {
	set := map[portmap.PortSet]bool{}
	for _, insn := range m.Instructions() {
		uops, _ := m.Uops(insn)
		for _, u := range uops {
			set[u.Ports] = true
		}
	}
	return closure(set)
}

// Closure returns the ∇-closure of the given port sets (see NablaClosure).
func Closure(sets []portmap.PortSet) []portmap.PortSet {
	set := map[portmap.PortSet]bool{}
	for _, s := range sets {
		if s != 0 {
			set[s] = true
		}
	}
	return closure(set)
}

func closure(set map[portmap.PortSet]bool) []portmap.PortSet {
	list := sortedSets(set)
	for changed := true; changed; {
		changed = false
		n := len(list)
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				if u := list[a] | list[b]; list[a]&list[b] != 0 && !set[u] {
					set[u] = true
					list = append(list, u)
					changed = true
				}
			}
		}
	}
	return sortedSets(set)
}

func sortedSets(set map[portmap.PortSet]bool) []portmap.PortSet {
	out := make([]portmap.PortSet, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Slice(out, func(a, b int) bool {
		if la, lb := out[a].Len(), out[b].Len(); la != lb {
			return la < lb
		}
		return out[a] < out[b]
	})
	return out
}

// NablaAll returns every non-empty subset of the first n ports, sorted
// like NablaClosure: the ∇ of Thm A.2, for which the dual is exact by
// construction. It panics for n outside 0..20 (2ⁿ resources).
func NablaAll(n int) []portmap.PortSet {
	if n < 0 || n > 20 {
		panic(fmt.Sprintf("resource: NablaAll(%d): want 0 to 20 ports", n))
	}
	set := map[portmap.PortSet]bool{}
	for s := portmap.PortSet(1); s < 1<<uint(n); s++ {
		set[s] = true
	}
	return sortedSets(set)
}

// SetName names the resource of port set s of m's ports: "r" followed by
// the port names when they are all one character ("r016"), otherwise the
// names joined by "+" ("r:p0+p1").
func SetName(m *portmap.Mapping, s portmap.PortSet) string {
	names := m.Arch().PortNames(s)
	short := true
	for _, n := range names {
		if len([]rune(n)) != 1 {
			short = false
		}
	}
	if short {
		return "r" + strings.Join(names, "")
	}
	return "r:" + strings.Join(names, "+")
}

// Dual returns the ∇-dual of the port mapping m (PALMED Def. A.5): one
// resource r_J per port set J of nabla, named by SetName, and for every
// instruction i
//
//	ρ(i, r_J) = Σ_{µops u of i with ports(u) ⊆ J} count(u) / |J|.
//
// Ports have throughput 1. For any ∇ the dual never predicts more cycles
// than m (Thm A.1); with NablaAll or NablaClosure it predicts exactly m's
// bottleneck throughput. It returns an error for an empty or repeated set
// in nabla or a set with ports m does not have.
func Dual(m *portmap.Mapping, nabla []portmap.PortSet) (*Mapping, error) {
	all := m.Arch().AllPorts()
	names := make([]string, len(nabla))
	for j, s := range nabla {
		if s == 0 || !s.SubsetOf(all) {
			return nil, fmt.Errorf("resource: dual of %s: ∇ element %d, %v, is empty or has ports outside the mapping's %d", m.Name(), j, s, m.NumPorts())
		}
		names[j] = SetName(m, s)
	}
	d, err := New(m.Name()+" (dual)", names...)
	if err != nil {
		return nil, err
	}
	for _, insn := range m.Instructions() {
		uops, _ := m.Uops(insn)
		i, _ := d.AddInstruction(insn)
		for r, s := range nabla {
			n := int64(0)
			for _, u := range uops {
				if u.Ports.SubsetOf(s) {
					n += int64(u.Count)
				}
			}
			if n > 0 {
				v := big.NewRat(n, int64(s.Len()))
				f, _ := v.Float64()
				d.exact[i][r], d.load[i][r] = v, f
			}
		}
	}
	return d, nil
}

// DualClosure is Dual over NablaClosure(m).
func DualClosure(m *portmap.Mapping) *Mapping {
	d, err := Dual(m, NablaClosure(m))
	if err != nil {
		panic(err) // the closure consists of m's own non-empty sets
	}
	return d
}
