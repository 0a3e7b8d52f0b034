package pmevo

import (
	"context"
	"fmt"

	"github.com/portlab/portlab/lib/measure"
	"github.com/portlab/portlab/lib/portmap"
)

// Experiments measures PMEvo's training experiments for insns with an
// oracle (thesis §5.1.1): the singletons {a ↦ 1}, then every pair
// {a ↦ 1, b ↦ 1} and every ratio pair {a ↦ 1, b ↦ ⌈t(a)/t(b)⌉} built from the
// measured singletons — |I| + 2·C(|I|, 2) experiments at most. progress, when
// set, is called after each experiment. For long hardware campaigns that
// must survive crashes, use measure.Campaign with measure.Singletons,
// measure.Pairs and measure.RatioPairs instead and read the file back.
func Experiments(ctx context.Context, o measure.Oracle, insns []string, progress func(done, total int)) (*portmap.ExperimentSet, error) {
	set := &portmap.ExperimentSet{}
	done, total := 0, len(insns)*len(insns)
	run := func(exps []portmap.Experiment) error {
		for _, e := range exps {
			t, err := o.Cycles(ctx, e)
			if err != nil {
				return fmt.Errorf("pmevo: measuring %v: %w", e, err)
			}
			set.Measurements = append(set.Measurements, portmap.Measurement{Experiment: e, Cycles: t})
			done++
			if progress != nil {
				progress(done, total)
			}
		}
		return nil
	}
	if err := run(measure.Singletons(insns)); err != nil {
		return nil, err
	}
	single := map[string]float64{}
	for _, m := range set.Measurements {
		single[m.Experiment.List()[0]] = m.Cycles
	}
	ratio, err := measure.RatioPairs(insns, single)
	if err != nil {
		return nil, err
	}
	pairs := measure.Pairs(insns)
	total = len(insns) + len(pairs) + len(ratio)
	if err := run(pairs); err != nil {
		return nil, err
	}
	if err := run(ratio); err != nil {
		return nil, err
	}
	return set, nil
}
