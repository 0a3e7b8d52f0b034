package pmevo

import (
	"fmt"
	"math"

	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// entry is count copies of a µop that runs on ports.
type entry struct {
	ports portmap.PortSet
	n     int32
}

// genome is a candidate mapping of the representatives: the µops of each.
// Entries of one instruction have distinct port sets.
type genome [][]entry

// term is one instruction of a training experiment.
type term struct {
	insn  int32
	count int32
}

// problem is the training data of the evolutionary algorithm: the
// representatives and the experiments among them, flat for fast fitness
// evaluation.
type problem struct {
	nports int
	all    portmap.PortSet
	insns  []string  // representatives
	single []float64 // singleton inverse throughput per representative
	// Experiment j has terms[off[j]:off[j+1]], measured cycles meas[j] and
	// length (number of instructions) size[j].
	off   []int32
	terms []term
	meas  []float64
	size  []float64
	// touch[i] lists the experiments that contain representative i.
	touch [][]int32
	// ipc caps the throughput at size/ipc when positive.
	ipc float64
}

func newProblem(s *portmap.ExperimentSet, reps []string, nports int, ipc float64) (*problem, error) {
	p := &problem{nports: nports, all: portmap.PortSet(1)<<nports - 1, insns: reps, ipc: ipc}
	if nports == 64 {
		p.all = ^portmap.PortSet(0)
	}
	idx := map[string]int32{}
	for i, r := range reps {
		idx[r] = int32(i)
	}
	p.single = make([]float64, len(reps))
	p.touch = make([][]int32, len(reps))
	p.off = append(p.off, 0)
	for k, m := range s.Measurements {
		items := m.Experiment.Items()
		ok := len(items) > 0
		for _, it := range items {
			if _, in := idx[it.Insn]; !in {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		if !(m.Cycles > 0) || math.IsInf(m.Cycles, 0) {
			return nil, fmt.Errorf("pmevo: experiment %d %v: measured cycles %v, want a positive number", k, m.Experiment, m.Cycles)
		}
		j := int32(len(p.meas))
		for _, it := range items {
			i := idx[it.Insn]
			p.terms = append(p.terms, term{i, int32(it.Count)})
			p.touch[i] = append(p.touch[i], j)
		}
		if len(items) == 1 && items[0].Count == 1 {
			p.single[idx[items[0].Insn]] = m.Cycles
		}
		p.off = append(p.off, int32(len(p.terms)))
		p.meas = append(p.meas, m.Cycles)
		p.size = append(p.size, float64(m.Experiment.Len()))
	}
	for i, r := range reps {
		if p.single[i] == 0 {
			return nil, fmt.Errorf("pmevo: no singleton measurement {%s ↦ 1}", r)
		}
	}
	return p, nil
}

// predict returns the inverse throughput g predicts for experiment j.
func (p *problem) predict(g genome, j int) float64 {
	var masksBuf [48]portmap.PortSet
	var massBuf [48]int64
	masks, mass := masksBuf[:0], massBuf[:0]
	for _, t := range p.terms[p.off[j]:p.off[j+1]] {
		c := int64(t.count)
	next:
		for _, e := range g[t.insn] {
			w := c * int64(e.n)
			for k := range masks {
				if masks[k] == e.ports {
					mass[k] += w
					continue next
				}
			}
			masks = append(masks, e.ports)
			mass = append(mass, w)
		}
	}
	t := throughput.OfMasses(masks, mass).Cycles
	if p.ipc > 0 {
		t = math.Max(t, p.size[j]/p.ipc)
	}
	return t
}

// relErr is the relative error of prediction t on experiment j.
func (p *problem) relErr(t float64, j int) float64 {
	return math.Abs(t-p.meas[j]) / p.meas[j]
}

// errorOf returns D_avg(g), the mean relative error over all experiments.
func (p *problem) errorOf(g genome) float64 {
	var sum float64
	for j := range p.meas {
		sum += p.relErr(p.predict(g, j), j)
	}
	return sum / float64(len(p.meas))
}

// volume returns V(g) = Σ n·|u| over all entries.
func volume(g genome) int {
	v := 0
	for _, es := range g {
		v += entriesVolume(es)
	}
	return v
}

// mapping turns g into a mapping of the representatives' classes: every
// member gets its representative's µops.
func (p *problem) mapping(g genome, classes []Class, ports []string, name string) (*portmap.Mapping, error) {
	m, err := portmap.NewMapping(name, ports...)
	if err != nil {
		return nil, err
	}
	byRep := map[string]int{}
	for i, r := range p.insns {
		byRep[r] = i
	}
	for _, c := range classes {
		i, ok := byRep[c.Representative]
		if !ok {
			continue
		}
		uops := make([]portmap.Uop, 0, len(g[i]))
		for _, e := range g[i] {
			if e.n > 0 {
				uops = append(uops, portmap.Uop{Ports: e.ports, Count: int(e.n)})
			}
		}
		for _, in := range c.Members {
			if err := m.Set(in, uops...); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}
