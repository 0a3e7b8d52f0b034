package cegis

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/portlab/portlab/lib/portmap"
)

// space is the shape of the mappings searched: the instructions, the ports
// and the µop slots ("units") of each instruction. A two-level search has
// one unit per instruction; a three-level search with known µop counts has
// as many as the instruction has µops (thesis §4.4, variant 2).
type space struct {
	insns   []string
	ports   int
	owner   []int   // instruction of each unit
	unitsOf [][]int // units of each instruction
	enc     Encoding
	eps     float64 // CPI tolerance including the rounding slack
	ipc     float64 // front-end bound in instructions per cycle; 0: none
	// portCount fixes the number of ports of some units.
	portCount map[int]int
	// shares: instruction → units one of whose port sets one of its
	// units has.
	shares map[int][]int
	// subsetUnits is the largest number of units of an experiment whose
	// measurement is stated over unit subsets (subsetMeasurement); 0:
	// none.
	subsetUnits int
}

// unitsOfExp returns the units of the instructions of e.
func (sp *space) unitsOfExp(e exp) []int {
	var units []int
	for u, i := range sp.owner {
		if e[i] > 0 {
			units = append(units, u)
		}
	}
	return units
}

// maxSubsetUnits is the default of space.subsetUnits: experiments of up
// to four units (the singletons and pairs that make up most
// measurements) are stated with at most 15 cardinality constraints each.
const maxSubsetUnits = 4

// upperBySchedule states the upper bound of a measurement with a schedule
// (real variables) instead of a constraint per port set (literals shared
// by all measurements).
var upperBySchedule = true

// roundingSlack is added to ε so that measurements that equal a prediction
// up to floating-point rounding count as equal with ε = 0.
const roundingSlack = 1e-7

// candidate is a mapping in unit form: the port set of each unit.
type candidate []portmap.PortSet

// exp is an experiment as counts per instruction index.
type exp []int

func (e exp) size() int {
	n := 0
	for _, c := range e {
		n += c
	}
	return n
}

// ratDigits is the denominator measured values are rounded to.
const ratDigits = 1_000_000_000

// bounds returns the interval of inverse throughputs consistent with
// measuring cycles for an experiment of the given size, as fractions
// lo = ln/d and hi = hn/d, rounded outwards.
func (sp *space) bounds(cycles float64, size int) (ln, hn, d *big.Int) {
	tol := sp.eps * float64(size)
	lo := math.Floor((cycles - tol) * ratDigits)
	hi := math.Ceil((cycles + tol) * ratDigits)
	if lo < 0 {
		lo = 0
	}
	ln, _ = new(big.Float).SetFloat64(lo).Int(nil)
	hn, _ = new(big.Float).SetFloat64(hi).Int(nil)
	return ln, hn, big.NewInt(ratDigits)
}

// frontEnd returns |e|/R as a fraction, or nil without a front-end bound.
func (sp *space) frontEnd(size int) *big.Rat {
	if sp.ipc <= 0 {
		return nil
	}
	r := new(big.Rat).SetFloat64(sp.ipc)
	return new(big.Rat).Quo(big.NewRat(int64(size), 1), r)
}

// Names of the variables shared by all queries.
func mvar(u, k int) string          { return fmt.Sprintf("m_%d_%d", u, k) }
func subvar(u int, q uint64) string { return fmt.Sprintf("s_%d_%d", u, q) }

