package design

import (
	"math"

	"github.com/portlab/portlab/lib/portmap"
)

// Blocking returns the experiment {form ↦ 1, probe ↦ k} that measures form
// against a probe (a blocking instruction in the sense of uops.info's
// Algorithm 6.1, thesis §6.1; a basic instruction's saturating kernel in
// PALMED's, CGO 2022 §2.4, §4.3): k = ⌈(1 − tol)·t(form)/t(probe)⌉
// copies of the probe, at least one, so that the probe keeps its ports as
// busy as form keeps its own and both matter to the throughput. t are
// measured singleton inverse throughputs, tol their relative noise: forms
// with equal port usage have singletons equal within tol and therefore
// get the same experiment shape (without the (1 − tol), a ratio of 4
// measured as 3.99 and 4.01 would give 4 and 5 copies), so that measured
// against the same probes they agree. A non-positive t(probe) gives k = 1.
func Blocking(form string, tForm float64, probe string, tProbe, tol float64) portmap.Experiment {
	k := 1
	if tProbe > 0 && tForm > tProbe {
		k = max(1, int(math.Ceil((1-tol)*tForm/tProbe-1e-9)))
	}
	if form == probe {
		return portmap.NewExperiment(form).With(form, k)
	}
	return portmap.NewExperiment(form).With(probe, k)
}

// AgainstProbes returns Blocking(f, probe) for every form of forms and every
// probe of probes, form-major: |forms|·|probes| experiments, linear in the
// number of forms. Forms or probes without a positive singleton in t are
// left out.
func AgainstProbes(forms, probes []string, t map[string]float64, tol float64) []portmap.Experiment {
	var out []portmap.Experiment
	for _, f := range forms {
		if !(t[f] > 0) {
			continue
		}
		for _, p := range probes {
			if !(t[p] > 0) {
				continue
			}
			out = append(out, Blocking(f, t[f], p, t[p], tol))
		}
	}
	return out
}
