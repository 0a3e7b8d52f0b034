package oracle

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/portlab/portlab/lib/portmap"
)

// Predictor maps experiments to inverse throughputs: core cycles per
// execution of the experiment's multiset in steady state, the quantity an
// Oracle measures.
//
// Predict returns one value per experiment, in order. A predictor may be
// unable to predict some experiments (an instruction the mapping does not
// map, one llvm-mca rejects): Predict then still returns the full slice,
// with NaN for each of them, together with an *UnsupportedError listing
// them (the function Predict returns them as a list instead). Every other
// error — the context was cancelled, a peer tool is missing or fails as a
// whole — comes with a nil slice.
type Predictor interface {
	Name() string
	Predict(ctx context.Context, exps []portmap.Experiment) ([]float64, error)
}

// ErrUnsupported is matched (errors.Is) by every *UnsupportedError.
var ErrUnsupported = errors.New("oracle: experiments not supported")

// UnsupportedError reports the experiments a predictor could not predict,
// sorted by index. It accompanies a complete slice of predictions with NaN
// at those indices.
type UnsupportedError struct {
	Predictor string
	N         int // number of experiments asked for
	Failures  []portmap.Failure
}

func (e *UnsupportedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d of %d experiments not supported", e.Predictor, len(e.Failures), e.N)
	if len(e.Failures) > 0 {
		fmt.Fprintf(&b, ": %s", e.Failures[0])
		if len(e.Failures) > 1 {
			fmt.Fprintf(&b, " (and %d more)", len(e.Failures)-1)
		}
	}
	return b.String()
}

// Is reports whether target is ErrUnsupported.
func (e *UnsupportedError) Is(target error) bool { return target == ErrUnsupported }

// Predict calls p.Predict and returns the experiments it could not predict
// as a list instead of an error: values holds NaN at their indices. err is
// non-nil only when the prediction failed as a whole.
func Predict(ctx context.Context, p Predictor, exps []portmap.Experiment) (values []float64, unsupported []portmap.Failure, err error) {
	values, err = p.Predict(ctx, exps)
	var ue *UnsupportedError
	if errors.As(err, &ue) {
		return values, ue.Failures, nil
	}
	return values, nil, err
}

// Supported returns the indices of the values that are not NaN.
func Supported(values []float64) []int {
	var idx []int
	for i, v := range values {
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	return idx
}

// Unsupported sorts failures by index, fills NaN into values at their
// indices and returns the error a Predict method reports: nil when nothing
// failed, an *UnsupportedError of the predictor name otherwise. Predictors
// outside this package use it to follow the Predictor contract.
func Unsupported(name string, values []float64, failures []portmap.Failure) ([]float64, error) {
	if len(failures) == 0 {
		return values, nil
	}
	sort.SliceStable(failures, func(i, j int) bool { return failures[i].Index < failures[j].Index })
	for _, f := range failures {
		values[f.Index] = math.NaN()
	}
	return values, &UnsupportedError{Predictor: name, N: len(values), Failures: failures}
}

func quote(s string) string { return strconv.Quote(s) }
