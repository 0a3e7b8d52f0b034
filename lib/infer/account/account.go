// Package account is the per-instruction account that the counter-based
// inference methods share: uops.info's blocking-instruction algorithm
// (package infer/uopsinfo; thesis Algorithm 6.1) and the explainable
// method (package infer/explainable; thesis Ch. 6) both decide every
// instruction by blocking experiments and report, for each, one Insn:
// what they concluded (Outcome), the µops mapped, the experiments that
// decided it (Evidence) and why it is not mapped.
package account

import (
	"fmt"

	"github.com/portlab/portlab/lib/portmap"
)

// Outcome is what a method concluded about an instruction.
type Outcome int

// The outcomes of both methods; Mapped reports which put the instruction
// in the mapping.
const (
	// Pending: not decided (yet): not measured with the blocking
	// instructions, e.g. after an interrupt.
	Pending Outcome = iota
	// Blocking: a blocking instruction: one µop, on the ports found alone
	// (uops.info) or by SMT over its class's representative (explainable
	// stage 4).
	Blocking
	// ImproperBlocking: a two-µop blocking instruction mapped by stage 4
	// of the explainable method (thesis §6.3.4).
	ImproperBlocking
	// Equivalent: in a blocking class, mapped like its representative
	// (explainable stage 2).
	Equivalent
	// Mapped: the explainable method's stage 5 found µops that add up to
	// the µop count and predict its throughput alone.
	Mapped
	// CountDiffers: the µops found predict its throughput alone, but their
	// number is not the µop count (mapped unless StrictCounts).
	CountDiffers
	// CountDiffersUnmapped: as CountDiffers, left out (StrictCounts).
	CountDiffersUnmapped
	// Incomplete: fewer µops were found than it retires, or the µops found
	// do not explain it: some run on port sets no blocking instruction
	// blocks.
	Incomplete
	// Inconsistent: the counters disagree with the port-mapping model: a
	// count that is not a whole number, µops left over that are negative
	// or more than it retires, ports used alone that no µop found uses.
	Inconsistent
	// Unstable: the runs of the explainable method's stage 5 disagree.
	Unstable
	// Excluded: not a blocking candidate and not measured further, or its
	// class was left out of stage 4 (explainable).
	Excluded
	// Failed: a measurement failed.
	Failed
	// Resolved: uops.info's µops found with the blocking instructions add
	// up to the µops it retires and use the ports it uses alone.
	Resolved
	// StoreBlocking: uops.info's store blocker: two µops, one on each of
	// two port sets that no single-µop instruction blocks; it blocks both
	// for the others. That it has one µop on each set is assumed from its
	// counts, not shown.
	StoreBlocking
)

var outcomeNames = [...]string{"pending", "blocking", "improper blocking", "equivalent", "mapped", "mapped, count differs",
	"count differs", "incomplete", "inconsistent", "unstable", "excluded", "failed", "resolved", "store blocking"}

// String returns the outcome's name, e.g. "resolved".
func (o Outcome) String() string {
	if o < 0 || int(o) >= len(outcomeNames) {
		return fmt.Sprintf("Outcome(%d)", int(o))
	}
	return outcomeNames[o]
}

// MarshalText returns the outcome's name, for the reports' JSON.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// Mapped reports whether an instruction with this outcome is in the
// inferred mapping.
func (o Outcome) Mapped() bool {
	switch o {
	case Blocking, ImproperBlocking, Equivalent, Mapped, CountDiffers, Resolved, StoreBlocking:
		return true
	}
	return false
}

// Insn is a method's account of one instruction.
type Insn struct {
	Insn    string
	Outcome Outcome
	// Why says why the instruction is not mapped, or what disagrees, with
	// the values that show it.
	Why string `json:",omitempty"`
	// Uops are the µops found (for a blocking instruction its one µop, or
	// those stage 4 mapped); they are its decomposition when
	// Outcome.Mapped().
	Uops []portmap.Uop `json:",omitempty"`
	// Cycles and Counted are its measurement alone: inverse throughput and
	// µops counted (corrected when the method corrects macro-ops).
	Cycles, Counted float64
	// PortUops are its µops per port alone and Used the ports it uses
	// alone (methods that read per-port counters).
	PortUops []float64       `json:",omitempty"`
	Used     portmap.PortSet `json:",omitempty"`
	// Rep is the representative of its blocking class (Equivalent).
	Rep string `json:",omitempty"`
	// Evidence are the blocking experiments that decided it, in order.
	Evidence []Evidence `json:",omitempty"`
	// Runs are its decompositions, one per run, for methods that run
	// their blocking experiments several times (the explainable method's
	// stage 5; Evidence is then the deciding run's).
	Runs []Decomposition `json:",omitempty"`
}

// Evidence is one measurement of an instruction i with Copies copies of
// the blocking instruction for Ports, and what it showed: Uops, the whole
// number of Surplus, are i's µops whose port set is exactly Ports, after
// Subsets, the µops of i found before on proper subsets of Ports.
type Evidence struct {
	Blocker string
	Ports   portmap.PortSet
	Copies  int
	// OnPorts (per-port counters) is the µops counted on Ports per
	// execution of {Blocker ↦ Copies, i ↦ 1}: Surplus = OnPorts − Copies −
	// Subsets.
	OnPorts float64 `json:",omitempty"`
	// Blocked and WithInsn (cycles and the µop counter) are the inverse
	// throughputs of {Blocker ↦ Copies} and {Blocker ↦ Copies, i ↦ 1}:
	// Surplus = (WithInsn − Blocked)·|Ports| − Subsets.
	Blocked  float64 `json:",omitempty"`
	WithInsn float64 `json:",omitempty"`
	Subsets  int
	Surplus  float64
	Uops     int
}

// Decomposition is one attempt to decompose an instruction with blocking
// experiments (one run of the explainable method's stage 5).
type Decomposition struct {
	Insn string
	// Cycles and Uops are its measurement alone.
	Cycles, Uops float64
	// Found are the µops found; Complete is set when they add up to Uops
	// and predict Cycles, and Problem says otherwise why not, with the
	// values.
	Found     []portmap.Uop
	Witnesses []Evidence
	Complete  bool
	Problem   string
	// Predicted is the inverse throughput alone of the µops found (with
	// the front-end cap); Fits reports that it is Cycles within epsilon.
	Predicted float64
	Fits      bool
}
