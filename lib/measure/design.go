package measure

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/portlab/portlab/lib/portmap"
)

// Singletons returns the experiments {i ↦ 1} for every instruction (PMEvo
// §4.1, thesis §5.1.1).
func Singletons(insns []string) []portmap.Experiment {
	out := make([]portmap.Experiment, len(insns))
	for i, s := range insns {
		out[i] = portmap.NewExperiment(s)
	}
	return out
}

// Pairs returns the experiments {a ↦ 1, b ↦ 1} for all unordered pairs of
// distinct instructions.
func Pairs(insns []string) []portmap.Experiment {
	var out []portmap.Experiment
	for i := range insns {
		for j := i + 1; j < len(insns); j++ {
			out = append(out, portmap.NewExperiment(insns[i], insns[j]))
		}
	}
	return out
}

// RatioPairs returns PMEvo's balanced pairs {a ↦ 1, b ↦ ⌈t(a)/t(b)⌉} for all
// ordered pairs with t(a) ≥ t(b) and a ratio above 1 (equal ratios are
// already covered by Pairs), where t are the measured singleton inverse
// throughputs. Mixing a slow instruction with enough copies of a fast one
// makes both matter to the throughput, which reveals whether they compete
// for ports. Instructions without a singleton value are an error.
func RatioPairs(insns []string, singleton map[string]float64) ([]portmap.Experiment, error) {
	for _, s := range insns {
		if t, ok := singleton[s]; !ok || !(t > 0) {
			return nil, fmt.Errorf("measure: no positive singleton throughput for %q", s)
		}
	}
	var out []portmap.Experiment
	for _, a := range insns {
		for _, b := range insns {
			if a == b {
				continue
			}
			ta, tb := singleton[a], singleton[b]
			if ta < tb || (ta == tb && a > b) {
				continue
			}
			n := int(math.Ceil(ta/tb - 1e-9))
			if n <= 1 {
				continue
			}
			e, err := portmap.ExperimentOfItems(portmap.Item{Insn: a, Count: 1}, portmap.Item{Insn: b, Count: n})
			if err != nil {
				return nil, err
			}
			out = append(out, e)
		}
	}
	return out, nil
}

// RandomExperiments returns n experiments of the given length, each
// instruction drawn uniformly with replacement (PMEvo's evaluation sets),
// reproducibly from seed.
func RandomExperiments(insns []string, length, n int, seed uint64) []portmap.Experiment {
	r := rand.New(rand.NewPCG(seed, 0x5bd1e995))
	out := make([]portmap.Experiment, n)
	list := make([]string, length)
	for i := range out {
		for j := range list {
			list[j] = insns[r.IntN(len(insns))]
		}
		out[i] = portmap.NewExperiment(list...)
	}
	return out
}
