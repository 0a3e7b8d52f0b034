package throughput

import (
	"math/rand/v2"
	"testing"

	"github.com/portlab/portlab/lib/portmap"
)

func benchExperiments(nports, length, n int) (*Model, []portmap.Indexed, *portmap.Mapping, []portmap.Experiment) {
	r := rand.New(rand.NewPCG(7, 8))
	m, _ := randomCase(r, nports, 100, 1)
	names := m.Instructions()
	md := NewModel(m)
	idx := make([]portmap.Indexed, n)
	exps := make([]portmap.Experiment, n)
	for i := range idx {
		l := make([]string, length)
		for j := range l {
			l[j] = names[r.IntN(len(names))]
		}
		exps[i] = portmap.NewExperiment(l...)
		idx[i], _ = md.Index(exps[i])
	}
	return md, idx, m, exps
}

// BenchmarkEvaluate10Ports5 is the PMEvo fitness hot path: one length-5
// experiment, 10 ports, pre-indexed.
func BenchmarkEvaluate10Ports5(b *testing.B) {
	md, idx, _, _ := benchExperiments(10, 5, 1024)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		md.Evaluate(idx[i&1023].Terms)
	}
}

// BenchmarkEvaluate10Ports5TwoLevel: the same with a two-level mapping.
func BenchmarkEvaluate10Ports5TwoLevel(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	m := portmap.MustMapping("two", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9")
	for i := 0; i < 100; i++ {
		var s portmap.PortSet
		for s == 0 {
			s = portmap.PortSet(r.Uint64() & (1<<10 - 1))
			for s.Len() > 1+r.IntN(4) {
				s &= s - 1
			}
		}
		m.Set(string(rune('a'+i%26))+string(rune('a'+i/26)), portmap.Uop{Ports: s, Count: 1})
	}
	md := NewModel(m)
	names := m.Instructions()
	idx := make([]portmap.Indexed, 1024)
	for i := range idx {
		l := make([]string, 5)
		for j := range l {
			l[j] = names[r.IntN(len(names))]
		}
		idx[i], _ = md.Index(portmap.NewExperiment(l...))
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		md.Evaluate(idx[i&1023].Terms)
	}
}

func BenchmarkLP10Ports5(b *testing.B) {
	_, _, m, exps := benchExperiments(10, 5, 64)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := LP(m, exps[i&63]); err != nil {
			b.Fatal(err)
		}
	}
}
