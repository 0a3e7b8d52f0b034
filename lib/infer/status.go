package infer

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// Status says why an inference run stopped, modelled on gonum's
// optimize.Status: the one place a caller learns it, whatever the method.
// Method-specific errors (a *cegis.NoMappingError naming the conflicting
// measurements, palmed.ErrNoFit with the misfit kernels in the report)
// keep the detail.
type Status int

const (
	// NotTerminated is the zero Status: a method leaves it for Infer to
	// decide.
	NotTerminated Status = iota
	// Converged: the method ran to its end (a search that found no better
	// or no other candidate, every instruction decided).
	Converged
	// IterationLimit: the method's own limit on iterations or generations
	// stopped it.
	IterationLimit
	// TimeLimit: a time limit stopped it (Settings.TimeLimit, or the
	// method's own, e.g. pmevo.Config.TimeLimit).
	TimeLimit
	// QueryLimit: Settings.MaxQueries stopped it.
	QueryLimit
	// Interrupted: the caller's context was cancelled.
	Interrupted
	// NoFit: no model of the method's shape explains the measurements
	// (cegis: no mapping; PALMED: the core mapping leaves kernels
	// sub-saturated).
	NoFit
	// Undecided: measurements that should tell candidates apart ruled out
	// neither (cegis's UndecidedError, noise).
	Undecided
	// Failed: an error stopped the run (a measurement, a solver, the
	// data).
	Failed
)

var statusNames = [...]string{"not terminated", "converged", "iteration limit", "time limit", "query limit", "interrupted", "no fit", "undecided", "failed"}

// String returns the status's name, e.g. "time limit".
func (s Status) String() string {
	if s < 0 || int(s) >= len(statusNames) {
		return fmt.Sprintf("Status(%d)", int(s))
	}
	return statusNames[s]
}

// MarshalText encodes the status by its name.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// ErrTimeLimit is the cause (context.Cause) of the method's context when
// Settings.TimeLimit ran out.
var ErrTimeLimit = errors.New("infer: time limit reached")

// ErrQueryLimit is returned by the oracle of a run once Settings.MaxQueries
// are used up, and is the cause (context.Cause) of the method's context
// from then on.
var ErrQueryLimit = errors.New("infer: query limit reached")

// ErrNoFit is matched (errors.Is) by the errors of methods whose model does
// not fit the measurements (Status NoFit).
var ErrNoFit = errors.New("no model of the method's shape fits the measurements")

// ErrUndecided is matched (errors.Is) by the errors of methods whose
// measurements could not tell candidates apart (Status Undecided).
var ErrUndecided = errors.New("measurements decide between no candidates")

// StopError is Infer's error for a run that ended without a result: why
// (Status) and the method's error.
type StopError struct {
	Method string // the method's name
	Status Status // why the run stopped
	Err    error  // the method's error
}

// Error returns the method's error.
func (e *StopError) Error() string { return e.Err.Error() }

// Unwrap returns the method's error.
func (e *StopError) Unwrap() error { return e.Err }

// StatusOf returns the Status of a run from Infer's error: the StopError's
// status, or for the error that comes with a result, the status it
// implies (Converged for nil).
func StatusOf(err error) Status {
	var se *StopError
	switch {
	case err == nil:
		return Converged
	case errors.As(err, &se):
		return se.Status
	case errors.Is(err, ErrQueryLimit):
		return QueryLimit
	case errors.Is(err, ErrTimeLimit), errors.Is(err, context.DeadlineExceeded):
		return TimeLimit
	case errors.Is(err, context.Canceled):
		return Interrupted
	case errors.Is(err, ErrNoFit):
		return NoFit
	case errors.Is(err, ErrUndecided):
		return Undecided
	}
	return Failed
}

// stopped returns the status of a run that returned r and err under rctx,
// the method's context derived from the caller's ctx, and the error to
// return: a stop by the settings' limits is no error when there is a
// result.
func stopped(ctx, rctx context.Context, r *Result, err error) (Status, error) {
	limit := func(st Status, cause error) (Status, error) {
		if r != nil && (r.Mapping != nil || r.Predictor != nil) {
			return st, nil
		}
		return st, fmt.Errorf("%w: %w", cause, err)
	}
	if err != nil && ctx.Err() == nil && rctx.Err() != nil {
		switch cause := context.Cause(rctx); {
		case errors.Is(cause, ErrQueryLimit):
			return limit(QueryLimit, cause)
		case errors.Is(cause, ErrTimeLimit):
			return limit(TimeLimit, cause)
		}
	}
	if r != nil && r.Status != NotTerminated {
		return r.Status, err
	}
	if err != nil && ctx.Err() != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return TimeLimit, err
		}
		return Interrupted, err
	}
	return StatusOf(err), err
}

// budget is the oracle of a run with Settings.MaxQueries: it answers left
// more queries and then fails them with ErrQueryLimit, calling stop once.
type budget struct {
	inner oracle.Oracle
	stop  func()
	mu    sync.Mutex
	left  int
}

// take reserves up to n queries and returns how many it got; when it gets
// fewer, the budget is used up and stop is called.
func (b *budget) take(n int) int {
	b.mu.Lock()
	got := min(n, b.left)
	b.left -= got
	b.mu.Unlock()
	if got < n {
		b.stop()
	}
	return got
}

// Measure asks the inner oracle while the budget lasts.
func (b *budget) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	if b.take(1) == 0 {
		return portmap.Measurement{}, ErrQueryLimit
	}
	return b.inner.Measure(ctx, e)
}

// MeasureBatch measures as much of exps as the budget allows and fails the
// rest with ErrQueryLimit.
func (b *budget) MeasureBatch(ctx context.Context, exps []portmap.Experiment, done func(int, portmap.Measurement, error)) error {
	n := b.take(len(exps))
	for i := n; i < len(exps); i++ {
		done(i, portmap.Measurement{}, ErrQueryLimit)
	}
	if n == 0 {
		return nil
	}
	if bm, ok := b.inner.(oracle.BatchMeasurer); ok {
		return bm.MeasureBatch(ctx, exps[:n], done)
	}
	for i, e := range exps[:n] {
		m, err := b.inner.Measure(ctx, e)
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		done(i, m, err)
	}
	return nil
}

// Prepare passes the preparation on to the inner oracle.
func (b *budget) Prepare(ctx context.Context, exps []portmap.Experiment) error {
	if p, ok := b.inner.(oracle.Preparer); ok {
		return p.Prepare(ctx, exps)
	}
	return nil
}

// Noise passes on the inner oracle's noise figure (oracle.NoiseReporter).
func (b *budget) Noise() (float64, int) {
	if r, ok := b.inner.(oracle.NoiseReporter); ok {
		return r.Noise()
	}
	return 0, 0
}
