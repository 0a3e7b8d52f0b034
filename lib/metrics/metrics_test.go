package metrics

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

const tol = 1e-12

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestAPEMAPEMedian(t *testing.T) {
	// measured  = [2,   4, 8, 10]
	// predicted = [2.5, 3, 8, 12]
	// APE = 100·|p−m|/m = [100·0.5/2, 100·1/4, 0, 100·2/10] = [25, 25, 0, 20]
	// MAPE = (25+25+0+20)/4 = 70/4 = 17.5
	// median of sorted [0, 20, 25, 25] = (20+25)/2 = 22.5
	m := []float64{2, 4, 8, 10}
	p := []float64{2.5, 3, 8, 12}
	ape, err := APE(m, p)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{25, 25, 0, 20}
	for i := range want {
		if !near(ape[i], want[i], tol) {
			t.Errorf("APE[%d] = %v, want %v", i, ape[i], want[i])
		}
	}
	if got, err := MAPE(m, p); err != nil || !near(got, 17.5, tol) {
		t.Errorf("MAPE = %v, %v; want 17.5", got, err)
	}
	if got, err := MedianAPE(m, p); err != nil || !near(got, 22.5, tol) {
		t.Errorf("MedianAPE = %v, %v; want 22.5", got, err)
	}
	// Odd n: measured [1, 2, 4], predicted [1.1, 1.5, 4]
	// APE = [10, 25, 0] → MAPE = 35/3 = 11.666…, median = 10.
	m, p = []float64{1, 2, 4}, []float64{1.1, 1.5, 4}
	if got, err := MAPE(m, p); err != nil || !near(got, 35.0/3, 1e-12) {
		t.Errorf("MAPE = %v, %v; want 35/3", got, err)
	}
	if got, err := MedianAPE(m, p); err != nil || !near(got, 10, 1e-12) {
		t.Errorf("MedianAPE = %v, %v; want 10", got, err)
	}
	// MAPE is not symmetric: the measured value is the denominator.
	// measured 1, predicted 2 → 100 %; measured 2, predicted 1 → 50 %.
	if got, _ := MAPE([]float64{1}, []float64{2}); got != 100 {
		t.Errorf("MAPE(1, 2) = %v, want 100", got)
	}
	if got, _ := MAPE([]float64{2}, []float64{1}); got != 50 {
		t.Errorf("MAPE(2, 1) = %v, want 50", got)
	}
	// Negative and zero predictions are allowed: measured 2, predicted −1 → 150 %.
	if got, err := MAPE([]float64{2, 2}, []float64{-1, 0}); err != nil || got != 125 {
		t.Errorf("MAPE = %v, %v; want (150+100)/2 = 125", got, err)
	}
	// The input is not modified by MedianAPE's sorting.
	m, p = []float64{4, 1, 2}, []float64{4, 1.5, 3}
	if _, err := MedianAPE(m, p); err != nil || m[0] != 4 || p[0] != 4 {
		t.Errorf("MedianAPE modified its input: %v %v %v", m, p, err)
	}
}

func TestAccuracyErrors(t *testing.T) {
	tests := []struct {
		m, p []float64
		is   error
		msg  string
	}{
		{make([]float64, 10), make([]float64, 9), ErrLength, "metrics: length mismatch: measured has 10 values, predicted has 9"},
		{nil, nil, ErrEmpty, "metrics: empty input: MAPE needs at least one pair of values"},
		{[]float64{1, 0, 3}, []float64{1, 2, 3}, ErrNonPositive, "metrics: non-positive measured value: measured[1] = 0; MAPE needs every measured value > 0"},
		{[]float64{1, 2, -1.5}, []float64{1, 2, 3}, ErrNonPositive, "measured[2] = -1.5"},
		{[]float64{1, 2, 3}, []float64{1, math.NaN(), 3}, ErrNotFinite, "metrics: NaN or infinite value: predicted[1] is NaN"},
		{[]float64{1, math.Inf(1)}, []float64{1, 2}, ErrNotFinite, "measured[1] is +Inf"},
		{[]float64{1e-300}, []float64{1e300}, ErrNotFinite, "overflows"},
	}
	for _, tt := range tests {
		_, err := MAPE(tt.m, tt.p)
		if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("MAPE(%v, %v) error = %v; want %v containing %q", tt.m, tt.p, err, tt.is, tt.msg)
		}
		if _, err := APE(tt.m, tt.p); !errors.Is(err, tt.is) {
			t.Errorf("APE error = %v; want %v", err, tt.is)
		}
		if _, err := MedianAPE(tt.m, tt.p); !errors.Is(err, tt.is) {
			t.Errorf("MedianAPE error = %v; want %v", err, tt.is)
		}
		if _, err := Summarize(tt.m, tt.p); !errors.Is(err, tt.is) {
			t.Errorf("Summarize error = %v; want %v", err, tt.is)
		}
	}
}

