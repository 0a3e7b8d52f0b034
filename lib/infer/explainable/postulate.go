package explainable

import (
	"errors"
	"fmt"

	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/oracle"
)

// Postulate65 returns the µops that AMD's Zen+ µop counter (PMCx0C1, which
// counts macro-ops) does not count for the x86 scheme insn, by the thesis's
// Postulate 6.5: one per memory operand of at most 128 bits and two per
// 256-bit memory operand, except for lea and loading moves (a mov or vmov
// that reads memory into a register). It returns an error for a name that
// is no x86 scheme (isa.ParseScheme). The rule is the counter semantic
// machine.MacroOps of package machine; this is machine.UncountedUops.
func Postulate65(insn string) (int, error) {
	n, err := machine.UncountedUops(insn)
	if err != nil {
		return 0, fmt.Errorf("explainable: Postulate 6.5 needs an x86 scheme: %w", errors.Unwrap(err))
	}
	return n, nil
}

// measuring returns the oracle the method measures with: o, asked repeats
// times per experiment for the median (oracle.Repeat; the thesis took 11
// on Zen+, §6.3.1) when repeats is above 1, with its µop counts corrected
// by Postulate65 (oracle.CorrectUops) when the counter counts macro-ops.
// Both pass batches on to o, so that the host's benchmarker visits a
// batch's experiments, repeats included, in its interleaved passes.
func (m *Method) measuring(o oracle.Oracle, repeats int) (oracle.Oracle, error) {
	if repeats > 1 {
		var err error
		if o, err = oracle.Repeat(o, repeats); err != nil {
			return nil, fmt.Errorf("explainable: %w", err)
		}
	}
	if m.MacroOps {
		o = oracle.CorrectUops(o, Postulate65)
	}
	return o, nil
}
