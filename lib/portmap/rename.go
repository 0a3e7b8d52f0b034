package portmap

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"
)

// Renamed returns a copy of m with port k moved to index perm[k]; names are
// moved along unless names is non-nil, in which case the new mapping's ports
// are named by names. perm must be a permutation of 0..NumPorts()-1.
func (m *Mapping) Renamed(perm []int, names []string) (*Mapping, error) {
	k := m.NumPorts()
	if len(perm) != k {
		return nil, fmt.Errorf("portmap: permutation has %d entries, mapping has %d ports", len(perm), k)
	}
	seen := make([]bool, k)
	for _, p := range perm {
		if p < 0 || p >= k || seen[p] {
			return nil, fmt.Errorf("portmap: %v is not a permutation of 0..%d", perm, k-1)
		}
		seen[p] = true
	}
	if names != nil && len(names) != k {
		return nil, fmt.Errorf("portmap: %d port names for %d ports", len(names), k)
	}
	if names == nil {
		names = make([]string, k)
		for old, nw := range perm {
			names[nw] = m.arch.ports[old]
		}
	}
	arch, err := NewArchitecture(m.arch.name, names, m.arch.insns)
	if err != nil {
		return nil, err
	}
	out := NewMappingFor(arch)
	for i, ok := range m.set {
		if !ok {
			continue
		}
		uops := make([]Uop, len(m.uops[i]))
		for j, u := range m.uops[i] {
			uops[j] = Uop{Ports: permute(u.Ports, perm), Count: u.Count}
		}
		if err := out.Set(m.arch.insns[i], uops...); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func permute(s PortSet, perm []int) PortSet {
	var t PortSet
	for _, k := range s.Indices() {
		t |= 1 << uint(perm[k])
	}
	return t
}

// EquivalentByRenaming reports whether b is a (and so predicts the same
// throughput as a for every experiment) up to a renaming of ports (thesis
// Def. 3.16, Fig. 3.9). Both must map the same instructions with the same
// number of ports. On success it returns perm with perm[k] = the port of b
// that port k of a becomes.
//
// Ports are first told apart by an invariant (refined colours, as in
// Weisfeiler–Lehman refinement) and the renaming is then found by
// backtracking within colour classes, so it is fast for real mappings and
// exponential only for highly symmetric ones.
func EquivalentByRenaming(a, b *Mapping) ([]int, bool) {
	k := a.NumPorts()
	if k != b.NumPorts() || a.Len() != b.Len() {
		return nil, false
	}
	names := a.Instructions()
	bu := make([][]Uop, len(names))
	au := make([][]Uop, len(names))
	for i, n := range names {
		u, ok := b.Uops(n)
		if !ok {
			return nil, false
		}
		bu[i] = u
		au[i], _ = a.Uops(n)
		if len(au[i]) != len(bu[i]) {
			return nil, false
		}
	}
	ca, cb := portColours(au, k), portColours(bu, k)
	// completes[p] lists the µops of a whose highest port is p: once ports
	// 0..p are assigned, their images must be µops of b.
	type ref struct{ insn, uop int }
	completes := make([][]ref, k)
	for i := range au {
		for j, u := range au[i] {
			hi := 63 - bits.LeadingZeros64(uint64(u.Ports))
			completes[hi] = append(completes[hi], ref{i, j})
		}
	}
	perm := make([]int, k)
	used := make([]bool, k)
	imageOK := func(p int) bool {
		for _, r := range completes[p] {
			u := au[r.insn][r.uop]
			img := permute(u.Ports, perm)
			found := false
			for _, v := range bu[r.insn] {
				if v.Ports == img {
					found = v.Count == u.Count
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	var try func(p int) bool
	try = func(p int) bool {
		if p == k {
			return true // every µop of a has its image in b, and the lists have equal lengths
		}
		for q := 0; q < k; q++ {
			if used[q] || ca[p] != cb[q] {
				continue
			}
			used[q], perm[p] = true, q
			if imageOK(p) && try(p+1) {
				return true
			}
			used[q] = false
		}
		return false
	}
	if !try(0) {
		return nil, false
	}
	return perm, true
}

// portColours computes a renaming-invariant colour per port from the µop
// lists (indexed by instruction in a common order).
func portColours(uops [][]Uop, k int) []string {
	col := make([]string, k)
	for round := 0; round < 3; round++ {
		next := make([]string, k)
		for p := 0; p < k; p++ {
			var sig []string
			for i, us := range uops {
				for _, u := range us {
					if !u.Ports.Has(p) {
						continue
					}
					var co []string
					for _, q := range u.Ports.Indices() {
						co = append(co, col[q])
					}
					sort.Strings(co)
					sig = append(sig, fmt.Sprintf("%d:%d:%s", i, u.Count, strings.Join(co, ",")))
				}
			}
			sort.Strings(sig)
			next[p] = strings.Join(sig, ";")
		}
		// Compress colours to short ids so that strings stay small.
		ids := map[string]string{}
		sorted := append([]string(nil), next...)
		sort.Strings(sorted)
		for _, s := range sorted {
			if _, ok := ids[s]; !ok {
				ids[s] = fmt.Sprint(len(ids))
			}
		}
		for p := range next {
			col[p] = ids[next[p]]
		}
	}
	return col
}