func TestMeanOverflow(t *testing.T) {
	// Each APE is 100·(1e306−1)/1 ≈ 1e308, finite, but their sum overflows;
	// the mean must not.
	m := []float64{1, 1, 1}
	p := []float64{1e306, 1e306, 1e306}
	got, err := MAPE(m, p)
	if err != nil || !near(got/1e308, 1, 1e-12) {
		t.Errorf("MAPE = %v, %v; want 1e308", got, err)
	}
}

func TestPearson(t *testing.T) {
	// x = [1, 2, 3, 4, 5], mean 3, deviations [−2, −1, 0, 1, 2]
	// y = [2, 4, 5, 4, 5], mean 4, deviations [−2,  0, 1, 0, 1]
	// Sxy = 4+0+0+0+2 = 6, Sxx = 4+1+0+1+4 = 10, Syy = 4+0+1+0+1 = 6
	// r = 6/√(10·6) = 6/√60 = 0.7745966692414834
	x := []float64{1, 2, 3, 4, 5}
	y := []float64{2, 4, 5, 4, 5}
	got, err := Pearson(x, y)
	if err != nil || !near(got, 6/math.Sqrt(60), tol) {
		t.Errorf("Pearson = %v, %v; want %v", got, err, 6/math.Sqrt(60))
	}
	// Symmetry, sign and invariance under positive affine maps.
	neg := []float64{-2, -4, -5, -4, -5}
	if got2, _ := Pearson(y, x); got2 != got {
		t.Errorf("Pearson not symmetric: %v vs %v", got2, got)
	}
	if g, _ := Pearson(x, neg); !near(g, -got, tol) {
		t.Errorf("Pearson(x, −y) = %v, want %v", g, -got)
	}
	big := []float64{1e300, 2e300, 3e300, 4e300, 5e300}
	if g, err := Pearson(big, y); err != nil || !near(g, got, tol) {
		t.Errorf("Pearson(1e300·x, y) = %v, %v; want %v", g, err, got)
	}
	tiny := []float64{1e-310, 2e-310, 3e-310, 4e-310, 5e-310}
	if g, err := Pearson(tiny, y); err != nil || !near(g, got, 1e-9) {
		t.Errorf("Pearson(1e-310·x, y) = %v, %v; want %v", g, err, got)
	}
	// Perfect linear relation → exactly ±1 (clamped), two points → ±1.
	if g, _ := Pearson(x, []float64{3, 5, 7, 9, 11}); g != 1 {
		t.Errorf("Pearson of a line = %v, want 1", g)
	}
	if g, _ := Pearson([]float64{0, 1}, []float64{5, -5}); g != -1 {
		t.Errorf("Pearson of two points = %v, want -1", g)
	}
}

