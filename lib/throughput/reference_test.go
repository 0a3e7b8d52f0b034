package throughput_test

import (
	"math"
	"testing"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/dataset/datasettest"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

func load(t *testing.T, arch, mapping, set string) (*portmap.Mapping, *portmap.ExperimentSet) {
	t.Helper()
	m, err := dataset.PMEvoMapping(arch, mapping)
	if err != nil {
		t.Fatal(err)
	}
	s, err := dataset.PMEvoExperiments(arch, set)
	if err != nil {
		t.Fatal(err)
	}
	return m, s
}

// TestReferenceNumbers reproduces the table of ../shared/data/README.md:
// bottleneck predictions of the stored mappings against PMEvo's measured
// evaluation experiments.
func TestReferenceNumbers(t *testing.T) {
	datasettest.Need(t)
	cases := []struct {
		arch, mapping                   string
		mape, median, pearson, kendallB float64 // NaN: not published
	}{
		{"SKL", "uops_info", 9.55, 1.64, 0.913, 0.758},
		{"SKL", "pmevo", 14.67, 11.46, 0.978, 0.720},
		{"ZEN", "pmevo", 13.65, 8.50, 0.950, 0.752},
		{"A72", "pmevo", 21.31, 18.41, 0.695, 0.615},
	}
	for _, c := range cases {
		m, s := load(t, c.arch, c.mapping, "eval_small")
		pred, err := throughput.Predict(t.Context(), m, s.Experiments())
		if err != nil {
			t.Fatal(err)
		}
		sum, err := metrics.Summarize(s.Cycles(), pred)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s %s: %v", c.arch, c.mapping, sum)
		check := func(what string, got, want, tol float64) {
			if math.Abs(got-want) > tol {
				t.Errorf("%s %s: %s = %.4f, want %.2f ± %g", c.arch, c.mapping, what, got, want, tol)
			}
		}
		check("MAPE %", sum.MAPE, c.mape, 0.01)
		check("median APE %", sum.MedianAPE, c.median, 0.01)
		check("Pearson", sum.Pearson, c.pearson, 0.001)
		check("Kendall τ-b", sum.KendallTauB, c.kendallB, 0.001)
	}
}

// TestLPMatchesBottleneckOnPMEvoData solves the LP for every experiment of
// the shared PMEvo data and compares it with the bottleneck formula.
func TestLPMatchesBottleneckOnPMEvoData(t *testing.T) {
	datasettest.Need(t)
	type job struct{ arch, mapping, set string }
	jobs := []job{
		{"SKL", "uops_info", "singletons"}, {"SKL", "uops_info", "eval_small"},
		{"SKL", "pmevo", "singletons"}, {"SKL", "pmevo", "eval_small"},
		{"ZEN", "pmevo", "singletons"}, {"ZEN", "pmevo", "eval_small"}, {"ZEN", "pmevo", "eval"},
		{"A72", "pmevo", "singletons"}, {"A72", "pmevo", "eval_small"},
	}
	n := 0
	for _, j := range jobs {
		m, s := load(t, j.arch, j.mapping, j.set)
		n += compareLP(t, m, s.Experiments(), j.arch+"/"+j.set)
	}
	m, err := dataset.PMEvoMapping("SKL", "uops_info")
	if err != nil {
		t.Fatal(err)
	}
	for l := 1; l <= 15; l++ {
		s, err := dataset.VaryingLength(l)
		if err != nil {
			t.Fatal(err)
		}
		exps := s.Experiments()
		if testing.Short() {
			exps = exps[:min(len(exps), 100)]
		}
		n += compareLP(t, m, exps, "SKL/varying_length")
	}
	t.Logf("LP == bottleneck on %d experiments", n)
}

func compareLP(t *testing.T, m *portmap.Mapping, exps []portmap.Experiment, what string) int {
	md := throughput.NewModel(m)
	for i, e := range exps {
		r, err := md.InvThroughput(e)
		if err != nil {
			t.Fatalf("%s[%d]: %v", what, i, err)
		}
		s, err := throughput.LP(m, e)
		if err != nil {
			t.Fatalf("%s[%d]: %v", what, i, err)
		}
		if math.Abs(s.LPValue-r.Cycles) > 1e-9*math.Max(1, r.Cycles) {
			t.Fatalf("%s[%d] %v: LP %v, bottleneck %v", what, i, e, s.LPValue, r.Cycles)
		}
	}
	return len(exps)
}