// baseCommands declares the free mapping with its well-formedness and,
// when asked, the constraints that break the symmetries of port renaming
// and of reordering an instruction's µops.
func (sp *space) baseCommands(symmetry bool) []string {
	var cmds []string
	for u := range sp.owner {
		var any []string
		for k := 0; k < sp.ports; k++ {
			cmds = append(cmds, fmt.Sprintf("(declare-const %s Bool)", mvar(u, k)))
			any = append(any, mvar(u, k))
		}
		cmds = append(cmds, "(assert "+or(any)+")")
		if n, ok := sp.portCount[u]; ok {
			var terms []string
			for _, v := range any {
				terms = append(terms, fmt.Sprintf("(ite %s 1 0)", v))
			}
			cmds = append(cmds, fmt.Sprintf("(assert (= (+ 0 %s) %d))", strings.Join(terms, " "), n))
		}
	}
	for i, others := range sp.shares {
		var alts []string
		for _, u := range sp.unitsOf[i] {
			for _, v := range others {
				var eq []string
				for k := 0; k < sp.ports; k++ {
					eq = append(eq, fmt.Sprintf("(= %s %s)", mvar(u, k), mvar(v, k)))
				}
				alts = append(alts, "(and "+strings.Join(eq, " ")+")")
			}
		}
		if len(alts) > 0 {
			cmds = append(cmds, "(assert "+or(alts)+")")
		}
	}
	if !symmetry {
		return cmds
	}
	// Lex-leader constraints for the row-major order of the unit × port
	// matrix: adjacent columns (ports) are ordered top to bottom, adjacent
	// rows of one instruction (its µops) left to right, both decreasing.
	n := 0
	lex := func(x, y []string) {
		// x ≥lex y with prefix-equality literals.
		prev := "true"
		for j := range x {
			cmds = append(cmds, fmt.Sprintf("(assert (=> (and %s %s) %s))", prev, y[j], x[j]))
			if j == len(x)-1 {
				break
			}
			eq := fmt.Sprintf("lx_%d", n)
			n++
			cmds = append(cmds, fmt.Sprintf("(declare-const %s Bool)", eq),
				fmt.Sprintf("(assert (= %s (and %s (= %s %s))))", eq, prev, x[j], y[j]))
			prev = eq
		}
	}
	for k := 0; k+1 < sp.ports; k++ {
		var x, y []string
		for u := range sp.owner {
			x, y = append(x, mvar(u, k)), append(y, mvar(u, k+1))
		}
		lex(x, y)
	}
	for _, us := range sp.unitsOf {
		for j := 0; j+1 < len(us); j++ {
			var x, y []string
			for k := 0; k < sp.ports; k++ {
				x, y = append(x, mvar(us[j], k)), append(y, mvar(us[j+1], k))
			}
			lex(x, y)
		}
	}
	return cmds
}

// subsets declares, for the units and port sets not yet declared, the
// literal s_u_Q that is true when unit u runs only on ports of Q (the
// implication from the subset relation to s_u_Q is all the upper bounds
// need).
type subsets struct {
	declared map[[2]uint64]bool
	// unions holds the union literals declared (see union).
	unions map[string]bool
}

func newSubsets() *subsets {
	return &subsets{declared: map[[2]uint64]bool{}, unions: map[string]bool{}}
}

// union returns, for a set of units, one literal per port that is true
// when one of the units runs on that port: the literals m_u_k for a
// single unit, otherwise literals un_… declared (into cmds, once) as
// their disjunction.
func (ss *subsets) union(sp *space, cmds *[]string, units []int) []string {
	lits := make([]string, sp.ports)
	if len(units) == 1 {
		for k := range lits {
			lits[k] = mvar(units[0], k)
		}
		return lits
	}
	var name strings.Builder
	name.WriteString("un")
	for _, u := range units {
		fmt.Fprintf(&name, "_%d", u)
	}
	for k := range lits {
		lits[k] = fmt.Sprintf("%s_p%d", name.String(), k)
		if ss.unions[lits[k]] {
			continue
		}
		ss.unions[lits[k]] = true
		var any []string
		for _, u := range units {
			any = append(any, mvar(u, k))
		}
		*cmds = append(*cmds, fmt.Sprintf("(declare-const %s Bool)", lits[k]), fmt.Sprintf("(assert (= %s %s))", lits[k], or(any)))
	}
	return lits
}

