package bench

import (
	"fmt"
	"math/rand/v2"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// Setup of the random cases, after PMEvo Fig. 8 and thesis Fig. 5.4.
const (
	// Instructions is the size of the artificial ISA of a random mapping.
	Instructions = 100
	// Mappings is the number of random mappings per configuration.
	Mappings = 8
	// PerMapping is the number of random experiments per mapping.
	PerMapping = 128
	// MaxUopPorts is the largest port set of a random µop.
	MaxUopPorts = 4
)

// Source says where the mapping and the experiments of a configuration come
// from.
type Source int

const (
	// ThreeLevel: random three-level mappings (see RandomMapping) and random
	// experiments (see RandomExperiments).
	ThreeLevel Source = iota
	// TwoLevel: random two-level mappings, one µop per instruction.
	TwoLevel
	// SKLUopsInfo: the uops.info Skylake mapping of the PMEvo artifact on the
	// measured Skylake experiments exps_eval_small.json (2,000 experiments
	// of length 5 over 9 ports).
	SKLUopsInfo
)

func (s Source) String() string {
	switch s {
	case ThreeLevel:
		return "three-level"
	case TwoLevel:
		return "two-level"
	case SKLUopsInfo:
		return "SKL-uops.info"
	}
	return fmt.Sprintf("Source(%d)", int(s))
}

// Case is one experiment to evaluate, with its mapping prepared both ways:
// Mapping and Experiment for throughput.LP, Model and Terms (the experiment
// indexed for the model) for the bottleneck engine's Evaluate.
type Case struct {
	Mapping    *portmap.Mapping
	Experiment portmap.Experiment
	Model      *throughput.Model
	Terms      []portmap.Term
}

// RandomMapping draws a random mapping over nports ports (named p0, p1, ...)
// for an artificial ISA of ninsn instructions (named i000, i001, ...). In a
// three-level mapping each instruction decomposes into 1 to 3 µops (uniform),
// in a two-level one into exactly one. Every µop runs on a port set of 1 to
// min(MaxUopPorts, nports) ports (size uniform, then the ports uniform
// without repetition); the µops of one instruction have pairwise different
// port sets (a repeated set is drawn again) and, in a three-level mapping,
// a count of 1 or 2 (uniform).
func RandomMapping(r *rand.Rand, src Source, nports, ninsn int) *portmap.Mapping {
	ports := make([]string, nports)
	for k := range ports {
		ports[k] = fmt.Sprintf("p%d", k)
	}
	m := portmap.MustMapping(fmt.Sprintf("random-%s-%d", src, nports), ports...)
	perm := make([]int, nports)
	for i := 0; i < ninsn; i++ {
		nu := 1
		if src == ThreeLevel {
			nu = 1 + r.IntN(3)
		}
		uops := make([]portmap.Uop, 0, nu)
	draw:
		for len(uops) < nu {
			for k := range perm {
				perm[k] = k
			}
			size := 1 + r.IntN(min(MaxUopPorts, nports))
			var s portmap.PortSet
			for k := 0; k < size; k++ { // partial Fisher–Yates shuffle
				j := k + r.IntN(nports-k)
				perm[k], perm[j] = perm[j], perm[k]
				s |= 1 << uint(perm[k])
			}
			for _, u := range uops {
				if u.Ports == s {
					continue draw
				}
			}
			count := 1
			if src == ThreeLevel {
				count = 1 + r.IntN(2)
			}
			uops = append(uops, portmap.Uop{Ports: s, Count: count})
		}
		if err := m.Set(fmt.Sprintf("i%03d", i), uops...); err != nil {
			panic(err) // cannot happen: the µops are valid by construction
		}
	}
	return m
}

// RandomExperiments draws n experiments of length instructions each from
// the instructions of m, uniformly with replacement (so an experiment may
// hold an instruction more than once).
func RandomExperiments(r *rand.Rand, m *portmap.Mapping, length, n int) []portmap.Experiment {
	names := m.Instructions()
	exps := make([]portmap.Experiment, n)
	list := make([]string, length)
	for i := range exps {
		for j := range list {
			list[j] = names[r.IntN(len(names))]
		}
		exps[i] = portmap.NewExperiment(list...)
	}
	return exps
}

// RandomCases returns nmappings random mappings of src (ThreeLevel or
// TwoLevel) over nports ports with perMapping random experiments of the
// given length each, mapping by mapping. The draw is deterministic: mapping j
// depends only on (src, nports, j), so the configurations of one port count
// share their mappings, and its experiments on (src, nports, length, j).
func RandomCases(src Source, nports, length, nmappings, perMapping int) []Case {
	cases := make([]Case, 0, nmappings*perMapping)
	for j := 0; j < nmappings; j++ {
		mr := rand.New(rand.NewPCG(uint64(src)<<32|uint64(nports), uint64(j)))
		m := RandomMapping(mr, src, nports, Instructions)
		md := throughput.NewModel(m)
		er := rand.New(rand.NewPCG(uint64(src)<<32|uint64(nports)<<16|uint64(length), 1<<20|uint64(j)))
		for _, e := range RandomExperiments(er, m, length, perMapping) {
			cases = append(cases, mustCase(m, md, e))
		}
	}
	return cases
}

// SKLCases returns the uops.info Skylake mapping on the measured Skylake
// evaluation experiments (located with lib/dataset), the first n of them if
// n > 0.
func SKLCases(n int) ([]Case, error) {
	m, err := dataset.PMEvoMapping("SKL", "uops_info")
	if err != nil {
		return nil, err
	}
	set, err := dataset.PMEvoExperiments("SKL", "eval_small")
	if err != nil {
		return nil, err
	}
	exps := set.Experiments()
	if n > 0 && n < len(exps) {
		exps = exps[:n]
	}
	md := throughput.NewModel(m)
	cases := make([]Case, len(exps))
	for i, e := range exps {
		x, err := md.Index(e)
		if err != nil {
			return nil, fmt.Errorf("bench: SKL experiment %d: %w", i, err)
		}
		cases[i] = Case{Mapping: m, Experiment: e, Model: md, Terms: x.Terms}
	}
	return cases, nil
}

func mustCase(m *portmap.Mapping, md *throughput.Model, e portmap.Experiment) Case {
	x, err := md.Index(e)
	if err != nil {
		panic(err) // cannot happen: the experiment is drawn from m
	}
	return Case{Mapping: m, Experiment: e, Model: md, Terms: x.Terms}
}
