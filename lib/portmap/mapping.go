package portmap

import (
	"fmt"
	"sort"
	"strings"
)

// Uop is a µop of an instruction's decomposition: Count copies of a µop that
// can run on any one of Ports (thesis Def. 3.9, with µops identified by their
// port sets as in Remark 3.13).
type Uop struct {
	Ports PortSet
	Count int
}

// Mapping is a port mapping: for each instruction of its Architecture, the
// multiset of µops it decomposes into, each µop executable on a set of ports.
// A three-level mapping (instruction → µops → ports) in general; a two-level
// mapping (instruction → ports) is the special case of one µop per
// instruction (see IsTwoLevel). An instruction may have no µops (uops.info
// maps some moves and NOPs to none); it then costs nothing.
//
// Decompositions are kept normalized: µops with equal port sets are merged
// and sorted by port set.
type Mapping struct {
	arch *Architecture
	uops [][]Uop // per instruction index; nil = not mapped
	set  []bool
}

// NewMapping returns a mapping over the named ports with no instructions.
// Add instructions with Set, SetPorts or SetUsage.
func NewMapping(name string, ports ...string) (*Mapping, error) {
	a, err := NewArchitecture(name, ports, nil)
	if err != nil {
		return nil, err
	}
	return &Mapping{arch: a}, nil
}

// MustMapping is NewMapping that panics on error, for examples and literals.
func MustMapping(name string, ports ...string) *Mapping {
	m, err := NewMapping(name, ports...)
	if err != nil {
		panic(err)
	}
	return m
}

// NewMappingFor returns a mapping over a, with every instruction unmapped.
func NewMappingFor(a *Architecture) *Mapping {
	return &Mapping{arch: a, uops: make([][]Uop, a.NumInstructions()), set: make([]bool, a.NumInstructions())}
}

// Arch returns the mapping's architecture. It changes (copy on write) when
// Set adds an instruction the architecture does not have.
func (m *Mapping) Arch() *Architecture { return m.arch }

// Name returns the architecture name.
func (m *Mapping) Name() string { return m.arch.name }

// NumPorts returns the number of ports.
func (m *Mapping) NumPorts() int { return len(m.arch.ports) }

// Ports returns the port names.
func (m *Mapping) Ports() []string { return m.arch.Ports() }

// Instructions returns the names of the mapped instructions in index order.
func (m *Mapping) Instructions() []string {
	out := make([]string, 0, len(m.set))
	for i, ok := range m.set {
		if ok {
			out = append(out, m.arch.insns[i])
		}
	}
	return out
}

// Len returns the number of mapped instructions.
func (m *Mapping) Len() int {
	n := 0
	for _, ok := range m.set {
		if ok {
			n++
		}
	}
	return n
}

// Has reports whether insn is mapped.
func (m *Mapping) Has(insn string) bool {
	i, ok := m.arch.insnIdx[insn]
	return ok && i < len(m.set) && m.set[i]
}

// Uops returns the decomposition of insn and whether insn is mapped. The
// returned slice must not be modified.
func (m *Mapping) Uops(insn string) ([]Uop, bool) {
	i, ok := m.arch.insnIdx[insn]
	if !ok || i >= len(m.set) || !m.set[i] {
		return nil, false
	}
	return m.uops[i], true
}

// UopsAt returns the decomposition of instruction index i (nil if unmapped).
// The returned slice must not be modified.
func (m *Mapping) UopsAt(i int) []Uop {
	if i < 0 || i >= len(m.uops) {
		return nil
	}
	return m.uops[i]
}

// MappedAt reports whether instruction index i is mapped.
func (m *Mapping) MappedAt(i int) bool { return i >= 0 && i < len(m.set) && m.set[i] }

// Set sets the decomposition of insn, adding insn to the mapping if needed.
// It returns an error for a µop with no ports, a port outside the mapping, or
// a count below 1.
func (m *Mapping) Set(insn string, uops ...Uop) error {
	if insn == "" {
		return fmt.Errorf("portmap: empty instruction name")
	}
	norm, err := NormalizeUops(uops, m.arch.AllPorts())
	if err != nil {
		return fmt.Errorf("portmap: instruction %q: %w", insn, err)
	}
	i, ok := m.arch.insnIdx[insn]
	if !ok {
		m.arch = m.arch.withInstruction(insn)
		i = len(m.arch.insns) - 1
	}
	for len(m.uops) <= i {
		m.uops = append(m.uops, nil)
		m.set = append(m.set, false)
	}
	m.uops[i] = norm
	m.set[i] = true
	return nil
}

// SetPorts makes insn a single µop executable on the named ports: the
// two-level mapping edge set M[insn] of thesis Def. 3.2.
func (m *Mapping) SetPorts(insn string, ports ...string) error {
	s, err := m.arch.portSet(ports...)
	if err != nil {
		return fmt.Errorf("portmap: instruction %q: %w", insn, err)
	}
	return m.Set(insn, Uop{Ports: s, Count: 1})
}

// SetUsage sets the decomposition of insn from uops.info port notation, e.g.
// "1*p0156+2*p23" (see ParseUsage).
func (m *Mapping) SetUsage(insn, usage string) error {
	uops, err := ParseUsage(usage, m.arch)
	if err != nil {
		return fmt.Errorf("portmap: instruction %q: %w", insn, err)
	}
	return m.Set(insn, uops...)
}

// MustSetUsage is SetUsage that panics on error; it returns m so that small
// mappings can be written as one expression.
func (m *Mapping) MustSetUsage(insn, usage string) *Mapping {
	if err := m.SetUsage(insn, usage); err != nil {
		panic(err)
	}
	return m
}