// subsetMeasurement states the bounds lo = ln/d ≤ t ≤ hi = hn/d on the
// inverse throughput t of e over the subsets S of its units, without
// real variables: by the bottleneck formula (thesis Thm 5.2) t is the
// largest mass(S)/|ports(S)| over the subsets, with ports(S) the union of
// their port sets. So t ≤ hi holds when every S has |ports(S)| ≥
// ⌈mass(S)/hi⌉, and t ≥ lo when some S has |ports(S)| ≤ ⌊mass(S)/lo⌋:
// cardinality constraints over the union literals, which are shared by
// all measurements (declared into base).
func (sp *space) subsetMeasurement(ss *subsets, e exp, units []int, ln, hn, d *big.Int, lowerByFrontEnd bool, base *[]string) []string {
	var cmds, lower []string
	lowerHolds := lowerByFrontEnd || ln.Sign() == 0
	for s := 1; s < 1<<len(units); s++ {
		var sub []int
		mass := int64(0)
		for j, u := range units {
			if s&(1<<j) != 0 {
				sub = append(sub, u)
				mass += int64(e[sp.owner[u]])
			}
		}
		dm := new(big.Int).Mul(d, big.NewInt(mass))
		// Upper bound: |ports(S)| ≥ ⌈d·mass/hn⌉ (every unit has a port,
		// so 1 always holds).
		need := int64(sp.ports + 1)
		if hn.Sign() > 0 {
			q, m := new(big.Int).QuoRem(dm, hn, new(big.Int))
			if m.Sign() > 0 {
				q.Add(q, big.NewInt(1))
			}
			if q.IsInt64() {
				need = q.Int64()
			}
		}
		if need > int64(sp.ports) {
			return []string{"(assert false)"}
		}
		if need > 1 {
			cmds = append(cmds, fmt.Sprintf("(assert ((_ at-least %d) %s))", need, strings.Join(ss.union(sp, base, sub), " ")))
		}
		// Lower bound: |ports(S)| ≤ ⌊d·mass/ln⌋ for some S.
		if lowerHolds {
			continue
		}
		most := new(big.Int).Quo(dm, ln)
		switch {
		case !most.IsInt64() || most.Int64() >= int64(sp.ports):
			lowerHolds = true
		case most.Int64() >= 1:
			lower = append(lower, fmt.Sprintf("((_ at-most %d) %s)", most.Int64(), strings.Join(ss.union(sp, base, sub), " ")))
		}
	}
	if !lowerHolds {
		cmds = append(cmds, "(assert "+or(lower)+")")
	}
	return cmds
}

func (ss *subsets) lit(sp *space, cmds *[]string, u int, q uint64) string {
	all := uint64(1)<<sp.ports - 1
	if q == all {
		return "true"
	}
	key := [2]uint64{uint64(u), q}
	if !ss.declared[key] {
		ss.declared[key] = true
		name := subvar(u, q)
		clause := []string{name}
		for k := 0; k < sp.ports; k++ {
			if q&(1<<k) == 0 {
				clause = append(clause, mvar(u, k))
			}
		}
		*cmds = append(*cmds, fmt.Sprintf("(declare-const %s Bool)", name), "(assert "+or(clause)+")")
	}
	return subvar(u, q)
}

// measurementCommands returns the constraints that the free mapping
// predicts the inverse throughput of e within the tolerance of cycles
// (id names the fresh variables). Commands that declare shared literals
// go to base, which must be asserted at the outermost scope.
func (sp *space) measurementCommands(ss *subsets, id int, e exp, cycles float64, base *[]string) []string {
	size := e.size()
	ln, hn, d := sp.bounds(cycles, size)
	var cmds []string
	fe := sp.frontEnd(size)
	// The front end alone may explain the lower bound, and rules out
	// everything when it exceeds the upper bound.
	lowerByFrontEnd := false
	if fe != nil {
		if fe.Cmp(new(big.Rat).SetFrac(hn, d)) > 0 {
			return []string{"(assert false)"}
		}
		lowerByFrontEnd = fe.Cmp(new(big.Rat).SetFrac(ln, d)) >= 0
	}
	var units []int
	total := int64(0)
	for u, i := range sp.owner {
		if e[i] > 0 {
			units = append(units, u)
			total += int64(e[i])
		}
	}
	if sp.enc == Thesis {
		return sp.thesisMeasurement(id, e, units, ln, hn, d, lowerByFrontEnd)
	}
	if len(units) <= sp.subsetUnits {
		return sp.subsetMeasurement(ss, e, units, ln, hn, d, lowerByFrontEnd, base)
	}
	if upperBySchedule {
		// Upper bound: a schedule of the units' mass on their ports that
		// loads no port beyond hi exists (d·load ≤ hn); none is needed
		// when the whole mass fits on one port.
		if new(big.Int).Mul(d, big.NewInt(total)).Cmp(hn) > 0 {
			mass := func(u int) string { return fmt.Sprint(e[sp.owner[u]]) }
			cmds = append(cmds, sp.schedule(fmt.Sprint(id), units, mass, func(load string) string {
				return fmt.Sprintf("(<= (* %s %s) %s)", d, load, hn)
			})...)
		}
	} else {
		// Upper bound: for every port set Q, the mass of the units confined
		// to Q fits into |Q| ports within hi cycles: d·mass(Q) ≤ hn·|Q|.
		all := uint64(1)<<sp.ports - 1
		for q := uint64(1); q <= all; q++ {
			cap := new(big.Int).Mul(hn, big.NewInt(int64(portmap.PortSet(q).Len())))
			if new(big.Int).Mul(d, big.NewInt(total)).Cmp(cap) <= 0 {
				continue // holds whatever the mapping
			}
			var terms []string
			for _, u := range units {
				terms = append(terms, fmt.Sprintf("(ite %s %d 0)", ss.lit(sp, base, u, q), e[sp.owner[u]]))
			}
			cmds = append(cmds, fmt.Sprintf("(assert (<= (* %s %s) %s))", d, sum(terms), cap))
		}
	}
	if lowerByFrontEnd || ln.Sign() == 0 {
		return cmds
	}
	// Lower bound: some port set Q holds units confined to it whose mass
	// needs at least lo cycles on |Q| ports: d·mass(Q) ≥ ln·|Q|.
	var mass, width, qs []string
	for k := 0; k < sp.ports; k++ {
		cmds = append(cmds, fmt.Sprintf("(declare-const q_%d_%d Bool)", id, k))
		width = append(width, fmt.Sprintf("(ite q_%d_%d 1 0)", id, k))
		qs = append(qs, fmt.Sprintf("q_%d_%d", id, k))
	}
	cmds = append(cmds, "(assert "+or(qs)+")")
	for _, u := range units {
		in := fmt.Sprintf("i_%d_%d", id, u)
		cmds = append(cmds, fmt.Sprintf("(declare-const %s Bool)", in))
		for k := 0; k < sp.ports; k++ {
			cmds = append(cmds, fmt.Sprintf("(assert (or (not %s) (not %s) q_%d_%d))", in, mvar(u, k), id, k))
		}
		mass = append(mass, fmt.Sprintf("(ite %s %d 0)", in, e[sp.owner[u]]))
	}
	cmds = append(cmds, fmt.Sprintf("(assert (>= (* %s %s) (* %s %s)))", d, sum(mass), ln, sum(width)))
	return cmds
}

