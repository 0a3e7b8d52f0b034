package oracle

import (
	"context"
	"errors"
	"sort"
	"time"

	"github.com/portlab/portlab/lib/portmap"
)

// Oracle measures the inverse throughput of experiments: core cycles per
// execution of the experiment's multiset in steady state. Measure returns
// the measurement of e, or an error that is either a property of e (its
// instruction cannot be run, the data has no value for it) or of the whole
// oracle (ctx was cancelled, the benchmark worker died: see IsTransient).
//
// Asking again for an experiment gives a fresh sample — a new measurement
// with its own noise — unless the oracle remembers (Rememberer): Replay,
// StoredFirst, a campaign's file (measure.Campaign) and predictions
// (AsOracle) answer the same every time, so that repeating them estimates
// neither a median nor the noise (Repeat refuses them).
//
// Beyond Measure an oracle may have capabilities that the code using it
// looks for: it measures batches better together (BatchMeasurer: the
// host's benchmarker visits a batch in interleaved passes), prepares
// experiments ahead (Preparer), knows its noise (NoiseReporter), remembers
// (Rememberer), and fills the counters of a Measurement (Uops, PortUops,
// Counters) when they are switched on (UopCounter, PortUopCounter). An adapter — an
// oracle that asks another — must pass all of them on; Middleware is the
// way to write one so that it does.
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

// PrepareChunk is the number of experiments MeasureAll prepares at once;
// BatchChunk the number it gives a BatchMeasurer at once (prepared
// together). A batch's results are final only after its passes, so a
// larger batch spreads each experiment's passes further apart in time —
// past slow periods of a shared machine that last longer than a pass over
// 256 experiments (about 10 s on the hardware oracle) — at the price of the
// first results coming later.
const (
	PrepareChunk = 256
	BatchChunk   = 1024
)

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
	// Phase names a later pass over experiments already measured once
	// (a campaign's second measurement of its doubtful ones: "measuring
	// again"); it is empty for the first.
	Phase string
}

// BatchMeasurer is implemented by oracles that measure several
// experiments better together than one by one: the hardware oracle visits
// a batch in passes, each in a new order, so that a slow period of a
// shared machine does not hit one experiment. MeasureBatch calls done
// once for each experiment, with its index in exps, as soon as its result
// is final (not necessarily in order), and returns early only with ctx's
// error.
type BatchMeasurer interface {
	MeasureBatch(ctx context.Context, exps []portmap.Experiment, done func(i int, m portmap.Measurement, err error)) error
}

// MeasureAll measures exps with o and returns the measurements of those
// that succeeded (in the order of exps) and the failures (Index is the
// position in exps). progress, when not nil, is called after every
// experiment. An infrastructure error (IsInfrastructure) is no failure of
// the experiment: MeasureAll stops and returns it. An experiment whose measurement fails with a transient error
// (see IsTransient) is measured once more before it counts as failed. When
// ctx is cancelled MeasureAll stops and returns what it has together with
// ctx's error.
//
// Oracles that prepare ahead (Preparer) get chunks of PrepareChunk
// experiments; a BatchMeasurer chunks of BatchChunk, each measured as one
// batch.
func MeasureAll(ctx context.Context, o Oracle, exps []portmap.Experiment, progress func(Progress)) (*portmap.ExperimentSet, []portmap.Failure, error) {
	start := time.Now()
	set := &portmap.ExperimentSet{}
	var failures []portmap.Failure
	preparer, _ := o.(Preparer)
	batcher, _ := o.(BatchMeasurer)
	finished := 0
	// finish books the result of exps[i] and returns the measurement to
	// keep, if it succeeded.
	finish := func(i int, m portmap.Measurement, err error) (*portmap.Measurement, error) {
		if err != nil && ctx.Err() != nil {
			return nil, ctx.Err() // interrupted, not a property of the experiment
		}
		if IsInfrastructure(err) {
			return nil, err // every other experiment would fail alike
		}
		var keep *portmap.Measurement
		if err != nil {
			insn, reason := failureOf(err)
			failures = append(failures, portmap.Failure{Index: i, Experiment: exps[i], Insn: insn, Reason: reason})
		} else {
			m.Experiment = exps[i]
			keep = &m
		}
		finished++
		if progress != nil {
			progress(Progress{Done: finished, Total: len(exps), Failed: len(failures), Last: exps[i], Cycles: m.Cycles, Err: err, Elapsed: time.Since(start)})
		}
		return keep, nil
	}
	size := PrepareChunk
	if batcher != nil {
		size = BatchChunk
	}
	for lo := 0; lo < len(exps); lo += size {
		chunk := exps[lo:min(len(exps), lo+size)]
		if err := ctx.Err(); err != nil {
			return set, failures, err
		}
		if preparer != nil {
			if err := preparer.Prepare(ctx, chunk); err != nil {
				return set, failures, err
			}
		}
		if batcher == nil {
			for i, e := range chunk {
				if err := ctx.Err(); err != nil {
					return set, failures, err
				}
				m, err := o.Measure(ctx, e)
				if err != nil && IsTransient(err) && ctx.Err() == nil {
					m, err = o.Measure(ctx, e)
				}
				keep, err := finish(lo+i, m, err)
				if err != nil {
					return set, failures, err
				}
				if keep != nil {
					set.Measurements = append(set.Measurements, *keep)
				}
			}
			continue
		}
		// A batch reports in any order; the set keeps the order of exps.
		// A transient failure is measured again after the batch, not from
		// inside it (the oracle is busy with the batch).
		got := make([]*portmap.Measurement, len(chunk))
		var stop error
		var again []int
		err := batcher.MeasureBatch(ctx, chunk, func(i int, m portmap.Measurement, err error) {
			switch {
			case stop != nil:
			case err != nil && IsTransient(err) && ctx.Err() == nil:
				again = append(again, i)
			default:
				got[i], stop = finish(lo+i, m, err)
			}
		})
		for _, i := range again {
			if stop == nil && err == nil {
				m, merr := o.Measure(ctx, chunk[i])
				got[i], stop = finish(lo+i, m, merr)
			}
		}
		for _, m := range got {
			if m != nil {
				set.Measurements = append(set.Measurements, *m)
			}
		}
		if stop == nil {
			stop = err
		}
		if stop != nil {
			return set, failures, stop
		}
	}
	sort.SliceStable(failures, func(a, b int) bool { return failures[a].Index < failures[b].Index })
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

// IsInfrastructure reports whether err is a failure of the measuring
// machinery — a worker that cannot start or be pinned to its CPU, a
// missing assembler — rather than a property of the experiment: it is no
// result, MeasureAll stops with it, and a journal does not keep it. Such
// errors implement Infrastructure() bool (measure.InfrastructureError).
func IsInfrastructure(err error) bool {
	var t interface{ Infrastructure() bool }
	return errors.As(err, &t) && t.Infrastructure()
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
