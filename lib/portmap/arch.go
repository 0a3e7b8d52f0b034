package portmap

import (
	"fmt"
	"strings"
)

// Architecture names the ports of a processor and the instruction forms a
// mapping or an experiment set talks about. Its port list fixes the meaning of
// PortSet bits; its instruction list fixes the indices of indexed experiments.
// An Architecture is immutable once built and may be shared by many mappings.
type Architecture struct {
	name    string
	ports   []string
	insns   []string
	portIdx map[string]int
	insnIdx map[string]int
}

// NewArchitecture returns an architecture with the given name (which may be
// empty), port names and instruction names. It returns an error for no ports
// or more than MaxPorts, an empty port or instruction name, a port name with
// surrounding spaces, or a name given twice.
func NewArchitecture(name string, ports, insns []string) (*Architecture, error) {
	if len(ports) == 0 {
		return nil, fmt.Errorf("portmap: architecture %q has no ports", name)
	}
	if len(ports) > MaxPorts {
		return nil, fmt.Errorf("portmap: architecture %q has %d ports, at most %d are supported", name, len(ports), MaxPorts)
	}
	a := &Architecture{
		name:    name,
		ports:   append([]string(nil), ports...),
		insns:   append([]string(nil), insns...),
		portIdx: make(map[string]int, len(ports)),
		insnIdx: make(map[string]int, len(insns)),
	}
	for k, p := range a.ports {
		if p == "" || strings.TrimSpace(p) != p {
			return nil, fmt.Errorf("portmap: port %d has an invalid name %q", k, p)
		}
		if j, dup := a.portIdx[p]; dup {
			return nil, fmt.Errorf("portmap: duplicate port name %q (ports %d and %d)", p, j, k)
		}
		a.portIdx[p] = k
	}
	for i, s := range a.insns {
		if s == "" {
			return nil, fmt.Errorf("portmap: instruction %d has an empty name", i)
		}
		if j, dup := a.insnIdx[s]; dup {
			return nil, fmt.Errorf("portmap: duplicate instruction %q (entries %d and %d)", s, j, i)
		}
		a.insnIdx[s] = i
	}
	return a, nil
}

// Name returns the architecture's name, e.g. "SKL".
func (a *Architecture) Name() string { return a.name }

// Ports returns a copy of the port names; index k names bit k of a PortSet.
func (a *Architecture) Ports() []string { return append([]string(nil), a.ports...) }

// NumPorts returns the number of ports.
func (a *Architecture) NumPorts() int { return len(a.ports) }

// PortName returns the name of port k.
func (a *Architecture) PortName(k int) string { return a.ports[k] }

// Port returns the index of the named port.
func (a *Architecture) Port(name string) (int, bool) {
	k, ok := a.portIdx[name]
	return k, ok
}

// AllPorts returns the set of all ports.
func (a *Architecture) AllPorts() PortSet {
	if len(a.ports) == MaxPorts {
		return ^PortSet(0)
	}
	return PortSet(1)<<uint(len(a.ports)) - 1
}

// PortSet returns the set of the named ports, or an error naming a port the
// architecture does not have.
func (a *Architecture) PortSet(names ...string) (PortSet, error) {
	s, err := a.portSet(names...)
	if err != nil {
		return 0, fmt.Errorf("portmap: %w", err)
	}
	return s, nil
}

func (a *Architecture) portSet(names ...string) (PortSet, error) {
	var s PortSet
	for _, n := range names {
		k, ok := a.portIdx[n]
		if !ok {
			return 0, fmt.Errorf("unknown port %q (architecture %q has %s)", n, a.name, strings.Join(a.ports, ", "))
		}
		s |= 1 << uint(k)
	}
	return s, nil
}

// PortNames returns the names of the ports in s.
func (a *Architecture) PortNames(s PortSet) []string {
	var out []string
	for _, k := range s.Indices() {
		if k < len(a.ports) {
			out = append(out, a.ports[k])
		}
	}
	return out
}

// Instructions returns a copy of the instruction names in index order.
func (a *Architecture) Instructions() []string { return append([]string(nil), a.insns...) }

// NumInstructions returns the number of instructions.
func (a *Architecture) NumInstructions() int { return len(a.insns) }

// InstructionName returns the name of instruction i.
func (a *Architecture) InstructionName(i int) string { return a.insns[i] }

// Instruction returns the index of the named instruction.
func (a *Architecture) Instruction(name string) (int, bool) {
	i, ok := a.insnIdx[name]
	return i, ok
}

// withInstruction returns a copy of a with one more instruction.
func (a *Architecture) withInstruction(name string) *Architecture {
	b := &Architecture{
		name:    a.name,
		ports:   a.ports,
		insns:   append(append(make([]string, 0, len(a.insns)+1), a.insns...), name),
		portIdx: a.portIdx,
		insnIdx: make(map[string]int, len(a.insns)+1),
	}
	for k, v := range a.insnIdx {
		b.insnIdx[k] = v
	}
	b.insnIdx[name] = len(a.insns)
	return b
}

// Index returns e with instruction names replaced by indices into a. It
// returns an error naming the first instruction a does not know.
func (a *Architecture) Index(e Experiment) (Indexed, error) {
	ix := Indexed{Arch: a, Terms: make([]Term, len(e.items))}
	for j, it := range e.items {
		i, ok := a.insnIdx[it.Insn]
		if !ok {
			return Indexed{}, fmt.Errorf("portmap: experiment %s: unknown instruction %q (not in architecture %q)", e, it.Insn, a.name)
		}
		ix.Terms[j] = Term{Insn: int32(i), Count: int32(it.Count)}
	}
	return ix, nil
}