// thesisMeasurement is relateThroughput of thesis Def. 4.5 (Fig. 4.5 for
// units) with the experiment hard-wired and t constrained to [lo, hi].
func (sp *space) thesisMeasurement(id int, e exp, units []int, ln, hn, d *big.Int, lowerByFrontEnd bool) []string {
	t := fmt.Sprintf("t_%d", id)
	coef := func(u int) string { return fmt.Sprint(e[sp.owner[u]]) }
	cmds := sp.relateThroughput(fmt.Sprint(id), units, nil, coef, t)
	lo := fmt.Sprintf("(/ %s %s)", ln, d)
	hi := fmt.Sprintf("(/ %s %s)", hn, d)
	cmds = append(cmds, fmt.Sprintf("(assert (<= %s %s))", t, hi))
	if !lowerByFrontEnd {
		cmds = append(cmds, fmt.Sprintf("(assert (>= %s %s))", t, lo))
	}
	return cmds
}

// relateThroughput returns the constraints of thesis Def. 4.5 that make
// the real t the optimum of the port LP for the units listed, each with
// the µop mass mass(u) (an SMT term), on the free mapping when fixed is
// nil and on the port sets fixed[u] otherwise. Fresh variables carry the
// suffix id.
func (sp *space) relateThroughput(id string, units []int, fixed candidate, mass func(u int) string, t string) []string {
	var cmds []string
	decl := func(name, sort string) { cmds = append(cmds, fmt.Sprintf("(declare-const %s %s)", name, sort)) }
	decl(t, "Real")
	can := func(u, k int) (string, bool) { // the edge literal, or false when absent
		if fixed == nil {
			return mvar(u, k), true
		}
		return "true", fixed[u]&(1<<k) != 0
	}
	x := func(u, k int) string { return fmt.Sprintf("x_%s_%d_%d", id, u, k) }
	load := make([][]string, sp.ports)
	var fill, full []string
	for _, u := range units {
		var row []string
		j := fmt.Sprintf("j_%s_%d", id, u)
		decl(j, "Bool")
		for k := 0; k < sp.ports; k++ {
			lit, ok := can(u, k)
			if !ok {
				continue
			}
			decl(x(u, k), "Real")
			cmds = append(cmds, fmt.Sprintf("(assert (>= %s 0))", x(u, k))) // (D)
			if lit != "true" {
				cmds = append(cmds, fmt.Sprintf("(assert (=> (not %s) (= %s 0)))", lit, x(u, k)))    // (E)
				cmds = append(cmds, fmt.Sprintf("(assert (=> (and %s %s) q_%s_%d))", lit, j, id, k)) // (H)
			} else {
				cmds = append(cmds, fmt.Sprintf("(assert (=> %s q_%s_%d))", j, id, k))
			}
			row = append(row, x(u, k))
			load[k] = append(load[k], x(u, k))
		}
		cmds = append(cmds, fmt.Sprintf("(assert (= %s %s))", sum(row), mass(u))) // (A)
		fill = append(fill, fmt.Sprintf("(ite %s %s 0)", j, mass(u)))
	}
	var qs []string
	for k := 0; k < sp.ports; k++ {
		q := fmt.Sprintf("q_%s_%d", id, k)
		// Declared before use in (H): SMT-LIB wants declarations first, so
		// put them at the front.
		cmds = append([]string{fmt.Sprintf("(declare-const %s Bool)", q)}, cmds...)
		p := sum(load[k])                                                      // (B)
		cmds = append(cmds, fmt.Sprintf("(assert (<= %s %s))", p, t))          // (C)
		cmds = append(cmds, fmt.Sprintf("(assert (= %s (= %s %s)))", q, p, t)) // (G)
		qs = append(qs, q)
		full = append(full, fmt.Sprintf("(ite %s %s 0)", q, t))
	}
	cmds = append(cmds, "(assert "+or(qs)+")")                                   // (F)
	cmds = append(cmds, fmt.Sprintf("(assert (= %s %s))", sum(fill), sum(full))) // (I)
	return cmds
}