// Delete removes insn from the mapping.
func (m *Mapping) Delete(insn string) {
	if i, ok := m.arch.insnIdx[insn]; ok && i < len(m.set) {
		m.uops[i], m.set[i] = nil, false
	}
}

// Usage returns the decomposition of insn in uops.info notation, or "" if
// insn is not mapped.
func (m *Mapping) Usage(insn string) string {
	u, ok := m.Uops(insn)
	if !ok {
		return ""
	}
	return FormatUsage(u, m.arch)
}

// Clone returns a deep copy of m sharing the immutable architecture.
func (m *Mapping) Clone() *Mapping {
	c := &Mapping{arch: m.arch, uops: make([][]Uop, len(m.uops)), set: append([]bool(nil), m.set...)}
	for i, u := range m.uops {
		if u != nil {
			c.uops[i] = append(make([]Uop, 0, len(u)), u...)
		}
	}
	return c
}

// IsTwoLevel reports whether every mapped instruction is exactly one µop
// with count 1, i.e. m is a two-level mapping (thesis Def. 3.2).
func (m *Mapping) IsTwoLevel() bool {
	for i, ok := range m.set {
		if ok && (len(m.uops[i]) != 1 || m.uops[i][0].Count != 1) {
			return false
		}
	}
	return true
}

// NumUops returns the number of µops of insn (the sum of counts).
func (m *Mapping) NumUops(insn string) int {
	u, _ := m.Uops(insn)
	n := 0
	for _, x := range u {
		n += x.Count
	}
	return n
}

// Volume returns PMEvo's µop volume of the mapping: Σ count·|ports| over all
// µops of all instructions. Smaller volumes mean simpler mappings.
func (m *Mapping) Volume() int {
	v := 0
	for _, u := range m.uops {
		for _, x := range u {
			v += x.Count * x.Ports.Len()
		}
	}
	return v
}

// DistinctUops returns the number of distinct µop port sets used.
func (m *Mapping) DistinctUops() int {
	seen := map[PortSet]bool{}
	for _, u := range m.uops {
		for _, x := range u {
			seen[x.Ports] = true
		}
	}
	return len(seen)
}

// Validate checks the requirements of thesis Defs. 3.2 and 3.9: every µop has
// at least one port of the mapping and a positive count. Mappings built with
// Set are always valid; Validate is for mappings read from elsewhere.
func (m *Mapping) Validate() error {
	for i, ok := range m.set {
		if !ok {
			continue
		}
		if _, err := NormalizeUops(m.uops[i], m.arch.AllPorts()); err != nil {
			return fmt.Errorf("portmap: instruction %q: %w", m.arch.insns[i], err)
		}
	}
	return nil
}

// NormalizeUops checks uops against the port set all and returns them merged
// (equal port sets added up) and sorted by port set. It never returns nil, so
// an instruction with no µops is distinguishable from an unmapped one.
func NormalizeUops(uops []Uop, all PortSet) ([]Uop, error) {
	out := make([]Uop, 0, len(uops))
	for j, u := range uops {
		switch {
		case u.Ports == 0:
			return nil, fmt.Errorf("µop %d has no ports", j)
		case !u.Ports.SubsetOf(all):
			return nil, fmt.Errorf("µop %d uses port indices %v outside the mapping's %d ports", j, (u.Ports &^ all).Indices(), all.Len())
		case u.Count < 1 || u.Count > MaxCount:
			return nil, fmt.Errorf("µop %d has count %d, want 1..%d", j, u.Count, MaxCount)
		}
		out = append(out, u)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Ports < out[b].Ports })
	merged := out[:0]
	for _, u := range out {
		if n := len(merged); n > 0 && merged[n-1].Ports == u.Ports {
			if merged[n-1].Count > MaxCount-u.Count {
				return nil, fmt.Errorf("µops on ports %v: count %d + %d exceeds %d", u.Ports.Indices(), merged[n-1].Count, u.Count, MaxCount)
			}
			merged[n-1].Count += u.Count
			continue
		}
		merged = append(merged, u)
	}
	return merged, nil
}

// String returns a short multi-line listing of the mapping in uops.info
// notation.
func (m *Mapping) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "mapping %s: %s, ports %s\n", m.arch.name, Count(m.Len(), "instruction"), strings.Join(m.arch.ports, " "))
	for i, ok := range m.set {
		if ok {
			fmt.Fprintf(&b, "  %s: %s\n", m.arch.insns[i], FormatUsage(m.uops[i], m.arch))
		}
	}
	return b.String()
}

// UopMass adds to mass the µop multiset of e under m (thesis Remark 3.13(1)):
// e'(u) = Σ_i e(i)·n(i,u). It returns an error naming an instruction m does
// not map.
func (m *Mapping) UopMass(e Experiment) (map[PortSet]int64, error) {
	mass := map[PortSet]int64{}
	for _, it := range e.items {
		u, ok := m.Uops(it.Insn)
		if !ok {
			return nil, &UnknownInstructionError{Insn: it.Insn, Mapping: m.arch.name}
		}
		for _, x := range u {
			mass[x.Ports] += int64(it.Count) * int64(x.Count)
		}
	}
	return mass, nil
}

// UnknownInstructionError reports an experiment naming an instruction that a
// mapping does not map.
type UnknownInstructionError struct {
	Insn    string
	Mapping string
}

func (e *UnknownInstructionError) Error() string {
	return fmt.Sprintf("portmap: unknown instruction %q (not in mapping %q)", e.Insn, e.Mapping)
}
