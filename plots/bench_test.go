package plots

import "testing"

// The benchmarks render a heat map of 40,000 (measured, predicted) pairs,
// the size of a large evaluation (PMEvo's ZEN set has 1,000 experiments per
// length, the thesis 5,000 per length over nine lengths):
//
//	go test -run '^$' -bench 40000 ./plots
//
// PNG and SVG include binning and the metrics (Kendall's τ-b is
// O(n log n)); HTML includes them and packing the option (the library is
// packed once per process, before the timer starts). Histogram is the
// binning alone.
func BenchmarkHeatmap40000(b *testing.B) {
	meas, pred := synthetic(40000)
	labels := make([]string, len(meas))
	for i := range labels {
		labels[i] = "{exp ↦ 1}"
	}
	h := NewHeatmap(labelledAs(meas, pred, labels)).Titled("40,000 experiments")
	h.HTML() // pack the library
	b.Run("Histogram", func(b *testing.B) {
		for b.Loop() {
			if _, err := h.Histogram(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("PNG", func(b *testing.B) {
		for b.Loop() {
			if _, err := h.PNG(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("SVG", func(b *testing.B) {
		for b.Loop() {
			if _, err := h.SVG(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("HTML", func(b *testing.B) {
		var n int
		for b.Loop() {
			n = len(h.HTML())
		}
		b.ReportMetric(float64(n), "bytes/fragment")
	})
}

// BenchmarkScatter40000 renders the point-by-point view of the same data;
// its HTML carries every point and label.
func BenchmarkScatter40000(b *testing.B) {
	meas, pred := synthetic(40000)
	labels := make([]string, len(meas))
	for i := range labels {
		labels[i] = "{exp ↦ 1}"
	}
	s := NewScatter(labelledAs(meas, pred, labels))
	s.HTML()
	b.Run("PNG", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.PNG(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("HTML", func(b *testing.B) {
		var n int
		for b.Loop() {
			n = len(s.HTML())
		}
		b.ReportMetric(float64(n), "bytes/fragment")
	})
}