func TestSpearman(t *testing.T) {
	// No ties: x = [1,2,3,4,5], y = [2,1,4,3,5]; the values are their ranks.
	// d = rank(x) − rank(y) = [−1, 1, −1, 1, 0], Σd² = 4,
	// ρ = 1 − 6Σd²/(n(n²−1)) = 1 − 24/120 = 0.8.
	got, err := Spearman([]float64{1, 2, 3, 4, 5}, []float64{2, 1, 4, 3, 5})
	if err != nil || !near(got, 0.8, tol) {
		t.Errorf("Spearman = %v, %v; want 0.8", got, err)
	}
	// Ties: x = [1, 2, 2, 3] → mid-ranks [1, 2.5, 2.5, 4]
	//       y = [1, 2, 3, 3] → mid-ranks [1, 2, 3.5, 3.5]
	// Both rank means are 2.5; deviations dx = [−1.5, 0, 0, 1.5],
	// dy = [−1.5, −0.5, 1, 1]. Sxy = 2.25+0+0+1.5 = 3.75,
	// Sxx = 2.25+0+0+2.25 = 4.5, Syy = 2.25+0.25+1+1 = 4.5,
	// ρ = 3.75/4.5 = 5/6.
	got, err = Spearman([]float64{1, 2, 2, 3}, []float64{1, 2, 3, 3})
	if err != nil || !near(got, 5.0/6, tol) {
		t.Errorf("Spearman with ties = %v, %v; want 5/6", got, err)
	}
	// A monotone but non-linear relation has ρ = 1 while r < 1.
	x := []float64{1, 2, 3, 4, 5}
	y := []float64{1, 4, 9, 16, 1000}
	if g, _ := Spearman(x, y); g != 1 {
		t.Errorf("Spearman of monotone data = %v, want 1", g)
	}
	if g, _ := Pearson(x, y); g >= 0.9 {
		t.Errorf("Pearson of convex data = %v, want < 0.9", g)
	}
	mr := midRanks([]float64{10, 30, 20, 20, 10, 40})
	want := []float64{1.5, 5, 3.5, 3.5, 1.5, 6}
	for i := range want {
		if mr[i] != want[i] {
			t.Fatalf("midRanks = %v, want %v", mr, want)
		}
	}
}

func TestKendallTauB(t *testing.T) {
	tests := []struct {
		name string
		x, y []float64
		want float64
	}{
		// Of the 10 pairs, only (1,2) with y 2>1 and (3,4) with y 4>3 are
		// discordant: C = 8, D = 2, no ties, τ-b = τ-a = (8−2)/10 = 0.6.
		{"no ties", []float64{1, 2, 3, 4, 5}, []float64{2, 1, 4, 3, 5}, 0.6},
		// x = [1,2,2,3], y = [1,2,3,3]; pairs (by index):
		// (0,1) C, (0,2) C, (0,3) C, (1,2) tied in x only (x 2=2),
		// (1,3) C, (2,3) tied in y only (y 3=3).
		// C = 4, D = 0, n0 = 6, n1 = 1, n2 = 1.
		// τ-a = 4/6 = 0.667 but τ-b = 4/√((6−1)(6−1)) = 4/5 = 0.8.
		{"ties in x and y", []float64{1, 2, 2, 3}, []float64{1, 2, 3, 3}, 0.8},
		// x = [1,1,2,3], y = [1,1,2,2]: (0,1) tied in both, (0,2) (0,3)
		// (1,2) (1,3) C, (2,3) tied in y only. C = 4, D = 0, n0 = 6,
		// n1 = 1, n2 = 2 (pairs (0,1) and (2,3)), n3 = 1.
		// τ-b = 4/√((6−1)(6−2)) = 4/√20 = 0.894427190999916.
		{"joint tie", []float64{1, 1, 2, 3}, []float64{1, 1, 2, 2}, 4 / math.Sqrt(20)},
		// The example of scipy.stats.kendalltau, x = [12,2,1,12,2],
		// y = [1,4,7,1,0]: (0,1) D, (0,2) D, (0,3) joint tie, (0,4) C,
		// (1,2) D, (1,3) D, (1,4) tied in x, (2,3) D, (2,4) D, (3,4) C.
		// C = 2, D = 6, n1 = 2, n2 = 1: τ-b = −4/√(8·9) = −0.4714045207910317.
		{"scipy", []float64{12, 2, 1, 12, 2}, []float64{1, 4, 7, 1, 0}, -4 / math.Sqrt(72)},
		{"reversed", []float64{1, 2, 3}, []float64{3, 2, 1}, -1},
		{"two points", []float64{1, 2}, []float64{7, 8}, 1},
		// Monotone with ties in both: still exactly 1.
		{"monotone ties", []float64{1, 1, 2, 3, 3}, []float64{5, 5, 6, 7, 7}, 1},
	}
	for _, tt := range tests {
		got, err := KendallTauB(tt.x, tt.y)
		if err != nil || !near(got, tt.want, tol) {
			t.Errorf("%s: KendallTauB = %v, %v; want %v", tt.name, got, err, tt.want)
		}
		if naive := naiveTauB(tt.x, tt.y); !near(naive, tt.want, tol) {
			t.Errorf("%s: naive τ-b = %v, want %v", tt.name, naive, tt.want)
		}
		// τ-b is symmetric in x and y.
		if got2, _ := KendallTauB(tt.y, tt.x); !near(got2, got, tol) {
			t.Errorf("%s: KendallTauB(y, x) = %v, want %v", tt.name, got2, got)
		}
	}
}

