package anica_test

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/portlab/portlab/lib/anica"
	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/predict/llvmmca"
	"github.com/portlab/portlab/lib/sim"
	"github.com/portlab/portlab/lib/source"
)

// BenchmarkPredict measures the loop's throughput: blocks predicted per
// second through a Cache, uncached (every block new) and cached (every
// block asked before), for the simulator, llvm-mca (znver3; skipped
// without llvm-mca) and, with PORTLAB_BENCH_HOST set to a CPU number, the
// host's block measurement on that CPU. The blocks are 100 samples of 4
// instructions from the Zen+-like machine's forms.
func BenchmarkPredict(b *testing.B) {
	d, s := zenDomain(b)
	rng := rand.New(rand.NewPCG(1, 1))
	var blocks []*block.Block
	for len(blocks) < 100 {
		if blk, err := d.Sample(anica.Top(4), rng); err == nil {
			blocks = append(blocks, blk)
		}
	}
	preds := []sim.BlockPredictor{s}
	if _, err := llvmmca.Find(); err == nil {
		mca := llvmmca.New("znver3")
		mca.BatchSize = 25
		preds = append(preds, mca)
	}
	if cpu := os.Getenv("PORTLAB_BENCH_HOST"); cpu != "" {
		bp, err := source.ParseBlockPredictor("host:" + cpu)
		if err != nil {
			b.Fatal(err)
		}
		host, _, err := bp.Open(b.Context(), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer bp.Close()
		preds = append(preds, host)
	}
	for _, p := range preds {
		b.Run(p.Name()+"/uncached", func(b *testing.B) {
			n := 0
			for b.Loop() {
				if _, err := anica.NewCache(p).Predict(b.Context(), blocks); err != nil {
					b.Fatal(err)
				}
				n += len(blocks)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "blocks/s")
		})
		b.Run(p.Name()+"/cached", func(b *testing.B) {
			c := anica.NewCache(p)
			if _, err := c.Predict(b.Context(), blocks); err != nil {
				b.Fatal(err)
			}
			n := 0
			for b.Loop() {
				if _, err := c.Predict(b.Context(), blocks); err != nil {
					b.Fatal(err)
				}
				n += len(blocks)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "blocks/s")
		})
	}
}
