package cegis

import (
	"fmt"
	"math/big"
	"math/bits"
	"strings"

	"github.com/portlab/portlab/lib/portmap"
)

// The distinguishing question without a size bound, for two-level
// mappings without a front-end bound, has a purely Boolean form. By the
// bottleneck formula (thesis Thm 5.2) the inverse throughput of e under a
// mapping M is the largest e(U)/|P_M(U)| over the instruction sets U,
// with e(U) the mass of U in e and P_M(U) the union of their port sets.
// For one U the difference t_M2(e) − t_M1(e) over experiments of size 1
// is largest when e lies on U and M1 spreads it evenly over P_M1(U); it is
// then 1/|P_M2(U)| − 1/|P_M1(U)|. So M2 is slower than M1 by more than
// 2ε·|e| on some experiment exactly when some U has
//
//	1/|P_M2(U)| − 1/|P_M1(U)| > 2ε,
//
// and faster with the roles exchanged: a question about port counts of
// unions alone, stated with one literal per instruction (is it in U?) and
// per port (is it in either union?) and cardinality constraints, instead
// of a real-valued schedule and a constraint per closed port set of M1
// (up to 2^ports − 1 of them). The experiment that shows the difference
// is integral: for every port p of P_M1(U) one instruction of U that M1
// runs on p, so that M1 loads each port of P_M1(U) exactly once (t = 1),
// while M2 confines all |P_M1(U)| instructions to |P_M2(U)| ports.

// coverApplies reports whether the distinguishing question without a
// size bound may be asked in the Boolean form above.
func (sp *space) coverApplies() bool {
	return sp.enc == Bottleneck && sp.ipc <= 0 && len(sp.owner) == len(sp.insns)
}

// coverLeast returns the smallest b ≤ ports for which a union of a ports
// and one of b ports tell two mappings apart, 1/a − 1/b > 2ε (exactly,
// in rationals), or 0 when there is none.
func (sp *space) coverLeast(a int) int {
	se := new(big.Rat).SetFloat64(separation * sp.eps)
	for b := a + 1; b <= sp.ports; b++ {
		d := new(big.Rat).Sub(big.NewRat(1, int64(a)), big.NewRat(1, int64(b)))
		if d.Cmp(se) > 0 {
			return b
		}
	}
	return 0
}

// Names of the variables of the Boolean distinguishing question.
func coverIn(u int) string    { return fmt.Sprintf("cu_%d", u) }
func coverFree(k int) string  { return fmt.Sprintf("cf_%d", k) }
func coverFixed(k int) string { return fmt.Sprintf("cm_%d", k) }

// coverCommands returns the distinguishing question without a size bound
// against the fixed candidate m1 in its Boolean form: a set U of units
// (cu_u) whose ports under the free mapping (cf_k) and under m1 (cm_k)
// number a and b ≥ coverLeast(a), in either order. Like otherCommands it
// declares up (the free mapping slower) and down (m1 slower), so that the
// two directions can be asked one at a time, and everything it declares
// belongs in a scope of its own.
func (sp *space) coverCommands(m1 candidate) []string {
	var cmds []string
	var free, fixed []string
	for u := range sp.owner {
		cmds = append(cmds, fmt.Sprintf("(declare-const %s Bool)", coverIn(u)))
	}
	for k := 0; k < sp.ports; k++ {
		var f, m []string
		for u, s := range m1 {
			f = append(f, fmt.Sprintf("(and %s %s)", coverIn(u), mvar(u, k)))
			if s&(1<<k) != 0 {
				m = append(m, coverIn(u))
			}
		}
		free, fixed = append(free, coverFree(k)), append(fixed, coverFixed(k))
		cmds = append(cmds,
			fmt.Sprintf("(declare-const %s Bool)", coverFree(k)),
			fmt.Sprintf("(assert (= %s %s))", coverFree(k), or(f)),
			fmt.Sprintf("(declare-const %s Bool)", coverFixed(k)),
			fmt.Sprintf("(assert (= %s %s))", coverFixed(k), or(m)))
	}
	fl, ml := strings.Join(free, " "), strings.Join(fixed, " ")
	var up, down []string
	for a := 1; a < sp.ports; a++ {
		b := sp.coverLeast(a)
		if b == 0 {
			continue
		}
		up = append(up, fmt.Sprintf("(and ((_ at-most %d) %s) ((_ at-least %d) %s))", a, fl, b, ml))
		down = append(down, fmt.Sprintf("(and ((_ at-most %d) %s) ((_ at-least %d) %s))", a, ml, b, fl))
	}
	cmds = append(cmds, "(declare-const up Bool)", "(declare-const down Bool)", "(assert (or up down))",
		fmt.Sprintf("(assert (=> up %s))", or(up)), fmt.Sprintf("(assert (=> down %s))", or(down)))
	return cmds
}

// coverExperiment returns the experiment that tells m1 and m2 apart on the
// units U (a bit set): one instruction per port of the union of U's port
// sets under whichever mapping spreads U over more ports, the instruction
// of the first unit of U that runs on the port. It reports false when the
// two unions are equally large.
func (sp *space) coverExperiment(m1, m2 candidate, U uint64) (exp, bool) {
	var p1, p2 portmap.PortSet
	for u := range sp.owner {
		if U&(1<<u) != 0 {
			p1 |= m1[u]
			p2 |= m2[u]
		}
	}
	wide, pw := m1, p1
	switch {
	case p1.Len() == p2.Len():
		return nil, false
	case p2.Len() > p1.Len():
		wide, pw = m2, p2
	}
	e := make(exp, len(sp.insns))
	for k := 0; k < sp.ports; k++ {
		if pw&(1<<k) == 0 {
			continue
		}
		for u := range sp.owner {
			if U&(1<<u) != 0 && wide[u]&(1<<k) != 0 {
				e[sp.owner[u]]++
				break
			}
		}
	}
	return e, true
}

// maxCoverUnits bounds the units coverDistinguish enumerates the subsets
// of (2^22 port unions of each mapping, 16 MiB).
const maxCoverUnits = 22

// coverDistinguish decides, without the solver, whether two two-level
// mappings differ by more than 2ε·|e| on some experiment, by the union
// counts of every set of units; it returns the smallest such experiment
// of the form coverExperiment builds. ok is false when they agree within
// the tolerance on every experiment, or when the question is not of the
// Boolean form (coverApplies) or has more than maxCoverUnits units.
func (sp *space) coverDistinguish(m1, m2 candidate) (e exp, ok bool) {
	n := len(sp.owner)
	if !sp.coverApplies() || n > maxCoverUnits {
		return nil, false
	}
	least := make([]int, sp.ports+1)
	for a := 1; a <= sp.ports; a++ {
		least[a] = sp.coverLeast(a)
	}
	u1 := make([]uint16, 1<<n)
	u2 := make([]uint16, 1<<n)
	best, bestSize := uint64(0), sp.ports+1
	for s := uint64(1); s < 1<<n; s++ {
		low := bits.TrailingZeros64(s)
		rest := s &^ (1 << low)
		u1[s] = u1[rest] | uint16(m1[low])
		u2[s] = u2[rest] | uint16(m2[low])
		a, b := bits.OnesCount16(u1[s]), bits.OnesCount16(u2[s])
		if a > b {
			a, b = b, a
		}
		if l := least[a]; l > 0 && b >= l && b < bestSize {
			best, bestSize = s, b
		}
	}
	if best == 0 {
		return nil, false
	}
	return sp.coverExperiment(m1, m2, best)
}