// naiveTauB is the O(n²) reference: it classifies every pair.
func naiveTauB(x, y []float64) float64 {
	var c, d, tx, ty int64 // tx: tied in x only, ty: tied in y only
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			sx := cmpf(x[i], x[j])
			sy := cmpf(y[i], y[j])
			switch {
			case sx == 0 && sy == 0:
				// tied in both: counts in neither factor
			case sx == 0:
				tx++
			case sy == 0:
				ty++
			case sx == sy:
				c++
			default:
				d++
			}
		}
	}
	// n0 − n1 = C + D + (tied in y only); n0 − n2 = C + D + (tied in x only).
	return float64(c-d) / math.Sqrt(float64(c+d+ty)*float64(c+d+tx))
}

func cmpf(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestKendallFastEqualsNaive(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		r := rand.New(rand.NewPCG(seed, 42))
		n := 2000
		if seed > 3 {
			n = 1 + r.IntN(300) // also odd and small sizes
			if n < 3 {
				n = 3
			}
		}
		x := make([]float64, n)
		y := make([]float64, n)
		for i := range x {
			// Rounded to one decimal: many ties in x, in y and in both.
			x[i] = math.Round(r.Float64()*5*10) / 10
			y[i] = math.Round((x[i]+r.NormFloat64())*10) / 10
			if seed%2 == 0 {
				y[i] = -y[i] // negative correlation
			}
		}
		fast, err := KendallTauB(x, y)
		if err != nil {
			t.Fatal(err)
		}
		naive := naiveTauB(x, y)
		if !near(fast, naive, 1e-12) {
			t.Errorf("seed %d, n %d: fast τ-b = %.17g, naive = %.17g", seed, n, fast, naive)
		}
		// The input must not be modified.
		if x[0] != math.Round(x[0]*10)/10 {
			t.Fatal("input modified")
		}
	}
}

func TestKendall40000(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	x, y := randomTied(r, 40000)
	got, err := KendallTauB(x, y)
	if err != nil || got < 0.3 || got > 1 {
		t.Errorf("KendallTauB on 40000 points = %v, %v", got, err)
	}
	if testing.Short() {
		return
	}
	// Compare with the naive count on the full 40,000 points (8·10⁸ pairs).
	if naive := naiveTauB(x, y); !near(got, naive, 1e-12) {
		t.Errorf("fast τ-b = %.17g, naive = %.17g", got, naive)
	}
}

func randomTied(r *rand.Rand, n int) (x, y []float64) {
	x = make([]float64, n)
	y = make([]float64, n)
	for i := range x {
		x[i] = math.Round(r.ExpFloat64()*100) / 100
		y[i] = math.Round(x[i]*(1+0.2*r.NormFloat64())*100) / 100
	}
	return x, y
}

func BenchmarkKendallTauB40000(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x, y := randomTied(r, 40000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := KendallTauB(x, y); err != nil {
			b.Fatal(err)
		}
	}
}

