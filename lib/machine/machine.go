package machine

import (
	"fmt"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// Machine describes a machine: its port mapping, its front end, what its
// counters count and, for a block simulator, its latencies, reorder buffer,
// issue and retire widths and load and store ports. Only Name and Mapping
// are required; the zero value of every other field means "not described"
// (no front-end bound, a µop counter that counts µops, no latencies).
//
// A Machine is plain data: copy it and change a field (a smaller Mapping,
// another InstructionsPerCycle) to describe a variant. Read and Parse
// check a description (Validate); a Machine built in Go should be checked
// with Validate before use.
type Machine struct {
	// Name names the machine, e.g. "portlab:zenplus-like".
	Name string
	// Vendor is the maker of the machine modelled, e.g. "AMD" (optional).
	Vendor string
	// Description says what the machine is and where its numbers come
	// from (optional).
	Description string
	// Mapping is the port mapping: the µops of every instruction form and
	// the ports each µop may run on.
	Mapping *portmap.Mapping
	// MappingSource is the data-set name or file path the mapping was read
	// from (as written in the description), or "" when it is given inline.
	// Write writes the reference instead of the mapping when it is set.
	MappingSource string
	// FrontEnd is the bound of the front end; its fields are promoted, so
	// m.InstructionsPerCycle is m.FrontEnd.InstructionsPerCycle.
	FrontEnd
	// Counters says what the machine's counters count.
	Counters Counters
	// Latencies are the latencies of the forms that have one (for a block
	// simulator; none of the throughput models reads them).
	Latencies map[string]Latency
	// ReorderBuffer is the number of µops the reorder buffer holds (0:
	// not described).
	ReorderBuffer int
	// IssueWidth and RetireWidth are the µops issued into and retired
	// from the out-of-order engine per cycle (0: not described).
	IssueWidth, RetireWidth int
	// LoadPorts and StorePorts are the mapping's ports that execute loads
	// and stores (empty: not described).
	LoadPorts, StorePorts []string
	// Memory describes how values travel through memory (the zero value:
	// not described).
	Memory Memory
	// MergeLatency is the latency in cycles from an XMM register's old
	// value to the result of a legacy-SSE (not VEX-encoded) instruction
	// that writes it, on a core that keeps the rest of the vector
	// register by merging (0: no merge). Zero idioms such as pxor xmm0,
	// xmm0 merge too: they do not break the chain.
	MergeLatency int
	// MergeWhen says when legacy-SSE writes merge: always (""), or only
	// in a loop that leaves the upper halves of the vector registers in
	// use (MergeDirtyUpper: a block that writes a YMM or ZMM register
	// with a VEX or EVEX instruction and runs no vzeroupper), as on a
	// core that tracks the upper halves as zero otherwise.
	MergeWhen string
	// AddressIncrementLatency is the latency in cycles of adding a
	// constant to a register that the block also uses as an address
	// (add, sub, inc, dec of an address register: a pointer or index
	// stepping through an array), where the core runs such a chain
	// faster than its ALU latency (0: not described; the form's latency
	// applies).
	AddressIncrementLatency float64
	// ComplexLEALatency is the latency in cycles of an x86 lea whose
	// address adds base, index and displacement, on cores that compute
	// such an address in more cycles than a simpler one (0: not described; the form's latency applies).
	ComplexLEALatency float64
	// ComplexLEAFrom says which inputs of such an lea take
	// ComplexLEALatency: "" every register input, ComplexLEAFromBase only
	// the base register (the index then takes the form's latency).
	ComplexLEAFrom string
	// Chains are groups of forms whose results reach each other faster
	// than their latencies say: an instruction of a chain's forms that
	// reads a register another instruction of them wrote takes Cycles
	// from that input (the latencies from other producers apply
	// otherwise). Zen 5's floating-point adders, for one, pass a sum to
	// the next add in 2 cycles but take 3 from a multiply or a load.
	Chains []Chain
	// Fusions are pairs of adjacent instructions that the core dispatches
	// as one (0 pairs: none fuse).
	Fusions []Fusion
	// Wakeup describes what an operation costs that reads the result of
	// another in the same iteration (nil: nothing more than its µops).
	Wakeup *Wakeup
}

// Wakeup is the cost of reading a result just computed: an instruction of
// Forms that reads a register written in the same iteration by a head —
// an instruction of Forms that reads no register another of them wrote
// before it — holds the resources of its µops Cost times as long.
type Wakeup struct {
	Forms []string
	Cost  float64
}

// Fusion is a pair of adjacent instructions that the core dispatches as
// one: an instruction of a First form directly followed by one of a
// Second form that reads and writes the register the first one writes
// takes one front-end slot for both. Zen 5 fuses a register move with the
// ALU operation on its copy this way (mov rdx, rdi; and rdx, -4).
type Fusion struct {
	// First and Second are the forms of the pair's instructions, in
	// program order; all must be mapped.
	First, Second []string
}

// MergeDirtyUpper is the MergeWhen of a core whose legacy-SSE writes
// merge only while the upper halves of the vector registers are in use.
const MergeDirtyUpper = "dirty-upper"

// Chain is a group of forms that pass values to each other in Cycles.
type Chain struct {
	// Forms are the forms of the group; all must be mapped.
	Forms []string
	// Cycles is the latency from an input that one of Forms wrote.
	Cycles float64
}

// Memory describes how values travel through memory, measured by chains
// of stores and loads (Ritter's thesis, §3.2.1: latencies by dependency
// chains). Zero fields are not described.
type Memory struct {
	// LoadLatency is the load-to-use latency in cycles that the latencies
	// of forms with a memory input include (the form's latency from its
	// memory operand is its register latency plus LoadLatency).
	LoadLatency int
	// StoreForwardLatency is the latency in cycles from a store's data to
	// the value a later load of the same bytes reads into a
	// general-purpose register, forwarded from the store; it replaces
	// LoadLatency on that path. VectorStoreForwardLatency is the same
	// into a vector register (0: as StoreForwardLatency).
	StoreForwardLatency, VectorStoreForwardLatency int
	// Renaming says that a load from the address of an earlier store of
	// a 32- or 64-bit general-purpose register, written the same way (the
	// same base and index registers, scale and displacement), reads the
	// stored register directly, with no latency, as AMD's Zen cores do
	// with their memory file (Agner Fog, "The microarchitecture of Intel,
	// AMD and VIA CPUs", Zen 2: "mirroring memory operands"); byte and
	// word stores are forwarded.
	Renaming bool
	// RenamingBy says which loads Renaming pairs with a store: "" (the
	// same registers, as above) or RenameByAddress (any load of the bytes
	// the store wrote, whichever registers address them).
	RenamingBy string
}

// ComplexLEAFromBase is the Machine.ComplexLEAFrom of a core whose
// three-component lea is slow from its base register only: on the Zen 5
// host a chain through the base of lea rbx, [rbx+r10-4] takes 2 cycles an
// iteration, one through the index of lea rbx, [r10+rbx-4] takes 1
// (bench/results/zen5-renaming-20261128, lea probes).
const ComplexLEAFromBase = "base"

// RenameByAddress is the Memory.RenamingBy of a core whose memory file
// pairs a load with the store of the same bytes through whichever
// registers address them: on the Zen 5 host, a loop that loads a value
// through one base register and stores it through another holding the
// same address runs at its port bound (bench/results/zen5-probes-20261128),
// where a forwarded chain would take the forwarding latency each iteration.
const RenameByAddress = "address"

// FrontEnd is the front end of a machine: how many instructions and µops
// it delivers per cycle at most. Zero fields mean no limit.
type FrontEnd struct {
	// InstructionsPerCycle is the front end's peak (0: none): no
	// experiment e runs faster than |e|/InstructionsPerCycle cycles
	// (thesis §3.2.2; §6.3.3 measured 5 on Zen+).
	InstructionsPerCycle float64
	// UopsPerCycle bounds the µops per cycle in the same way (0: none).
	UopsPerCycle float64
	// DecodeWidth is the number of instructions the decoders take per
	// cycle (0: not described). No throughput model reads it; a block
	// simulator will.
	DecodeWidth int
}

// Bound returns the bound package throughput applies for the front end.
func (f FrontEnd) Bound() throughput.FrontEnd {
	return throughput.FrontEnd{InstructionsPerCycle: f.InstructionsPerCycle, UopsPerCycle: f.UopsPerCycle}
}

// Latency is the latency of an instruction form in cycles: Cycles from its
// inputs to its outputs, and, where operand pairs differ, Operands.
type Latency struct {
	Cycles   int
	Operands []OperandLatency
}

// OperandLatency is the latency from an input operand of a form to an
// output operand. From and To index the form's operands as isa.ParseScheme
// lists them: the explicit operands in assembly order (Intel syntax,
// destination first), then the implicit ones (flags).
type OperandLatency struct {
	From, To int
	Cycles   int
}

// String describes the machine in one line.
func (m *Machine) String() string {
	s := fmt.Sprintf("%s: %s on %s", m.Name, portmap.Count(m.Mapping.Len(), "instruction"), portmap.Count(m.Mapping.NumPorts(), "port"))
	if m.InstructionsPerCycle > 0 {
		s += fmt.Sprintf(", peak %g instructions per cycle", m.InstructionsPerCycle)
	}
	if m.UopsPerCycle > 0 {
		s += fmt.Sprintf(", peak %g µops per cycle", m.UopsPerCycle)
	}
	if counted := m.Counted(); len(counted) > 0 {
		what := "macro-ops"
		if m.Counters.Uops != MacroOps {
			what = "µops"
		}
		s += fmt.Sprintf(", µop counter counts %s (%d instructions count fewer than their µops)", what, countedFewer(m.Mapping, counted))
	}
	return s
}

func countedFewer(m *portmap.Mapping, counted map[string]int) int {
	n := 0
	for insn, c := range counted {
		if c < m.NumUops(insn) {
			n++
		}
	}
	return n
}

// Oracle returns a simulated oracle that behaves like the machine: its
// mapping's exact throughput (with relative noise as oracle.Simulate),
// capped by the front end, and its µop counter's counts (Counted).
func (m *Machine) Oracle(noise float64, seed uint64) *oracle.Simulated {
	s := oracle.Simulate(m.Mapping, noise, seed)
	if b := m.FrontEnd.Bound(); b != (throughput.FrontEnd{}) {
		s.Model = s.Model.WithFrontEnd(b)
	}
	s.Counted = m.Counted()
	return s
}

// Predictor returns the machine's exact predictor: its mapping with the
// front end's bound.
func (m *Machine) Predictor() *oracle.MappingPredictor {
	p := oracle.FromMapping(m.Mapping)
	p.Label = m.Name
	p.FrontEnd = m.FrontEnd.Bound()
	return p
}
