package metrics

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Pearson returns Pearson's product-moment correlation coefficient of x and
// y, a value in [-1, 1]: the covariance of x and y divided by the product of
// their standard deviations. It measures how well a straight line (of any
// positive or negative slope) fits the points (x[i], y[i]).
//
// Pearson returns an error if the lengths differ, if the input is empty, if a
// value is NaN or infinite, or if x or y is constant (which includes a single
// point), because r is then 0/0. The computation is scaled so that it neither
// overflows nor underflows for any finite input.
func Pearson(x, y []float64) (float64, error) {
	return pearsonChecked("Pearson", "x", "y", x, y)
}

// Spearman returns Spearman's rank correlation coefficient ρ of x and y, a
// value in [-1, 1]: Pearson's r of the ranks of x and of y. Tied values get
// the average of the ranks they span (mid-ranks), so ρ is well defined with
// ties; for example, the ranks of [10, 20, 20, 30] are [1, 2.5, 2.5, 4].
// ρ is 1 exactly when y is a strictly increasing function of x.
//
// Spearman returns the same errors as Pearson.
func Spearman(x, y []float64) (float64, error) {
	return spearmanChecked("Spearman", "x", "y", x, y)
}

// KendallTauB returns Kendall's rank correlation coefficient τ-b of x and y,
// a value in [-1, 1]. Of the n(n−1)/2 pairs of points (i, j), a pair is
// concordant if x and y order it the same way, discordant if they order it
// in opposite ways, and tied if x[i] == x[j] or y[i] == y[j]. With n0 the
// number of pairs, n1 the pairs tied in x, n2 the pairs tied in y,
//
//	τ-b = (concordant − discordant) / √((n0 − n1)(n0 − n2)).
//
// Without ties, τ-b equals τ-a = (concordant − discordant) / n0, the
// probability that a random pair is ordered correctly minus the probability
// that it is ordered incorrectly. With ties, τ-b corrects the denominator so
// that perfectly monotone data still gets ±1 where possible.
//
// KendallTauB uses Knight's algorithm and takes O(n log n) time and O(n)
// extra memory: it sorts the points by x and then y, counts the ties in x and
// the joint ties in x and y, counts the discordant pairs as the swaps of a
// merge sort by y, and finally counts the ties in y. The result equals the
// naive O(n²) pair count up to floating-point rounding of the final division.
//
// KendallTauB returns the same errors as Pearson.
func KendallTauB(x, y []float64) (float64, error) {
	return kendallChecked("KendallTauB", "x", "y", x, y)
}

func pearsonChecked(fn, xname, yname string, x, y []float64) (float64, error) {
	if err := checkCorrelation(fn, xname, yname, x, y); err != nil {
		return 0, err
	}
	return pearson(fn, x, y)
}

func spearmanChecked(fn, xname, yname string, x, y []float64) (float64, error) {
	if err := checkCorrelation(fn, xname, yname, x, y); err != nil {
		return 0, err
	}
	return pearson(fn, midRanks(x), midRanks(y))
}

func kendallChecked(fn, xname, yname string, x, y []float64) (float64, error) {
	if err := checkCorrelation(fn, xname, yname, x, y); err != nil {
		return 0, err
	}
	return kendallTauB(x, y), nil
}

// checkCorrelation validates the input of a correlation coefficient.
func checkCorrelation(fn, xname, yname string, x, y []float64) error {
	if err := checkPair(fn, xname, yname, x, y); err != nil {
		return err
	}
	if err := checkConstant(fn, xname, x); err != nil {
		return err
	}
	return checkConstant(fn, yname, y)
}

// pearson computes r for validated, non-constant input.
func pearson(fn string, x, y []float64) (float64, error) {
	// Scale by powers of two (exactly) so that the largest magnitude lies in
	// [0.5, 1): no sum, difference or product below can overflow, and the
	// deviations of non-constant data cannot all underflow.
	xs, ys := scaled(x), scaled(y)
	mx, my := mean(xs), mean(ys)
	var sxx, syy, sxy float64
	for i := range xs {
		dx, dy := xs[i]-mx, ys[i]-my
		sxx += dx * dx
		syy += dy * dy
		sxy += dx * dy
	}
	if sxx == 0 || syy == 0 {
		// Not reachable for finite non-constant input; kept so that no NaN
		// can ever escape.
		return 0, fmt.Errorf("%w: %s undefined: the variance is numerically zero", ErrConstant, fn)
	}
	// sxx·syy cannot underflow: after scaling, some deviation of
	// non-constant data is at least about 1e-17 in magnitude.
	r := sxy / math.Sqrt(sxx*syy)
	if math.IsNaN(r) {
		return 0, fmt.Errorf("%w: %s: numerical failure", ErrNotFinite, fn)
	}
	return max(-1, min(1, r)), nil
}

