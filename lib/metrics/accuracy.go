package metrics

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// APE returns the absolute percentage error of each prediction,
//
//	ape[i] = 100 × |predicted[i] − measured[i]| / measured[i],
//
// in percent: a prediction of 1.1 cycles for a measured 1.0 cycles gives 10.
// The measured value is the denominator, as in PMEvo.
//
// APE returns an error if the lengths differ, if the input is empty, if a
// value is NaN or infinite, or if a measured value is ≤ 0. Predicted values
// may be zero or negative. (It also reports the absurd case of a percentage
// error that overflows float64.)
func APE(measured, predicted []float64) ([]float64, error) {
	if err := checkAccuracy("APE", measured, predicted); err != nil {
		return nil, err
	}
	return ape("APE", measured, predicted)
}

// MAPE returns the mean absolute percentage error in percent, the mean over
// all experiments of 100 × |predicted − measured| / measured, as PMEvo
// reports it. A result of 9.55 means 9.55 %.
//
// MAPE returns the same errors as APE.
func MAPE(measured, predicted []float64) (float64, error) {
	if err := checkAccuracy("MAPE", measured, predicted); err != nil {
		return 0, err
	}
	e, err := ape("MAPE", measured, predicted)
	if err != nil {
		return 0, err
	}
	return mean(e), nil
}

// MedianAPE returns the median of the absolute percentage errors (see APE),
// in percent. For an even number of points it is the mean of the two middle
// values. Unlike MAPE, it is insensitive to a few large outliers.
//
// MedianAPE returns the same errors as APE.
func MedianAPE(measured, predicted []float64) (float64, error) {
	if err := checkAccuracy("MedianAPE", measured, predicted); err != nil {
		return 0, err
	}
	e, err := ape("MedianAPE", measured, predicted)
	if err != nil {
		return 0, err
	}
	return median(e), nil
}

// SymmetricRelativeDifference returns the relative percent difference of a
// and b as a fraction,
//
//	2 × |a − b| / (|a| + |b|),
//
// that is, the absolute difference divided by the mean of the magnitudes.
// Unlike the percentage error used by MAPE it treats a and b alike. The result
// lies in [0, 2]: it is 0 when a == b (including a == b == 0, for which the
// formula is 0/0), and 2 when a and b have opposite signs or exactly one of
// them is 0. Multiply by 100 for percent. The result is NaN if a or b is NaN
// or infinite.
func SymmetricRelativeDifference(a, b float64) float64 {
	switch {
	case math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0):
		return math.NaN()
	case a == b:
		return 0
	}
	if math.Abs(a) > math.MaxFloat64/2 || math.Abs(b) > math.MaxFloat64/2 {
		// Halve first so that |a − b| and |a| + |b| cannot overflow.
		a, b = a/2, b/2
	}
	return 2 * (math.Abs(a-b) / (math.Abs(a) + math.Abs(b)))
}

// Round returns a new slice holding the values of x rounded to the given
// number of decimal places; x is not modified. Rounding is correct for the
// exact binary value, and exact halfway cases go to the even neighbour, as
// Python's round(v, decimals) and Go's strconv do: 2.675 (stored as
// 2.67499999…) becomes 2.67 and 0.125 becomes 0.12. A negative decimals
// rounds to tens, hundreds, …: Round(x, -2) maps 1250 to 1200 and 1350 to
// 1400. NaN and ±Inf are kept as they are.
//
// Ritter's thesis rounds measurements to two decimals before ranking them, so
// that differences within measurement noise count as ties.
func Round(x []float64, decimals int) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = round(v, decimals)
	}
	return out
}

func round(v float64, decimals int) float64 {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0) || v == 0:
		return v
	case decimals >= 0:
		// Every float64 is a multiple of 2^-1074, whose decimal expansion
		// has fewer than 1100 digits after the point; at that precision
		// rounding is the identity.
		if decimals > 1100 {
			return v
		}
		r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', decimals, 64), 64)
		return math.Copysign(r, v)
	case decimals < -330:
		return math.Copysign(0, v)
	default:
		p := math.Pow10(-decimals)
		return math.Copysign(math.RoundToEven(v/p)*p, v)
	}
}

// checkAccuracy validates the input of the percentage-error functions.
func checkAccuracy(fn string, measured, predicted []float64) error {
	if err := checkPair(fn, "measured", "predicted", measured, predicted); err != nil {
		return err
	}
	return checkPositive(fn, measured)
}

// ape computes the absolute percentage errors of validated input. It returns
// an error if an error overflows float64, which takes a prediction more than
// about 10^306 times the measured value.
func ape(fn string, measured, predicted []float64) ([]float64, error) {
	out := make([]float64, len(measured))
	for i, m := range measured {
		// 100·|Δ| first, then a single division: exact for values such as
		// 100·2/10 = 20, where 2/10·100 would not be.
		e := 100 * math.Abs(predicted[i]-m) / m
		if math.IsInf(e, 0) {
			// Avoid spurious overflow of the intermediate results.
			e = 200 * (math.Abs(predicted[i]/2-m/2) / m)
		}
		if math.IsInf(e, 0) {
			return nil, fmt.Errorf("%w: %s: the percentage error of predicted[%d] = %g against measured[%d] = %g overflows float64",
				ErrNotFinite, fn, i, predicted[i], i, m)
		}
		out[i] = e
	}
	return out, nil
}

// mean returns the arithmetic mean of a non-empty slice, using compensated
// (Neumaier) summation.
func mean(v []float64) float64 {
	var sum, c float64
	for _, f := range v {
		t := sum + f
		if math.Abs(sum) >= math.Abs(f) {
			c += (sum - t) + f
		} else {
			c += (f - t) + sum
		}
		sum = t
	}
	n := float64(len(v))
	if !math.IsInf(sum, 0) {
		return (sum + c) / n
	}
	// The sum overflowed although the values are finite: sum v[i]/n.
	sum = 0
	for _, f := range v {
		sum += f / n
	}
	return sum
}

// median returns the median of a non-empty slice, which it sorts in place.
func median(v []float64) float64 {
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return v[n/2-1]/2 + v[n/2]/2
}
