package metrics

import (
	"fmt"
	"math"
)

// Histogram2D counts points (x, y) in a grid of NX × NY equal-width bins
// covering [XMin, XMax] × [YMin, YMax]. It is the data behind a heat map of
// predicted against measured values.
//
// Bin ix covers [XEdges()[ix], XEdges()[ix+1]), except that the last bin also
// includes XMax; likewise for y. Points outside the range are not in Counts:
// they are counted in Outside, and each side they lie beyond is counted in
// Left (x < XMin), Right (x > XMax), Below (y < YMin) and Above (y > YMax).
// A point beyond a corner, such as x < XMin and y > YMax, counts once in
// Outside and once in each of its two sides, so Left+Right+Below+Above can
// exceed Outside. Always Total() + Outside == N.
type Histogram2D struct {
	XMin, XMax, YMin, YMax float64
	NX, NY                 int
	// Counts[iy][ix] is the number of points in bin (ix, iy); iy = 0 is
	// the bottom row (smallest y), ix = 0 the leftmost column.
	Counts [][]int
	// Points outside the range, by side; see the type's documentation.
	Below, Above, Left, Right int
	// Outside is the number of points outside the range.
	Outside int
	// N is the number of points given, inside and outside the range.
	N int
}

// NewHistogram2D returns the histogram of the points (x[i], y[i]) over nx × ny
// equal-width bins covering [xmin, xmax] × [ymin, ymax]; see Histogram2D for
// how points on edges and outside the range are counted. ±Inf values lie
// outside every range and are counted as such. Empty input gives an empty
// histogram.
//
// NewHistogram2D returns an error if the lengths of x and y differ, if a value
// is NaN (naming its index), if nx or ny is less than 1, or if a range is not
// finite or has min ≥ max.
func NewHistogram2D(x, y []float64, nx, ny int, xmin, xmax, ymin, ymax float64) (*Histogram2D, error) {
	return newHistogram2D("x", "y", x, y, nx, ny, xmin, xmax, ymin, ymax)
}

// NewHeatmapHistogram returns the histogram of a PMEvo-style heat map:
// measured values on the x axis, predicted values on the y axis, bins × bins
// bins over the common square range [0, top] × [0, top], where top is the
// smallest value of the form 1, 2, 2.5 or 5 times a power of ten that is at
// least the largest measured or predicted value. The largest point thus lies
// inside, and the diagonal of the grid is the line predicted == measured.
// Negative values, if any, are counted as outside (Left or Below).
//
// NewHeatmapHistogram returns an error if the lengths differ, if the input is
// empty, if a value is NaN or infinite, if bins is less than 1, or if no value
// is positive.
func NewHeatmapHistogram(measured, predicted []float64, bins int) (*Histogram2D, error) {
	if err := checkPair("NewHeatmapHistogram", "measured", "predicted", measured, predicted); err != nil {
		return nil, err
	}
	if bins < 1 {
		return nil, fmt.Errorf("%w: bins = %d; need at least 1", ErrHistogram, bins)
	}
	top := math.Inf(-1)
	for i := range measured {
		top = max(top, measured[i], predicted[i])
	}
	if top <= 0 {
		return nil, fmt.Errorf("%w: a heat map over [0, max] needs a positive value, but the largest value is %g", ErrHistogram, top)
	}
	top = niceCeil(top)
	return newHistogram2D("measured", "predicted", measured, predicted, bins, bins, 0, top, 0, top)
}

func newHistogram2D(xname, yname string, x, y []float64, nx, ny int, xmin, xmax, ymin, ymax float64) (*Histogram2D, error) {
	if len(x) != len(y) {
		return nil, fmt.Errorf("%w: %s has %d values, %s has %d", ErrLength, xname, len(x), yname, len(y))
	}
	if nx < 1 || ny < 1 {
		return nil, fmt.Errorf("%w: nx = %d, ny = %d; need at least 1 bin in each direction", ErrHistogram, nx, ny)
	}
	if err := checkRange(xname, xmin, xmax); err != nil {
		return nil, err
	}
	if err := checkRange(yname, ymin, ymax); err != nil {
		return nil, err
	}
	for i := range x {
		if math.IsNaN(x[i]) {
			return nil, fmt.Errorf("%w: %s[%d] is NaN", ErrNotFinite, xname, i)
		}
		if math.IsNaN(y[i]) {
			return nil, fmt.Errorf("%w: %s[%d] is NaN", ErrNotFinite, yname, i)
		}
	}
	h := &Histogram2D{
		XMin: xmin, XMax: xmax, YMin: ymin, YMax: ymax,
		NX: nx, NY: ny,
		Counts: make([][]int, ny),
		N:      len(x),
	}
	cells := make([]int, nx*ny)
	for iy := range h.Counts {
		h.Counts[iy] = cells[iy*nx : (iy+1)*nx : (iy+1)*nx]
	}
	for i := range x {
		ix, iy, ok := h.BinOf(x[i], y[i])
		if ok {
			h.Counts[iy][ix]++
			continue
		}
		h.Outside++
		switch {
		case x[i] < xmin:
			h.Left++
		case x[i] > xmax:
			h.Right++
		}
		switch {
		case y[i] < ymin:
			h.Below++
		case y[i] > ymax:
			h.Above++
		}
	}
	return h, nil
}

