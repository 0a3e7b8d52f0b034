package oracle

import (
	"context"
	"errors"
	"time"

	"github.com/portlab/portlab/lib/portmap"
)

// Oracle measures the inverse throughput of experiments: core cycles per
// execution of the experiment's multiset in steady state. Measure returns
// the measurement of e, or an error that is either a property of e (its
// instruction cannot be run, the data has no value for it) or of the whole
// oracle (ctx was cancelled, the benchmark worker died: see IsTransient).
type Oracle interface {
	Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error)
}

// Preparer is implemented by oracles that work faster when told the
// experiments ahead (the hardware oracle assembles many in one run).
// MeasureAll calls Prepare with chunks of the experiments still to
// measure.
type Preparer interface {
	Prepare(ctx context.Context, exps []portmap.Experiment) error
}

// PrepareChunk is the number of experiments MeasureAll prepares at once.
const PrepareChunk = 256

// Cycles measures e with o and returns only its cycles.
func Cycles(ctx context.Context, o Oracle, e portmap.Experiment) (float64, error) {
	m, err := o.Measure(ctx, e)
	return m.Cycles, err
}

// Progress reports the state of MeasureAll after one experiment.
type Progress struct {
	Done, Total int // experiments finished and in all
	Failed      int
	Last        portmap.Experiment
	Cycles      float64 // of Last; 0 if it failed
	Err         error   // why Last failed
	Elapsed     time.Duration
}

// MeasureAll measures exps with o, in order, and returns the measurements
// of those that succeeded (in order) and the failures (Index is the
// position in exps). progress, when not nil, is called after every
// experiment. An experiment whose measurement fails with a transient error
// (see IsTransient) is measured once more before it counts as failed. When
// ctx is cancelled MeasureAll stops and returns what it has together with
// ctx's error.
func MeasureAll(ctx context.Context, o Oracle, exps []portmap.Experiment, progress func(Progress)) (*portmap.ExperimentSet, []portmap.Failure, error) {
	start := time.Now()
	set := &portmap.ExperimentSet{}
	var failures []portmap.Failure
	preparer, _ := o.(Preparer)
	for i, e := range exps {
		if err := ctx.Err(); err != nil {
			return set, failures, err
		}
		if preparer != nil && i%PrepareChunk == 0 {
			if err := preparer.Prepare(ctx, exps[i:min(len(exps), i+PrepareChunk)]); err != nil {
				return set, failures, err
			}
		}
		m, err := o.Measure(ctx, e)
		if err != nil && IsTransient(err) && ctx.Err() == nil {
			m, err = o.Measure(ctx, e)
		}
		if err != nil && ctx.Err() != nil {
			return set, failures, ctx.Err() // interrupted, not a property of e
		}
		if err != nil {
			insn, reason := failureOf(err)
			failures = append(failures, portmap.Failure{Index: i, Experiment: e, Insn: insn, Reason: reason})
		} else {
			m.Experiment = e
			set.Measurements = append(set.Measurements, m)
		}
		if progress != nil {
			progress(Progress{Done: i + 1, Total: len(exps), Failed: len(failures), Last: e, Cycles: m.Cycles, Err: err, Elapsed: time.Since(start)})
		}
	}
	return set, failures, nil
}

// IsTransient reports whether err says nothing about the experiment that
// was measured — the benchmark worker was killed from outside, a timeout
// under load — so that measuring it again may succeed. Such errors
// implement Transient() bool.
func IsTransient(err error) bool {
	var t interface{ Transient() bool }
	return errors.As(err, &t) && t.Transient()
}

// InsnError is an error caused by one instruction of an experiment.
type InsnError struct {
	Insn string
	Err  error
}

func (e *InsnError) Error() string { return "instruction " + quote(e.Insn) + ": " + e.Err.Error() }
func (e *InsnError) Unwrap() error { return e.Err }

// failureOf returns the instruction at fault in err, if any, and the
// reason without it.
func failureOf(err error) (insn, reason string) {
	var ie *InsnError
	if errors.As(err, &ie) {
		return ie.Insn, ie.Err.Error()
	}
	return "", err.Error()
}