// scaled returns v multiplied by the power of two that brings its largest
// magnitude into [0.5, 1).
func scaled(v []float64) []float64 {
	var m float64
	for _, f := range v {
		m = max(m, math.Abs(f))
	}
	out := make([]float64, len(v))
	if m == 0 {
		return out
	}
	_, e := math.Frexp(m)
	for i, f := range v {
		out[i] = math.Ldexp(f, -e)
	}
	return out
}

// midRanks returns the 1-based ranks of v, giving tied values the average of
// the ranks they span.
func midRanks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
	ranks := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && v[idx[j]] == v[idx[i]] {
			j++
		}
		// Positions i..j-1 hold ranks i+1..j, whose mean is (i+1+j)/2.
		r := float64(i+1+j) / 2
		for _, k := range idx[i:j] {
			ranks[k] = r
		}
		i = j
	}
	return ranks
}

type point struct{ x, y float64 }

// kendallTauB implements Knight's O(n log n) algorithm for validated,
// non-constant input.
func kendallTauB(x, y []float64) float64 {
	n := len(x)
	pts := make([]point, n)
	for i := range pts {
		pts[i] = point{x[i], y[i]}
	}
	slices.SortFunc(pts, func(a, b point) int {
		if c := cmp.Compare(a.x, b.x); c != 0 {
			return c
		}
		return cmp.Compare(a.y, b.y)
	})

	// n1: pairs tied in x; n3: pairs tied in both x and y. Within a run of
	// equal x the points are sorted by y, so joint ties are adjacent too.
	var n1, n3 int64
	for i := 0; i < n; {
		j := i + 1
		for j < n && pts[j].x == pts[i].x {
			j++
		}
		n1 += pairs(j - i)
		for k := i; k < j; {
			l := k + 1
			for l < j && pts[l].y == pts[k].y {
				l++
			}
			n3 += pairs(l - k)
			k = l
		}
		i = j
	}

	// Discordant pairs: the points are in x order (ties in x broken by y,
	// so tied-in-x pairs are in y order), and a pair is discordant exactly
	// when its y values are in strictly decreasing order, that is, when a
	// stable merge sort by y has to swap it.
	ys := make([]float64, n)
	for i, p := range pts {
		ys[i] = p.y
	}
	nd := mergeSortSwaps(ys, make([]float64, n))

	// n2: pairs tied in y, from the now sorted y.
	var n2 int64
	for i := 0; i < n; {
		j := i + 1
		for j < n && ys[j] == ys[i] {
			j++
		}
		n2 += pairs(j - i)
		i = j
	}

	n0 := pairs(n)
	// concordant − discordant = (n0 − n1 − n2 + n3 − nd) − nd.
	num := n0 - n1 - n2 + n3 - 2*nd
	return tauB(num, n0-n1, n0-n2)
}

// tauB returns num / √(a·b), clamped to [-1, 1].
func tauB(num, a, b int64) float64 {
	t := float64(num) / math.Sqrt(float64(a)*float64(b))
	return max(-1, min(1, t))
}

// pairs returns k(k−1)/2.
func pairs(k int) int64 { return int64(k) * int64(k-1) / 2 }

// mergeSortSwaps sorts a in place with a stable bottom-up merge sort, using
// buf (of the same length) as scratch space, and returns the number of pairs
// i < j with a[i] > a[j] in the original order (the inversions).
func mergeSortSwaps(a, buf []float64) int64 {
	n := len(a)
	var swaps int64
	// Sort short runs by insertion sort, counting the inversions directly.
	const run = 16
	for lo := 0; lo < n; lo += run {
		hi := min(lo+run, n)
		for i := lo + 1; i < hi; i++ {
			v := a[i]
			j := i
			for j > lo && a[j-1] > v {
				a[j] = a[j-1]
				j--
			}
			a[j] = v
			swaps += int64(i - j)
		}
	}
	src, dst := a, buf
	for width := run; width < n; width *= 2 {
		for lo := 0; lo < n; lo += 2 * width {
			mid := min(lo+width, n)
			hi := min(lo+2*width, n)
			i, j, k := lo, mid, lo
			for i < mid && j < hi {
				if src[i] <= src[j] {
					dst[k] = src[i]
					i++
				} else {
					dst[k] = src[j]
					j++
					swaps += int64(mid - i)
				}
				k++
			}
			k += copy(dst[k:], src[i:mid])
			copy(dst[k:], src[j:hi])
		}
		src, dst = dst, src
	}
	if n > 0 && &src[0] != &a[0] {
		copy(a, src)
	}
	return swaps
}