func checkRange(name string, lo, hi float64) error {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsInf(hi-lo, 0) {
		return fmt.Errorf("%w: %s range [%g, %g] is not finite", ErrHistogram, name, lo, hi)
	}
	if lo >= hi {
		return fmt.Errorf("%w: %s range [%g, %g] is empty; need min < max", ErrHistogram, name, lo, hi)
	}
	return nil
}

// BinOf returns the bin (ix, iy) that the point (x, y) falls into, so that
// it is counted in Counts[iy][ix], and ok == true. For a point outside the
// range, or with a NaN coordinate, it returns -1, -1, false.
func (h *Histogram2D) BinOf(x, y float64) (ix, iy int, ok bool) {
	ix, okx := bin(x, h.XMin, h.XMax, h.NX)
	iy, oky := bin(y, h.YMin, h.YMax, h.NY)
	if !okx || !oky {
		return -1, -1, false
	}
	return ix, iy, true
}

// XEdges returns the NX+1 bin edges along x, from XMin to XMax.
func (h *Histogram2D) XEdges() []float64 { return edges(h.XMin, h.XMax, h.NX) }

// YEdges returns the NY+1 bin edges along y, from YMin to YMax.
func (h *Histogram2D) YEdges() []float64 { return edges(h.YMin, h.YMax, h.NY) }

// Max returns the largest count of any bin, 0 for an empty histogram; it is
// the top of a heat map's color scale.
func (h *Histogram2D) Max() int {
	m := 0
	for _, row := range h.Counts {
		for _, c := range row {
			m = max(m, c)
		}
	}
	return m
}

// Total returns the number of points inside the range, the sum of Counts. It
// equals N − Outside.
func (h *Histogram2D) Total() int {
	t := 0
	for _, row := range h.Counts {
		for _, c := range row {
			t += c
		}
	}
	return t
}

// edge returns the i-th of the n+1 edges of n equal-width bins over
// [lo, hi]. The edges are non-decreasing in i, edge(0) == lo and
// edge(n) == hi exactly.
func edge(lo, hi float64, n, i int) float64 {
	switch i {
	case 0:
		return lo
	case n:
		return hi
	}
	return lo + (hi-lo)*(float64(i)/float64(n))
}

func edges(lo, hi float64, n int) []float64 {
	e := make([]float64, n+1)
	for i := range e {
		e[i] = edge(lo, hi, n, i)
	}
	return e
}

// bin returns the index of the bin of v among n equal-width bins over
// [lo, hi], consistent with edge: edge(i) ≤ v < edge(i+1), or v == hi in the
// last bin.
func bin(v, lo, hi float64, n int) (int, bool) {
	if !(v >= lo && v <= hi) { // also false for NaN
		return 0, false
	}
	if v == hi {
		return n - 1, true
	}
	i := int((v - lo) / (hi - lo) * float64(n))
	i = max(0, min(n-1, i))
	// Correct the estimate, which can be off by one through rounding.
	for i > 0 && v < edge(lo, hi, n, i) {
		i--
	}
	for i < n-1 && v >= edge(lo, hi, n, i+1) {
		i++
	}
	return i, true
}

// niceCeil returns the smallest value of the form m × 10^e, m ∈ {1, 2, 2.5, 5},
// that is ≥ v > 0.
func niceCeil(v float64) float64 {
	for e := int(math.Floor(math.Log10(v))) - 1; ; e++ {
		p := math.Pow10(e)
		for _, m := range [...]float64{1, 2, 2.5, 5} {
			if c := m * p; c >= v {
				return c
			}
		}
	}
}