func TestMergeSortSwaps(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, n := range []int{0, 1, 2, 15, 16, 17, 33, 100, 1000} {
		a := make([]float64, n)
		for i := range a {
			a[i] = float64(r.IntN(20))
		}
		var want int64
		for i := range a {
			for j := i + 1; j < n; j++ {
				if a[i] > a[j] {
					want++
				}
			}
		}
		got := mergeSortSwaps(a, make([]float64, n))
		if got != want {
			t.Errorf("n=%d: swaps = %d, want %d", n, got, want)
		}
		for i := 1; i < n; i++ {
			if a[i-1] > a[i] {
				t.Fatalf("n=%d: not sorted", n)
			}
		}
	}
}

func TestCorrelationErrors(t *testing.T) {
	fns := map[string]func(x, y []float64) (float64, error){
		"Pearson": Pearson, "Spearman": Spearman, "KendallTauB": KendallTauB,
	}
	for name, f := range fns {
		_, err := f([]float64{1.5, 1.5, 1.5}, []float64{1, 2, 3})
		want := "metrics: constant input: " + name + " undefined: x is constant (all 3 values equal 1.5)"
		if !errors.Is(err, ErrConstant) || err.Error() != want {
			t.Errorf("%s: error = %v; want %q", name, err, want)
		}
		if _, err := f([]float64{1, 2, 3}, []float64{4, 4, 4}); !errors.Is(err, ErrConstant) || !strings.Contains(err.Error(), "y is constant") {
			t.Errorf("%s: error = %v; want y constant", name, err)
		}
		if _, err := f([]float64{1}, []float64{2}); !errors.Is(err, ErrConstant) || !strings.Contains(err.Error(), "single value") {
			t.Errorf("%s: one point: error = %v", name, err)
		}
		if _, err := f(nil, nil); !errors.Is(err, ErrEmpty) {
			t.Errorf("%s: error = %v; want ErrEmpty", name, err)
		}
		if _, err := f([]float64{1, 2}, []float64{1}); !errors.Is(err, ErrLength) || !strings.Contains(err.Error(), "x has 2 values, y has 1") {
			t.Errorf("%s: error = %v; want ErrLength", name, err)
		}
		_, err = f([]float64{1, 2, math.Inf(-1)}, []float64{1, 2, 3})
		if !errors.Is(err, ErrNotFinite) || !strings.Contains(err.Error(), "x[2] is -Inf") {
			t.Errorf("%s: error = %v; want ErrNotFinite naming x[2]", name, err)
		}
		if _, err := f([]float64{1, 2, 3}, []float64{1, math.NaN(), 3}); !errors.Is(err, ErrNotFinite) || !strings.Contains(err.Error(), "y[1] is NaN") {
			t.Errorf("%s: error = %v; want ErrNotFinite naming y[1]", name, err)
		}
	}
}

