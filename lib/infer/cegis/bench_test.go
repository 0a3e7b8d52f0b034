package cegis

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/oracle"
)

// BenchmarkInfer times a whole inference from exact simulated measurements
// of random two-level truths (1–4 ports per instruction, thesis §4.5.1;
// three truths, one per iteration in turn) with the thesis's settings
// (ThesisConfig: the LP-optimality encoding) and portlab's (DefaultConfig).
// The thesis needed more than 10,000 s for 8 ports × 10 instructions.
// Each inference is cut off after 20 minutes. Run one size with e.g.
//
//	go test -run '^$' -bench 'Infer/ports=8/insns=10' -benchtime 3x -timeout 3h ./lib/infer/cegis
func BenchmarkInfer(b *testing.B) {
	for _, size := range []struct{ ports, insns int }{{4, 6}, {6, 6}, {8, 10}} {
		for _, c := range []struct {
			name string
			cfg  Config
		}{{"thesis", ThesisConfig()}, {"portlab", DefaultConfig()}} {
			b.Run(fmt.Sprintf("ports=%d/insns=%d/%s", size.ports, size.insns, c.name), func(b *testing.B) {
				needZ3(b)
				measured := 0
				for i := 0; b.Loop(); i++ {
					truth := randomTwoLevel(size.ports, size.insns, uint64(i%3+1))
					ctx, cancel := context.WithTimeout(b.Context(), 20*time.Minute)
					res, err := Infer(ctx, oracle.Simulate(truth, 0, 1), truth.Instructions(), size.ports, c.cfg)
					cancel()
					if err != nil {
						b.Fatalf("%v: %v", truth.Name(), err)
					}
					measured += res.Measurements.Len()
					b.Logf("%v: %v", truth.Name(), res)
				}
				b.ReportMetric(float64(measured)/float64(b.N), "experiments/op")
			})
		}
	}
}