// otherCommands returns the query of findOtherMapping: an experiment
// (integers e_i of size 1..bound, or with relax non-negative reals of
// size 1) on which the free mapping and the fixed candidate m1 differ by
// more than 2ε·|e|. It declares everything it uses, so it belongs in a
// scope of its own.
func (sp *space) otherCommands(ss *subsets, m1 candidate, bound int, relax bool, base *[]string) []string {
	var cmds []string
	n := len(sp.insns)
	var size []string
	sort := "Int"
	if relax {
		sort = "Real"
	}
	for i := 0; i < n; i++ {
		cmds = append(cmds, fmt.Sprintf("(declare-const e_%d %s)", i, sort), fmt.Sprintf("(assert (>= e_%d 0))", i))
		size = append(size, fmt.Sprintf("e_%d", i))
	}
	total := sum(size)
	if relax {
		cmds = append(cmds, fmt.Sprintf("(assert (= %s 1))", total))
	} else {
		cmds = append(cmds, fmt.Sprintf("(assert (>= %s 1))", total))
		if bound > 0 {
			cmds = append(cmds, fmt.Sprintf("(assert (<= %s %d))", total, bound))
		}
	}
	mass := func(u int) string { return fmt.Sprintf("e_%d", sp.owner[u]) }
	delta := fmt.Sprintf("(* %s %s)", ratString(separation*sp.eps), total)
	frontEnd := ""
	if sp.ipc > 0 {
		frontEnd = fmt.Sprintf("(/ %s %s)", total, ratString(sp.ipc))
	}
	if sp.enc == Thesis {
		all := make([]int, len(sp.owner))
		for u := range all {
			all[u] = u
		}
		cmds = append(cmds, sp.relateThroughput("a", all, m1, mass, "ta")...)
		cmds = append(cmds, sp.relateThroughput("b", all, nil, mass, "tb")...)
		ta, tb := "ta", "tb"
		if frontEnd != "" {
			ta = fmt.Sprintf("(ite (>= ta %s) ta %s)", frontEnd, frontEnd)
			tb = fmt.Sprintf("(ite (>= tb %s) tb %s)", frontEnd, frontEnd)
		}
		cmds = append(cmds, fmt.Sprintf("(assert (or (> (- %s %s) %s) (> (- %s %s) %s)))", ta, tb, delta, tb, ta, delta))
		return cmds
	}
	closed := closedSets(m1, sp.ports)
	mass1 := func(r uint64) string {
		var terms []string
		for u, s := range m1 {
			if uint64(s)&^r == 0 {
				terms = append(terms, mass(u))
			}
		}
		return sum(terms)
	}
	// Case "up": the free mapping is slower. T bounds m1's throughput from
	// above (every closed set R of m1), and some port set Q confines mass
	// of the free mapping beyond |Q|·(T + δ).
	cmds = append(cmds, "(declare-const up Bool)", "(declare-const down Bool)", "(assert (or up down))",
		"(declare-const T1 Real)", "(declare-const T2 Real)")
	for _, r := range closed {
		cmds = append(cmds, fmt.Sprintf("(assert (=> up (>= (* %d T1) %s)))", portmap.PortSet(r).Len(), mass1(r)))
	}
	if frontEnd != "" {
		cmds = append(cmds, fmt.Sprintf("(assert (>= T1 %s))", frontEnd), fmt.Sprintf("(assert (>= T2 %s))", frontEnd))
	}
	var width, confined []string
	for k := 0; k < sp.ports; k++ {
		cmds = append(cmds, fmt.Sprintf("(declare-const q_%d Bool)", k))
		width = append(width, fmt.Sprintf("(ite q_%d (+ T1 %s) 0)", k, delta))
	}
	for u := range sp.owner {
		in := fmt.Sprintf("w_%d", u)
		cmds = append(cmds, fmt.Sprintf("(declare-const %s Bool)", in))
		for k := 0; k < sp.ports; k++ {
			cmds = append(cmds, fmt.Sprintf("(assert (or (not %s) (not %s) q_%d))", in, mvar(u, k), k))
		}
		confined = append(confined, fmt.Sprintf("(ite %s %s 0)", in, mass(u)))
	}
	cmds = append(cmds, fmt.Sprintf("(assert (=> up (> %s %s)))", sum(confined), sum(width)))
	// Case "down": m1 is slower. T2 bounds the free mapping's throughput
	// from above (every port set Q), and some closed set R of m1 holds
	// mass beyond |R|·(T2 + δ).
	allUnits := make([]int, len(sp.owner))
	for u := range allUnits {
		allUnits[u] = u
	}
	for _, c := range sp.schedule("d", allUnits, mass, func(load string) string { return fmt.Sprintf("(<= %s T2)", load) }) {
		if strings.HasPrefix(c, "(assert ") {
			c = "(assert (=> down " + strings.TrimPrefix(c, "(assert ") + ")"
		}
		cmds = append(cmds, c)
	}
	var beyond []string
	for _, r := range closed {
		beyond = append(beyond, fmt.Sprintf("(> %s (* %d (+ T2 %s)))", mass1(r), portmap.PortSet(r).Len(), delta))
	}
	cmds = append(cmds, fmt.Sprintf("(assert (=> down %s))", or(beyond)))
	return cmds
}

