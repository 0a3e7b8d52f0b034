package throughput

import (
	"fmt"
	"slices"

	"github.com/portlab/portlab/lib/portmap"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// Balanced returns the optimal schedule of e under m whose port loads are
// as even as possible: among all optimal schedules, the one whose sorted
// vector of port loads is lexicographically smallest. Unlike the schedule
// LP returns, its port pressure is unique, which makes it the one to plot.
//
// It is computed by water filling: the bottleneck ports BP are loaded to t*
// by the µops that can run only there (in every optimal schedule, no other
// µop runs on them); the remaining µops, restricted to the remaining ports,
// form a smaller problem whose bottleneck gets the next load level, and so
// on. Each level is an exact fraction. The distribution of each µop over its
// ports that realises these loads is then found by a feasibility LP (it is
// not unique; the loads are).
func Balanced(m *portmap.Mapping, e portmap.Experiment) (*Schedule, error) {
	masks, mass, err := uopKinds(m, e)
	if err != nil {
		return nil, err
	}
	k := m.NumPorts()
	s := &Schedule{Ports: m.Ports(), Pressure: make([]float64, k)}
	levels := waterLevels(masks, mass)
	// Scale masses and loads by the common denominator of the levels so
	// that the LP below sees whole numbers and its solution stays exact.
	scale := int64(1)
	for _, l := range levels {
		if next := lcm(scale, int64(l.Den)); next < 1<<32 {
			scale = next
		}
	}
	load := make([]float64, k)
	for p, l := range levels {
		s.Pressure[p] = float64(l.Num) / float64(l.Den)
		load[p] = float64(l.Num * (scale / int64(l.Den)))
	}
	if len(masks) > 0 {
		s.Cycles = maxOf(s.Pressure)
		s.LPValue = s.Cycles
	}
	scaled := make([]int64, len(mass))
	for j, w := range mass {
		scaled[j] = w * scale
	}
	x, err := distribute(masks, scaled, load)
	for _, row := range x {
		for p := range row {
			row[p] /= float64(scale)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("throughput: balanced schedule for %s: %w", e, err)
	}
	for j, mk := range masks {
		s.Uops = append(s.Uops, UopLoad{Ports: mk, Mass: float64(mass[j]), OnPort: x[j]})
	}
	return s, nil
}

func maxOf(v []float64) float64 {
	m := v[0]
	for _, x := range v[1:] {
		m = max(m, x)
	}
	return m
}

func lcm(a, b int64) int64 {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}

// level is an exact port load Num/Den.
type level struct {
	Num int64
	Den int
}

// waterLevels returns the load of every port used by the µops in the
// lexicographically most balanced optimal schedule.
func waterLevels(masks []portmap.PortSet, mass []int64) map[int]level {
	levels := map[int]level{}
	ms := append([]portmap.PortSet(nil), masks...)
	ws := append([]int64(nil), mass...)
	for len(ms) > 0 {
		r := portBound(append([]portmap.PortSet(nil), ms...), append([]int64(nil), ws...))
		for _, p := range r.Bottleneck.Indices() {
			levels[p] = level{r.Num, r.Den}
		}
		// Drop the µops that run on the bottleneck; the others keep only
		// their other ports (they have none there in any optimal schedule).
		var nm []portmap.PortSet
		var nw []int64
		merged := map[portmap.PortSet]int{}
		for j, mk := range ms {
			if mk.SubsetOf(r.Bottleneck) {
				continue
			}
			rest := mk &^ r.Bottleneck
			if i, ok := merged[rest]; ok {
				nw[i] += ws[j]
				continue
			}
			merged[rest] = len(nm)
			nm, nw = append(nm, rest), append(nw, ws[j])
		}
		ms, ws = nm, nw
	}
	return levels
}

// distribute finds x[u][k] ≥ 0 on allowed ports with Σ_k x = mass(u) and
// Σ_u x = load(k), one connected group of µops at a time (within a group the
// port rows sum to the mass rows, so one port row is dropped to keep the
// system of full rank, as the simplex method requires).
func distribute(masks []portmap.PortSet, mass []int64, load []float64) ([][]float64, error) {
	x := make([][]float64, len(masks))
	for j := range x {
		x[j] = make([]float64, len(load))
	}
	done := make([]bool, len(masks))
	for start := range masks {
		if done[start] {
			continue
		}
		group := []int{start}
		done[start] = true
		cover := masks[start]
		for grew := true; grew; {
			grew = false
			for j := range masks {
				if !done[j] && masks[j]&cover != 0 {
					done[j], cover = true, cover|masks[j]
					group = append(group, j)
					grew = true
				}
			}
		}
		if err := distributeGroup(group, masks, mass, load, cover, x); err != nil {
			return nil, err
		}
	}
	return x, nil
}

func distributeGroup(group []int, masks []portmap.PortSet, mass []int64, load []float64, cover portmap.PortSet, x [][]float64) error {
	ports := cover.Indices()
	if len(ports) == 1 {
		for _, j := range group {
			x[j][ports[0]] = float64(mass[j])
		}
		return nil
	}
	row := make(map[int]int, len(ports))
	for r, p := range ports[:len(ports)-1] {
		row[p] = len(group) + r
	}
	type col struct{ g, k int }
	var cols []col
	for g, j := range group {
		for _, p := range masks[j].Indices() {
			cols = append(cols, col{g, p})
		}
	}
	nrow := len(group) + len(ports) - 1
	A := mat.NewDense(nrow, len(cols), nil)
	b := make([]float64, nrow)
	for c, cl := range cols {
		A.Set(cl.g, c, 1)
		if r, ok := row[cl.k]; ok {
			A.Set(r, c, 1)
		}
	}
	for g, j := range group {
		b[g] = float64(mass[j])
	}
	for p, r := range row {
		b[r] = load[p]
	}
	_, sol, err := lp.Simplex(make([]float64, len(cols)), A, b, 1e-9, nil)
	if err != nil {
		return err
	}
	for c, cl := range cols {
		x[group[cl.g]][cl.k] = max(0, sol[c])
	}
	return nil
}

// PortLoads returns the µops each port executes per execution of e in the
// balanced optimal schedule (see Balanced): dst[k] is the load of port k,
// as a per-port µop counter would count it, and the loads sum to the µops
// of e. The loads are exact fractions and unique; they ignore the front-end
// bound (they are the ports' share of the work, not a timing). PortLoads
// needs no LP and is two orders of magnitude faster than Balanced. dst is
// reused when it has room for the ports (nil: allocate). It returns an
// error naming an instruction the mapping does not map.
func (md *Model) PortLoads(e portmap.Experiment, dst []float64) ([]float64, error) {
	x, err := md.Index(e)
	if err != nil {
		return nil, err
	}
	if cap(dst) < md.nports {
		dst = make([]float64, md.nports)
	}
	dst = dst[:md.nports]
	clear(dst)
	var masks []portmap.PortSet
	var mass []int64
	for _, t := range x.Terms {
		for u := md.off[t.Insn]; u < md.off[t.Insn+1]; u++ {
			w := int64(t.Count) * md.ucount[u]
			if j := slices.Index(masks, md.umask[u]); j >= 0 {
				mass[j] += w
			} else if w > 0 {
				masks, mass = append(masks, md.umask[u]), append(mass, w)
			}
		}
	}
	for p, l := range waterLevels(masks, mass) {
		dst[p] = float64(l.Num) / float64(l.Den)
	}
	return dst, nil
}
