package explainable

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
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

// MacroOpOracle wraps an oracle whose µop counter counts AMD macro-ops
// and corrects its counts to µops with Postulate65: Measure adds each
// instruction's uncounted µops, times its count, to Measurement.Uops. An
// experiment with an instruction Postulate65 cannot read fails with an
// *oracle.InsnError naming it.
type MacroOpOracle struct {
	Oracle oracle.Oracle
}

// Measure measures e and corrects its µop count.
func (c MacroOpOracle) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	extra := 0
	for _, it := range e.Items() {
		n, err := Postulate65(it.Insn)
		if err != nil {
			return portmap.Measurement{}, &oracle.InsnError{Insn: it.Insn, Err: err}
		}
		extra += n * it.Count
	}
	m, err := c.Oracle.Measure(ctx, e)
	if err != nil {
		return m, err
	}
	m.Uops += float64(extra)
	return m, nil
}

// MedianOracle measures every experiment Repeats times and returns the
// median cycles and the median µop count (thesis §6.3.1: the median of 11
// runs per measurement on Zen+).
type MedianOracle struct {
	Oracle  oracle.Oracle
	Repeats int
}

// Measure measures e Repeats times (at least once).
func (m MedianOracle) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	n := max(m.Repeats, 1)
	var first portmap.Measurement
	cycles := make([]float64, 0, n)
	uops := make([]float64, 0, n)
	for i := 0; i < n; i++ {
		x, err := m.Oracle.Measure(ctx, e)
		if err != nil {
			return x, err
		}
		if i == 0 {
			first = x
		}
		cycles, uops = append(cycles, x.Cycles), append(uops, x.Uops)
	}
	first.Cycles, first.Uops = median(cycles), median(uops)
	return first, nil
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
