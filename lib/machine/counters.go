package machine

import (
	"fmt"
	"strings"

	"github.com/portlab/portlab/lib/isa"
)

// UopCounter says what a machine's total-µop counter counts.
type UopCounter string

// What a total-µop counter counts.
const (
	// Uops: every form counts its µops in the mapping (the zero value
	// means the same).
	Uops UopCounter = "uops"
	// MacroOps: AMD's Zen counter (PMCx0C1) counts macro-ops: every form
	// counts its µops less the ones UncountedUops says the counter leaves
	// out (thesis §6.3.1, Postulate 6.5).
	MacroOps UopCounter = "macro-ops"
)

// Counters says what a machine's counters count.
type Counters struct {
	// Uops is what the total-µop counter counts ("": Uops).
	Uops UopCounter
	// Counted lists the forms that count otherwise than Uops says: what
	// the counter counts per execution of each. On Zen+ the 8-bit
	// read-modify-write add m8, imm8 counts one macro-op, one fewer than
	// Postulate 6.5 gives it (thesis §6.3.5).
	Counted map[string]int
}

// Counted returns what the machine's total-µop counter counts per
// execution of each mapped form where that is not its number of µops in
// Mapping, or nil when every form counts its µops. It is what
// oracle.Simulated.Counted takes. Under MacroOps a form counts its µops
// less UncountedUops (never below 0; a form UncountedUops cannot read
// counts its µops — Validate reports both), unless Counters.Counted lists
// it. Forms Counters.Counted lists that Mapping does not map are left
// out.
func (m *Machine) Counted() map[string]int {
	if m.Counters.Uops != MacroOps && len(m.Counters.Counted) == 0 {
		return nil
	}
	counted := map[string]int{}
	if m.Counters.Uops == MacroOps {
		for _, insn := range m.Mapping.Instructions() {
			uops := m.Mapping.NumUops(insn)
			if n, err := UncountedUops(insn); err == nil {
				counted[insn] = max(uops-n, 0)
			} else {
				counted[insn] = uops
			}
		}
	}
	for insn, n := range m.Counters.Counted {
		if m.Mapping.Has(insn) {
			counted[insn] = n
		}
	}
	return counted
}

// UncountedUops returns the µops that AMD's Zen+ µop counter (PMCx0C1,
// which counts macro-ops) does not count for the x86 scheme form, by the
// thesis's Postulate 6.5: one per memory operand of at most 128 bits and
// two per 256-bit memory operand, except for lea and loading moves (a mov
// or vmov that reads memory into a register). It returns an error for a
// name that is no x86 scheme (isa.ParseScheme).
func UncountedUops(form string) (int, error) {
	f, err := isa.ParseScheme(form)
	if err != nil {
		return 0, fmt.Errorf("machine: Postulate 6.5 needs an x86 scheme: %w", err)
	}
	mn := strings.ToLower(f.Mnemonic)
	if mn == "lea" {
		return 0, nil
	}
	loadingMove := strings.HasPrefix(mn, "mov") || strings.HasPrefix(mn, "vmov")
	extra := 0
	for _, o := range f.Explicit() {
		if o.Kind != isa.KindMem || o.Width == 0 {
			continue
		}
		if loadingMove && !o.Access.Writes() {
			continue
		}
		if o.Width > 128 {
			extra += 2
		} else {
			extra++
		}
	}
	return extra, nil
}