func TestSymmetricRelativeDifference(t *testing.T) {
	tests := []struct{ a, b, want float64 }{
		{0, 0, 0},
		{3, 3, 0},
		{1, 3, 1},         // 2·2/(1+3) = 1
		{3, 1, 1},         // symmetric
		{90, 110, 0.2},    // 2·20/200
		{0, 5, 2},         // one zero → 2
		{-1, 1, 2},        // opposite signs → 2
		{-2, -4, 2.0 / 3}, // 2·2/6
		{math.MaxFloat64, -math.MaxFloat64, 2},
		{math.MaxFloat64, math.MaxFloat64 / 2, 2.0 / 3},
	}
	for _, tt := range tests {
		if got := SymmetricRelativeDifference(tt.a, tt.b); !near(got, tt.want, tol) {
			t.Errorf("SymmetricRelativeDifference(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	for _, v := range []float64{math.NaN(), math.Inf(1)} {
		if got := SymmetricRelativeDifference(v, 1); !math.IsNaN(got) {
			t.Errorf("SymmetricRelativeDifference(%v, 1) = %v, want NaN", v, got)
		}
	}
}

func TestRound(t *testing.T) {
	in := []float64{1.005, 2.675, 0.125, 0.375, -1.555, 3, 1.23456, math.NaN(), math.Inf(-1), -0.001}
	want := []float64{1, 2.67, 0.12, 0.38, -1.55, 3, 1.23, math.NaN(), math.Inf(-1), math.Copysign(0, -1)}
	got := Round(in, 2)
	for i := range want {
		if !(got[i] == want[i] || math.IsNaN(got[i]) && math.IsNaN(want[i])) || math.Signbit(got[i]) != math.Signbit(want[i]) {
			t.Errorf("Round(%v, 2) = %v, want %v", in[i], got[i], want[i])
		}
	}
	if in[0] != 1.005 {
		t.Error("Round modified its input")
	}
	tests := []struct {
		v    float64
		d    int
		want float64
	}{
		{2.5, 0, 2}, {3.5, 0, 4}, {-2.5, 0, -2},
		{1234.5, -2, 1200}, {1250, -2, 1200}, {1350, -2, 1400},
		{0.1 + 0.2, 1, 0.3}, {123.456, 1, 123.5}, {5e-324, 400, 5e-324},
		{7, 2000, 7}, {7, -400, 0},
	}
	for _, tt := range tests {
		if got := Round([]float64{tt.v}, tt.d)[0]; got != tt.want {
			t.Errorf("Round(%v, %d) = %v, want %v", tt.v, tt.d, got, tt.want)
		}
	}
	if got := Round(nil, 2); len(got) != 0 {
		t.Errorf("Round(nil) = %v", got)
	}
}

func TestSummarize(t *testing.T) {
	m := []float64{2, 4, 8, 10}
	p := []float64{2.5, 3, 8, 12}
	s, err := Summarize(m, p)
	if err != nil {
		t.Fatal(err)
	}
	wantP, _ := Pearson(m, p)
	wantS, _ := Spearman(m, p)
	wantK, _ := KendallTauB(m, p)
	if s.N != 4 || s.MAPE != 17.5 || s.MedianAPE != 22.5 || s.Pearson != wantP || s.Spearman != wantS || s.KendallTauB != wantK {
		t.Errorf("Summarize = %+v", s)
	}
	// Ranks of m: [1,2,3,4]; of p: [1,2,3,4] → ρ = τ = 1.
	if s.Spearman != 1 || s.KendallTauB != 1 {
		t.Errorf("rank correlations = %v, %v; want 1, 1", s.Spearman, s.KendallTauB)
	}
	str := s.String()
	wantStr := "n=4 MAPE=17.50% median APE=22.50% Pearson=0.974 Spearman=1.000 Kendall τ-b=1.000"
	if str != wantStr {
		t.Errorf("String() = %q, want %q", str, wantStr)
	}
	html := s.HTML()
	for _, sub := range []string{"<table", "<th>Kendall &tau;-b</th>", ">17.50%</td>", "</table>"} {
		if !strings.Contains(html, sub) {
			t.Errorf("HTML() = %q lacks %q", html, sub)
		}
	}
	md := s.Markdown()
	wantMD := "| n | MAPE | median APE | Pearson | Spearman | Kendall τ-b |\n" +
		"|---:|---:|---:|---:|---:|---:|\n" +
		"| 4 | 17.50% | 22.50% | 0.974 | 1.000 | 1.000 |"
	if md != wantMD {
		t.Errorf("Markdown() =\n%s\nwant\n%s", md, wantMD)
	}

	// A constant model: accuracy is defined, correlations are not.
	s, err = Summarize([]float64{1, 2, 4}, []float64{2, 2, 2})
	if !errors.Is(err, ErrConstant) || !strings.Contains(err.Error(), "predicted is constant (all 3 values equal 2)") {
		t.Errorf("Summarize error = %v; want ErrConstant naming predicted", err)
	}
	// APE = [100, 0, 50] → MAPE 50, median 50.
	if s.N != 3 || s.MAPE != 50 || s.MedianAPE != 50 || !math.IsNaN(s.Pearson) || !math.IsNaN(s.Spearman) || !math.IsNaN(s.KendallTauB) {
		t.Errorf("partial Summary = %+v", s)
	}
	if got := s.String(); got != "n=3 MAPE=50.00% median APE=50.00% Pearson=undefined Spearman=undefined Kendall τ-b=undefined" {
		t.Errorf("String() = %q", got)
	}
}

func TestHistogram2D(t *testing.T) {
	// 2×2 bins over [0,2]×[0,2]; edges 0, 1, 2 with 2 in the last bin.
	x := []float64{0, 1, 2, 0.5, 1.999, -0.1, 2.1, 1, math.Inf(1), 0}
	y := []float64{0, 1, 2, 1.5, 0, 1, 2.5, -3, 1, 2}
	h, err := NewHistogram2D(x, y, 2, 2, 0, 2, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Inside: (0,0)→[0][0]; (1,1)→[1][1] (lower edge inclusive);
	// (2,2)→[1][1] (max inclusive); (0.5,1.5)→[1][0]; (1.999,0)→[0][1];
	// (0,2)→[1][0].
	// Outside: (−0.1,1) Left; (2.1,2.5) Right and Above; (1,−3) Below;
	// (+Inf,1) Right.
	want := [][]int{{1, 1}, {2, 2}}
	for iy := range want {
		for ix := range want[iy] {
			if h.Counts[iy][ix] != want[iy][ix] {
				t.Fatalf("Counts = %v, want %v", h.Counts, want)
			}
		}
	}
	if h.Outside != 4 || h.Left != 1 || h.Right != 2 || h.Above != 1 || h.Below != 1 || h.N != 10 {
		t.Errorf("outside counts: %+v", h)
	}
	if h.Total()+h.Outside != h.N || h.Total() != 6 || h.Max() != 2 {
		t.Errorf("Total = %d, Max = %d", h.Total(), h.Max())
	}
	if ix, iy, ok := h.BinOf(2, 0.999); ix != 1 || iy != 0 || !ok {
		t.Errorf("BinOf(2, 0.999) = %d, %d, %v", ix, iy, ok)
	}
	if ix, iy, ok := h.BinOf(math.NaN(), 1); ix != -1 || iy != -1 || ok {
		t.Errorf("BinOf(NaN, 1) = %d, %d, %v", ix, iy, ok)
	}
	if e := h.XEdges(); len(e) != 3 || e[0] != 0 || e[1] != 1 || e[2] != 2 {
		t.Errorf("XEdges = %v", e)
	}

	// Random points: every bin count matches the edges, nothing is lost.
	r := rand.New(rand.NewPCG(5, 5))
	n := 5000
	x, y = make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = math.Round(r.Float64()*130-10) / 10 // many values on edges
		y[i] = r.NormFloat64() * 4
	}
	h, err = NewHistogram2D(x, y, 7, 11, 0, 11.9, -5, 5)
	if err != nil {
		t.Fatal(err)
	}
	if h.Total()+h.Outside != n {
		t.Fatalf("Total %d + Outside %d != %d", h.Total(), h.Outside, n)
	}
	xe, ye := h.XEdges(), h.YEdges()
	counts := make([][]int, h.NY)
	for iy := range counts {
		counts[iy] = make([]int, h.NX)
	}
	outside := 0
	for i := range x {
		ix, iy := -1, -1
		for k := 0; k < h.NX; k++ {
			if xe[k] <= x[i] && (x[i] < xe[k+1] || k == h.NX-1 && x[i] == xe[k+1]) {
				ix = k
			}
		}
		for k := 0; k < h.NY; k++ {
			if ye[k] <= y[i] && (y[i] < ye[k+1] || k == h.NY-1 && y[i] == ye[k+1]) {
				iy = k
			}
		}
		if ix < 0 || iy < 0 {
			outside++
			continue
		}
		counts[iy][ix]++
	}
	if outside != h.Outside {
		t.Errorf("Outside = %d, want %d", h.Outside, outside)
	}
	for iy := range counts {
		for ix := range counts[iy] {
			if counts[iy][ix] != h.Counts[iy][ix] {
				t.Errorf("Counts[%d][%d] = %d, want %d", iy, ix, h.Counts[iy][ix], counts[iy][ix])
			}
		}
	}
}

func TestHistogram2DErrors(t *testing.T) {
	x := []float64{1, 2, math.NaN()}
	y := []float64{1, 2, 3}
	if _, err := NewHistogram2D(x, y, 2, 2, 0, 3, 0, 3); !errors.Is(err, ErrNotFinite) || !strings.Contains(err.Error(), "x[2] is NaN") {
		t.Errorf("NaN: error = %v", err)
	}
	if _, err := NewHistogram2D(y, x[:2], 2, 2, 0, 3, 0, 3); !errors.Is(err, ErrLength) {
		t.Errorf("length: error = %v", err)
	}
	for _, bad := range [][6]float64{
		{0, 2, 0, 3, 0, 3},                              // nx = 0
		{2, 2, 3, 3, 0, 3},                              // empty x range
		{2, 2, 0, 3, 4, 3},                              // inverted y range
		{2, 2, 0, math.Inf(1), 0, 3},                    // infinite range
		{2, 2, -math.MaxFloat64, math.MaxFloat64, 0, 3}, // width overflows
	} {
		if _, err := NewHistogram2D(y, y, int(bad[0]), int(bad[1]), bad[2], bad[3], bad[4], bad[5]); !errors.Is(err, ErrHistogram) {
			t.Errorf("%v: error = %v; want ErrHistogram", bad, err)
		}
	}
	h, err := NewHistogram2D(nil, nil, 3, 3, 0, 1, 0, 1)
	if err != nil || h.N != 0 || h.Total() != 0 || h.Max() != 0 {
		t.Errorf("empty histogram: %+v, %v", h, err)
	}
}

func TestNewHeatmapHistogram(t *testing.T) {
	// Largest value 3.7 → range [0, 5]; 10 bins of width 0.5.
	m := []float64{1, 2, 3.7, 0.25}
	p := []float64{1.2, 1.9, 3, -1}
	h, err := NewHeatmapHistogram(m, p, 10)
	if err != nil {
		t.Fatal(err)
	}
	if h.XMin != 0 || h.XMax != 5 || h.YMin != 0 || h.YMax != 5 || h.NX != 10 || h.NY != 10 {
		t.Errorf("range = [%v,%v]×[%v,%v], bins %d×%d", h.XMin, h.XMax, h.YMin, h.YMax, h.NX, h.NY)
	}
	// (1,1.2)→[2][2], (2,1.9)→[3][4], (3.7,3)→[6][7], (0.25,−1) Below.
	if h.Counts[2][2] != 1 || h.Counts[3][4] != 1 || h.Counts[6][7] != 1 || h.Below != 1 || h.Outside != 1 {
		t.Errorf("Counts = %v, %+v", h.Counts, h)
	}
	for _, tt := range []struct{ v, want float64 }{
		{3.7, 5}, {5, 5}, {5.01, 10}, {10, 10}, {0.002, 0.002}, {0.0021, 0.0025},
		{1000, 1000}, {1001, 2000}, {0.26, 0.5}, {0.25, 0.25}, {1.2e-5, 2e-5}, {17, 20},
	} {
		if got := niceCeil(tt.v); got != tt.want {
			t.Errorf("niceCeil(%v) = %v, want %v", tt.v, got, tt.want)
		}
	}
	if _, err := NewHeatmapHistogram([]float64{-1}, []float64{0}, 10); !errors.Is(err, ErrHistogram) {
		t.Errorf("no positive value: error = %v", err)
	}
	if _, err := NewHeatmapHistogram(nil, nil, 10); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty: error = %v", err)
	}
	if _, err := NewHeatmapHistogram(m, p, 0); !errors.Is(err, ErrHistogram) {
		t.Errorf("bins 0: error = %v", err)
	}
	if _, err := NewHeatmapHistogram(m, []float64{1, 2, 3, math.Inf(1)}, 5); !errors.Is(err, ErrNotFinite) || !strings.Contains(err.Error(), "predicted[3]") {
		t.Errorf("Inf: error = %v", err)
	}
}
