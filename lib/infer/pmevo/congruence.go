package pmevo

import (
	"fmt"
	"math"
	"slices"

	"github.com/portlab/portlab/lib/portmap"
)

// Class is a congruence class: instructions that behave alike in every
// training experiment (thesis §5.1.2). Inference maps only the
// representative; the members get its µops.
type Class struct {
	Representative string
	Members        []string // including the representative, in input order
}

// SymmetricDifference is the symmetric relative difference of two inverse
// throughputs, |a − b| / ((a + b)/2), the "≈" of PMEvo's congruence test.
func SymmetricDifference(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / (math.Abs(a+b) / 2)
}

// pairContext is an instruction's place in a two-instruction experiment: m
// copies of it next to n copies of other.
type pairContext struct {
	m     int
	other string
	n     int
}

// Congruence groups the instructions of a training set into congruence
// classes with tolerance eps (PMEvo: 0.05). Instructions a and b are
// congruent when their singletons agree within eps and every experiment
// that puts a next to a third instruction c ({a ↦ m, c ↦ n}: the pairs and
// ratio pairs) agrees within eps with the same experiment with b in a's place,
// wherever both were measured. Agreement is the symmetric relative difference
// being below eps. The relation is not transitive, so the grouping is made
// deterministic: instructions are visited in the order of s.Arch and each
// joins the first class whose representative it is congruent with, or founds
// a new class. Experiments of three or more distinct instructions play no
// part in the test. Every instruction needs a singleton measurement
// ({a ↦ 1}). A negative eps disables filtering: every instruction is a class
// of its own.
//
// Measurements that carry their uncertainty — Spread, the hardware oracle's
// difference between its two fastest passes — widen the tolerance by it:
// two values agree when their difference is below eps plus both spreads, so
// that the test asks as much of a noisy host measurement as of an exact
// one, and no more.
func Congruence(s *portmap.ExperimentSet, eps float64) ([]Class, error) {
	return CongruenceQuantile(s, eps, 1)
}

// CongruenceQuantile is Congruence with a test that tolerates outliers:
// instructions are congruent when the q-quantile of the symmetric relative
// differences over their shared contexts is below eps (q = 1, the largest
// difference, is PMEvo's test). With noisy measurements (a shared machine:
// a few per cent of experiments off by 10 % or more) no two instructions
// pass PMEvo's test; q = 0.8 groups instructions that agree in four out of
// five contexts.
func CongruenceQuantile(s *portmap.ExperimentSet, eps, q float64) ([]Class, error) {
	if !(q > 0 && q <= 1) {
		return nil, fmt.Errorf("pmevo: congruence quantile %v, want 0 < q ≤ 1", q)
	}
	insns := usedInstructions(s)
	single := map[string]value{}
	ctx := map[string]map[pairContext]value{}
	for _, m := range s.Measurements {
		items := m.Experiment.Items()
		switch len(items) {
		case 1:
			if items[0].Count == 1 {
				single[items[0].Insn] = value{m.Cycles, m.Spread}
			}
		case 2:
			for j := 0; j < 2; j++ {
				a, c := items[j], items[1-j]
				if ctx[a.Insn] == nil {
					ctx[a.Insn] = map[pairContext]value{}
				}
				ctx[a.Insn][pairContext{a.Count, c.Insn, c.Count}] = value{m.Cycles, m.Spread}
			}
		}
	}
	for _, in := range insns {
		if _, ok := single[in]; !ok {
			return nil, fmt.Errorf("pmevo: congruence: no singleton measurement {%s ↦ 1}", in)
		}
	}
	var classes []Class
	if eps < 0 {
		for _, in := range insns {
			classes = append(classes, Class{Representative: in, Members: []string{in}})
		}
		return classes, nil
	}
	// agrees reports whether the contexts of a measured for b too agree.
	agrees := func(a, b string) bool {
		var diffs []float64
		for c, ta := range ctx[a] {
			if c.other == b {
				continue // the pair of a and b themselves
			}
			if tb, ok := ctx[b][c]; ok {
				diffs = append(diffs, beyondNoise(ta, tb))
			}
		}
		if len(diffs) == 0 {
			return true
		}
		slices.Sort(diffs)
		k := int(math.Ceil(q*float64(len(diffs)))) - 1
		return diffs[max(k, 0)] < eps
	}
	for _, in := range insns {
		joined := false
		for ci := range classes {
			r := classes[ci].Representative
			if beyondNoise(single[in], single[r]) < eps && agrees(in, r) {
				classes[ci].Members = append(classes[ci].Members, in)
				joined = true
				break
			}
		}
		if !joined {
			classes = append(classes, Class{Representative: in, Members: []string{in}})
		}
	}
	return classes, nil
}

// value is a measured inverse throughput and its relative uncertainty.
type value struct{ cycles, spread float64 }

// beyondNoise is the symmetric relative difference of a and b less their
// uncertainties.
func beyondNoise(a, b value) float64 {
	return SymmetricDifference(a.cycles, b.cycles) - a.spread - b.spread
}

// usedInstructions lists the instructions that occur in some experiment of
// s, in the order of s.Arch, or of first occurrence when s has no
// architecture.
func usedInstructions(s *portmap.ExperimentSet) []string {
	used := map[string]bool{}
	var order []string
	for _, m := range s.Measurements {
		for _, it := range m.Experiment.Items() {
			if !used[it.Insn] {
				used[it.Insn] = true
				order = append(order, it.Insn)
			}
		}
	}
	if s.Arch == nil {
		return order
	}
	var out []string
	for _, in := range s.Arch.Instructions() {
		if used[in] {
			out = append(out, in)
			delete(used, in)
		}
	}
	for _, in := range order {
		if used[in] {
			out = append(out, in) // not in the architecture's list
		}
	}
	return out
}