// schedule returns constraints stating that the mass of the listed units
// of the free mapping (mass(u), an SMT term) can be spread over their ports
// so that every port's load satisfies fits(load): an upper bound on the
// inverse throughput without the LP's optimality conditions (the lower
// bound comes from a port set Q instead). Fresh variables carry the suffix
// id.
func (sp *space) schedule(id string, units []int, mass func(u int) string, fits func(load string) string) []string {
	var cmds []string
	load := make([][]string, sp.ports)
	for _, u := range units {
		var row []string
		for k := 0; k < sp.ports; k++ {
			x := fmt.Sprintf("y_%s_%d_%d", id, u, k)
			cmds = append(cmds, fmt.Sprintf("(declare-const %s Real)", x), fmt.Sprintf("(assert (>= %s 0))", x),
				fmt.Sprintf("(assert (=> (not %s) (= %s 0)))", mvar(u, k), x))
			row = append(row, x)
			load[k] = append(load[k], x)
		}
		cmds = append(cmds, fmt.Sprintf("(assert (= %s %s))", sum(row), mass(u)))
	}
	for k := 0; k < sp.ports; k++ {
		if len(load[k]) > 0 {
			cmds = append(cmds, "(assert "+fits(sum(load[k]))+")")
		}
	}
	return cmds
}

// closedSets returns the port sets R that are the union of the unit port
// sets of m inside them: the only candidates for the maximum of the
// bottleneck formula.
func closedSets(m candidate, ports int) []uint64 {
	var out []uint64
	all := uint64(1)<<ports - 1
	for r := uint64(1); r <= all; r++ {
		var union uint64
		for _, s := range m {
			if uint64(s)&^r == 0 {
				union |= uint64(s)
			}
		}
		if union == r {
			out = append(out, r)
		}
	}
	return out
}

func or(xs []string) string {
	switch len(xs) {
	case 0:
		return "false"
	case 1:
		return xs[0]
	}
	return "(or " + strings.Join(xs, " ") + ")"
}

func sum(xs []string) string {
	switch len(xs) {
	case 0:
		return "0"
	case 1:
		return xs[0]
	}
	return "(+ " + strings.Join(xs, " ") + ")"
}

// ratString writes x ≥ 0 as an SMT-LIB real.
func ratString(x float64) string {
	r := new(big.Rat).SetFloat64(x)
	if r.IsInt() {
		return r.Num().String() + ".0"
	}
	return fmt.Sprintf("(/ %s.0 %s.0)", r.Num(), r.Denom())
}
