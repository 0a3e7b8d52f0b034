package bench_test

import (
	"testing"

	"github.com/portlab/portlab/bench"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// benchConfigs returns every configuration of bench.DefaultConfigs once by
// name: ports=10/len=4 lies on both axes and ports=10/len=5 is also the
// realistic three-level case.
func benchConfigs() []bench.Config {
	seen := map[string]bool{}
	var out []bench.Config
	for _, c := range bench.DefaultConfigs() {
		if !seen[c.Name()] {
			seen[c.Name()] = true
			out = append(out, c)
		}
	}
	return out
}

// forEachConfig runs f as a sub-benchmark per configuration with its cases
// (8 mappings × 128 experiments, or the 2,000 SKL experiments), drawn before
// the timed loop.
func forEachConfig(b *testing.B, f func(b *testing.B, cases []bench.Case)) {
	for _, c := range benchConfigs() {
		b.Run(c.Name(), func(b *testing.B) {
			cases, err := bench.Options{}.Cases(c)
			if err != nil {
				b.Skip("no data:", err)
			}
			f(b, cases)
		})
	}
}

// BenchmarkBottleneck times Model.Evaluate on pre-indexed experiments; ns/op
// is per experiment.
func BenchmarkBottleneck(b *testing.B) {
	forEachConfig(b, func(b *testing.B, cases []bench.Case) {
		var acc int64
		for i := 0; b.Loop(); i++ {
			c := &cases[i%len(cases)]
			acc += c.Model.Evaluate(c.Terms).Num
		}
		if acc < 0 {
			b.Fatal("negative µop mass")
		}
	})
}

// BenchmarkLP times throughput.LP (build and solve the LP) per experiment.
func BenchmarkLP(b *testing.B) {
	forEachConfig(b, func(b *testing.B, cases []bench.Case) {
		for i := 0; b.Loop(); i++ {
			c := &cases[i%len(cases)]
			if _, err := throughput.LP(c.Mapping, c.Experiment); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkOfMasses times throughput.OfMasses, the entry point of inference
// algorithms that keep their own µop tables (lib/infer/pmevo), on the µop
// masses of the cases, computed before the timed loop; ns/op is per
// experiment.
func BenchmarkOfMasses(b *testing.B) {
	forEachConfig(b, func(b *testing.B, cases []bench.Case) {
		type kinds struct {
			masks []portmap.PortSet
			mass  []int64
		}
		ks := make([]kinds, len(cases))
		for i, c := range cases {
			m, err := c.Mapping.UopMass(c.Experiment)
			if err != nil {
				b.Fatal(err)
			}
			for mk, w := range m {
				ks[i].masks = append(ks[i].masks, mk)
				ks[i].mass = append(ks[i].mass, w)
			}
		}
		var masks []portmap.PortSet
		var mass []int64
		var acc int64
		for i := 0; b.Loop(); i++ {
			k := &ks[i%len(ks)]
			// OfMasses may reorder its arguments.
			masks, mass = append(masks[:0], k.masks...), append(mass[:0], k.mass...)
			acc += throughput.OfMasses(masks, mass).Num
		}
		if acc < 0 {
			b.Fatal("negative µop mass")
		}
	})
}
