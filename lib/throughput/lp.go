package throughput

import (
	"fmt"
	"math"
	"math/bits"
	"sort"

	"github.com/portlab/portlab/lib/portmap"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// UopLoad is the part of a schedule that concerns one µop (port set): its
// total mass in the experiment and how much of it each port executes.
type UopLoad struct {
	Ports  portmap.PortSet
	Mass   float64   // µops of this kind per execution of the experiment
	OnPort []float64 // x_uk: per port index, sums to Mass
}

// Schedule is an optimal solution of the throughput LP (PMEvo, PLDI 2020, Def. 3;
// thesis Thms 3.7 and 3.12): an assignment of each µop's mass to its ports
// that minimises the largest port load. Optimal assignments are not unique;
// this is the one the simplex method finds, so only Cycles and the
// bottleneck ports are properties of the experiment.
type Schedule struct {
	// Cycles is the optimal inverse throughput t*, snapped to the nearest
	// fraction with denominator ≤ number of ports (the exact value has this
	// form, thesis Thm 5.2); LPValue is the solver's unsnapped value.
	Cycles  float64
	LPValue float64
	// Ports names the ports; Pressure[k] is the load p_k of port k in cycles
	// per execution of the experiment.
	Ports    []string
	Pressure []float64
	// Uops lists the µop kinds with their distribution over ports.
	Uops []UopLoad
}

// Tight returns the ports whose load equals Cycles (to 1e-9). It contains
// the bottleneck ports, and possibly more: another optimal schedule may
// relieve the extra ones (use Result.Bottleneck for the exact set).
func (s *Schedule) Tight() portmap.PortSet {
	var q portmap.PortSet
	for k, p := range s.Pressure {
		if math.Abs(p-s.Cycles) <= 1e-9*math.Max(1, s.Cycles) {
			q |= 1 << uint(k)
		}
	}
	return q
}

// LP solves the throughput linear program for e under m with gonum's simplex
// method and returns an optimal schedule. It takes two to three orders of
// magnitude longer than the bottleneck formula (see the bench folder) and is
// meant for teaching, port-pressure charts and cross-checking.
func LP(m *portmap.Mapping, e portmap.Experiment) (*Schedule, error) {
	masks, mass, err := uopKinds(m, e)
	if err != nil {
		return nil, err
	}
	k := m.NumPorts()
	s := &Schedule{Ports: m.Ports(), Pressure: make([]float64, k)}
	t, x, err := solveLP(masks, mass, k)
	if err != nil {
		return nil, fmt.Errorf("throughput: LP for %s: %w", e, err)
	}
	s.LPValue = t
	s.Cycles = snap(t, k)
	for j, mk := range masks {
		ul := UopLoad{Ports: mk, Mass: float64(mass[j]), OnPort: x[j]}
		for p, v := range x[j] {
			s.Pressure[p] += v
		}
		s.Uops = append(s.Uops, ul)
	}
	return s, nil
}

// uopKinds returns the µop kinds of e under m (sorted by port set) with
// their masses (Remark 3.13(1)).
func uopKinds(m *portmap.Mapping, e portmap.Experiment) ([]portmap.PortSet, []int64, error) {
	massMap, err := m.UopMass(e)
	if err != nil {
		return nil, nil, err
	}
	masks := make([]portmap.PortSet, 0, len(massMap))
	for mk, w := range massMap {
		if w > 0 {
			masks = append(masks, mk)
		}
	}
	sort.Slice(masks, func(a, b int) bool { return masks[a] < masks[b] })
	mass := make([]int64, len(masks))
	for j, mk := range masks {
		mass[j] = massMap[mk]
	}
	return masks, mass, nil
}

// solveLP solves min t s.t. Σ_k x_uk = mass(u), Σ_u x_uk ≤ t, x ≥ 0 with
// x_uk only for k ∈ u. It returns t and x[u][k].
func solveLP(masks []portmap.PortSet, mass []int64, nports int) (float64, [][]float64, error) {
	x := make([][]float64, len(masks))
	for j := range x {
		x[j] = make([]float64, nports)
	}
	if len(masks) == 0 {
		return 0, x, nil
	}
	var used portmap.PortSet
	for _, mk := range masks {
		used |= mk
	}
	ports := used.Indices()
	row := make(map[int]int, len(ports)) // port → row of its load constraint
	for r, p := range ports {
		row[p] = len(masks) + r
	}
	// Columns: x_uk for allowed pairs, then one slack per used port, then t.
	type col struct{ u, k int }
	var cols []col
	for j, mk := range masks {
		for _, p := range mk.Indices() {
			cols = append(cols, col{j, p})
		}
	}
	nx := len(cols)
	ncol := nx + len(ports) + 1
	nrow := len(masks) + len(ports)
	A := mat.NewDense(nrow, ncol, nil)
	b := make([]float64, nrow)
	for c, cl := range cols {
		A.Set(cl.u, c, 1)
		A.Set(row[cl.k], c, 1)
	}
	for r := range ports {
		A.Set(len(masks)+r, nx+r, 1)
		A.Set(len(masks)+r, ncol-1, -1)
	}
	for j := range masks {
		b[j] = float64(mass[j])
	}
	c := make([]float64, ncol)
	c[ncol-1] = 1
	opt, sol, err := lp.Simplex(c, A, b, 1e-10, nil)
	if err != nil {
		return 0, nil, err
	}
	for cI, cl := range cols {
		x[cl.u][cl.k] = sol[cI]
	}
	return opt, x, nil
}

// snap returns the fraction n/d with d ≤ maxDen closest to t when it is
// within 1e-6 relative, else t.
func snap(t float64, maxDen int) float64 {
	n, d, ok := snapFrac(t, maxDen)
	if !ok {
		return t
	}
	return float64(n) / float64(d)
}

func snapFrac(t float64, maxDen int) (int64, int, bool) {
	bn, bd, bestErr := int64(0), 1, math.Inf(1)
	for d := 1; d <= maxDen; d++ {
		n := math.Round(t * float64(d))
		if e := math.Abs(n/float64(d) - t); e < bestErr-1e-15 {
			bn, bd, bestErr = int64(n), d, e
		}
	}
	return bn, bd, bestErr <= 1e-6*math.Max(1, math.Abs(t))
}

// lpBound is the fallback for very many ports and µop kinds, where both
// enumerations are too expensive: the LP value as an exact fraction, with
// the tight ports of the LP solution as bottleneck (a superset of the exact
// set when another optimal schedule relieves some of them).
func lpBound(masks []portmap.PortSet, mass []int64, cover portmap.PortSet) Result {
	nports := 64 - bits.LeadingZeros64(uint64(cover))
	t, x, err := solveLP(masks, mass, nports)
	if err != nil {
		panic("throughput: LP failed on a feasible problem: " + err.Error())
	}
	num, den, _ := snapFrac(t, nports)
	load := make([]float64, nports)
	for _, row := range x {
		for k, v := range row {
			load[k] += v
		}
	}
	var bp portmap.PortSet
	for k, l := range load {
		if math.Abs(l-t) <= 1e-9*math.Max(1, t) {
			bp |= 1 << uint(k)
		}
	}
	return Result{Num: num, Den: den, Bottleneck: bp}
}
