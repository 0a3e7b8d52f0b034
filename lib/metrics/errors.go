package metrics

import (
	"errors"
	"fmt"
	"math"
)

// Sentinel errors. The errors returned by this package wrap one of them, so
// callers can use errors.Is; the messages add the details, such as the index
// and the value at fault.
var (
	// ErrLength reports two slices whose lengths differ.
	ErrLength = errors.New("metrics: length mismatch")
	// ErrEmpty reports input without any values.
	ErrEmpty = errors.New("metrics: empty input")
	// ErrNotFinite reports a NaN or an infinite value.
	ErrNotFinite = errors.New("metrics: NaN or infinite value")
	// ErrNonPositive reports a measured value ≤ 0 where measured values are
	// divided by, as in APE and MAPE.
	ErrNonPositive = errors.New("metrics: non-positive measured value")
	// ErrConstant reports constant input, for which a correlation
	// coefficient is undefined (its denominator is zero).
	ErrConstant = errors.New("metrics: constant input")
	// ErrHistogram reports invalid histogram parameters, such as a bin
	// count < 1 or an empty or non-finite range.
	ErrHistogram = errors.New("metrics: invalid histogram parameters")
)

// checkPair validates two slices for the function fn: equal lengths, at least
// one value, and only finite values. xname and yname name the slices in error
// messages.
func checkPair(fn, xname, yname string, x, y []float64) error {
	if len(x) != len(y) {
		return fmt.Errorf("%w: %s has %d values, %s has %d", ErrLength, xname, len(x), yname, len(y))
	}
	if len(x) == 0 {
		return fmt.Errorf("%w: %s needs at least one pair of values", ErrEmpty, fn)
	}
	if err := checkFinite(xname, x); err != nil {
		return err
	}
	return checkFinite(yname, y)
}

// checkFinite returns an error naming the first NaN or infinite value in v.
func checkFinite(name string, v []float64) error {
	for i, f := range v {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%w: %s[%d] is %v", ErrNotFinite, name, i, f)
		}
	}
	return nil
}

// checkPositive returns an error naming the first value ≤ 0 in measured.
func checkPositive(fn string, measured []float64) error {
	for i, m := range measured {
		if m <= 0 {
			return fmt.Errorf("%w: measured[%d] = %g; %s needs every measured value > 0", ErrNonPositive, i, m, fn)
		}
	}
	return nil
}

// checkConstant returns an ErrConstant error for fn if all values of v are
// equal. v must not be empty.
func checkConstant(fn, name string, v []float64) error {
	for _, f := range v[1:] {
		if f != v[0] {
			return nil
		}
	}
	if len(v) == 1 {
		return fmt.Errorf("%w: %s undefined: %s is constant (it has a single value, %g)", ErrConstant, fn, name, v[0])
	}
	return fmt.Errorf("%w: %s undefined: %s is constant (all %d values equal %g)", ErrConstant, fn, name, len(v), v[0])
}
