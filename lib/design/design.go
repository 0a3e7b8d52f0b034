package design

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/portlab/portlab/lib/oracle"
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
// distinct instructions, in the order of insns.
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
// for ports. Instructions without a positive singleton value are an error.
func RatioPairs(insns []string, singleton map[string]float64) ([]portmap.Experiment, error) {
	for _, s := range insns {
		if t, ok := singleton[s]; !ok || !(t > 0) {
			return nil, fmt.Errorf("design: no positive singleton throughput for %q", s)
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

// Random returns n experiments of the given length, each instruction drawn
// uniformly with replacement (PMEvo's evaluation sets), reproducibly from
// seed.
func Random(insns []string, length, n int, seed uint64) []portmap.Experiment {
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

// SingletonCycles returns the cycles of the singleton experiments of set by
// instruction.
func SingletonCycles(set *portmap.ExperimentSet) map[string]float64 {
	out := map[string]float64{}
	for _, m := range set.Measurements {
		if items := m.Experiment.Items(); len(items) == 1 && items[0].Count == 1 {
			out[items[0].Insn] = m.Cycles
		}
	}
	return out
}

// PMEvo measures PMEvo's training experiments for insns with o (thesis
// §5.1.1): the singletons {a ↦ 1}, then every pair {a ↦ 1, b ↦ 1} and every
// ratio pair built from the measured singletons — |I| + 2·C(|I|, 2)
// experiments at most. An experiment o fails to measure is left out and
// returned as a failure (Index counts through the whole design); an
// instruction whose singleton failed gets no ratio pairs. progress, when
// set, is called after each experiment with Done and Total counted over
// the whole design (Total is an estimate until the singletons are
// measured). With a measure.Campaign as o the design survives crashes: a
// rerun answers from the file what was measured before.
func PMEvo(ctx context.Context, o oracle.Oracle, insns []string, progress func(oracle.Progress)) (*portmap.ExperimentSet, []portmap.Failure, error) {
	set := &portmap.ExperimentSet{}
	var failures []portmap.Failure
	done, total := 0, len(insns)*len(insns)
	run := func(exps []portmap.Experiment) error {
		got, fails, err := oracle.MeasureAll(ctx, o, exps, func(p oracle.Progress) {
			if progress != nil {
				p.Done, p.Total, p.Failed = done+p.Done, total, len(failures)+p.Failed
				progress(p)
			}
		})
		set.Measurements = append(set.Measurements, got.Measurements...)
		for _, f := range fails {
			f.Index += done
			failures = append(failures, f)
		}
		done += len(exps)
		return err
	}
	if err := run(Singletons(insns)); err != nil {
		return set, failures, err
	}
	ratio := measuredRatioPairs(insns, set)
	pairs := Pairs(insns)
	total = len(insns) + len(pairs) + len(ratio)
	if err := run(pairs); err != nil {
		return set, failures, err
	}
	err := run(ratio)
	return set, failures, err
}

// measuredRatioPairs returns the ratio pairs of the instructions of insns
// whose singleton set measured (in order; those without are left out).
func measuredRatioPairs(insns []string, set *portmap.ExperimentSet) []portmap.Experiment {
	single := SingletonCycles(set)
	var ok []string
	for _, s := range insns {
		if single[s] > 0 {
			ok = append(ok, s)
		}
	}
	ratio, _ := RatioPairs(ok, single) // every instruction of ok has a positive singleton
	return ratio
}

// Names lists the design names Build understands, for usage texts.
const Names = "singletons | pairs | ratio | pmevo | latency | random:LENGTH:COUNT[:SEED]"

// Build returns the experiments of the design named spec over insns:
// "singletons", "pairs", "ratio" (PMEvo's ratio pairs; measures the
// singletons with o first), "pmevo" (singletons, pairs and ratio pairs; see
// PMEvo) or "random:LENGTH:COUNT[:SEED]" (Random, seed 1 by default). o is
// needed only by the designs that measure; singletons that fail leave
// their instruction out of the ratio pairs. "latency" gives the latency
// experiments of Latency (forms without a latency chain are left out:
// Latency gives the reasons), to be measured by an oracle that builds
// latency chains (measure.Hardware with Kernels = measure.LatencyKernel).
func Build(ctx context.Context, spec string, insns []string, o oracle.Oracle) ([]portmap.Experiment, error) {
	switch spec = strings.TrimSpace(spec); {
	case spec == "singletons":
		return Singletons(insns), nil
	case spec == "pairs":
		return Pairs(insns), nil
	case spec == "ratio" || spec == "pmevo":
		if o == nil {
			return nil, fmt.Errorf("design %q measures the singletons first: it needs an oracle", spec)
		}
		set, _, err := oracle.MeasureAll(ctx, o, Singletons(insns), nil)
		if err != nil {
			return nil, err
		}
		ratio := measuredRatioPairs(insns, set)
		if spec == "ratio" {
			return ratio, nil
		}
		return append(append(Singletons(insns), Pairs(insns)...), ratio...), nil
	case spec == "latency":
		exps, _ := Latency(insns)
		return exps, nil
	case strings.HasPrefix(spec, "random:"):
		length, count, seed, err := ParseRandom(spec)
		if err != nil {
			return nil, err
		}
		if len(insns) == 0 {
			return nil, fmt.Errorf("design %q: no instructions to draw from", spec)
		}
		return Random(insns, length, count, seed), nil
	}
	return nil, fmt.Errorf("unknown design %q (want %s)", spec, Names)
}

// ParseRandom parses "random:LENGTH:COUNT[:SEED]" (seed 1 when left out).
func ParseRandom(spec string) (length, count int, seed uint64, err error) {
	f := strings.Split(spec, ":")
	if len(f) < 3 || len(f) > 4 || f[0] != "random" {
		return 0, 0, 0, fmt.Errorf("design %q: want random:LENGTH:COUNT[:SEED]", spec)
	}
	length, err1 := strconv.Atoi(f[1])
	count, err2 := strconv.Atoi(f[2])
	seed = 1
	var err3 error
	if len(f) == 4 {
		seed, err3 = strconv.ParseUint(f[3], 10, 64)
	}
	if err1 != nil || err2 != nil || err3 != nil || length < 1 || count < 1 {
		return 0, 0, 0, fmt.Errorf("design %q: LENGTH, COUNT and SEED must be positive whole numbers", spec)
	}
	return length, count, seed, nil
}
