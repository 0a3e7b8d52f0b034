package oracle

import (
	"context"
	"errors"
	"fmt"

	"github.com/portlab/portlab/lib/portmap"
)

// Middleware is the core of an oracle adapter: an oracle that asks another
// (the inner oracle) and may answer some experiments itself (Hooks.Answer)
// or change what the inner oracle answers (Hooks.Keep). An adapter embeds a
// Middleware made by Wrap and supplies its behaviour as hooks; it thereby
// has every capability of this package — batches (BatchMeasurer),
// preparation (Preparer), a noise figure (NoiseReporter), whether it
// remembers (Rememberer), counter switches (UopCounter, PortUopCounter) —
// passed on to the inner oracle, and its hooks apply to one experiment and
// to a batch alike. Count, CorrectUops, Repeat, StoredFirst and
// measure.Campaign are built so.
//
// Go decides the methods of a type when it is compiled, so an adapter has
// the capability methods whether or not its inner oracle has them; where
// the inner oracle has not, they do what the plain oracle would: a batch is
// measured one experiment after the other, Prepare does nothing, Noise
// reports 0, 0, Remembers false, and a counter switch returns an error
// naming the inner oracle. An adapter that measures otherwise than one
// inner answer per experiment (Repeat) overrides Measure and MeasureBatch
// together and keeps the rest; TestAdaptersForward checks every adapter
// of this package.
//
// The zero Middleware has no inner oracle and must not be used.
type Middleware struct {
	inner Oracle
	hooks Hooks
}

// Hooks are what an adapter does around its inner oracle (see Middleware);
// a nil hook does nothing.
type Hooks struct {
	// Answer is called with every experiment before the inner oracle is
	// asked for it. When it returns ok, (m, err) is the answer and the
	// inner oracle is not asked (a stored measurement, an experiment the
	// adapter refuses). It may count what it is asked.
	Answer func(ctx context.Context, e portmap.Experiment) (m portmap.Measurement, err error, ok bool)
	// Keep is called with every answer of the inner oracle (m, err) and
	// returns the adapter's answer: a corrected measurement, or the same
	// after writing it to a journal. A *JournalError it returns during a
	// batch stops the batch once its results are given.
	Keep func(ctx context.Context, e portmap.Experiment, m portmap.Measurement, err error) (portmap.Measurement, error)
	// Holds reports whether Answer answers e without asking the inner
	// oracle; Prepare passes the inner oracle only the others. Unlike
	// Answer it must not count.
	Holds func(e portmap.Experiment) bool
	// Once makes MeasureBatch ask the inner oracle once for an experiment
	// that the batch holds several times and answer every occurrence with
	// the result. The adapter then remembers (Rememberer): the repeats of
	// a batch are one sample.
	Once bool
}

// Wrap returns the middleware that asks inner, with hooks h.
func Wrap(inner Oracle, h Hooks) Middleware { return Middleware{inner: inner, hooks: h} }

// Unwrap returns the inner oracle.
func (w Middleware) Unwrap() Oracle { return w.inner }

// Measure answers e with Hooks.Answer or asks the inner oracle and passes
// its answer through Hooks.Keep.
func (w Middleware) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	if w.hooks.Answer != nil {
		if m, err, ok := w.hooks.Answer(ctx, e); ok {
			return m, err
		}
	}
	m, err := w.inner.Measure(ctx, e)
	return w.keep(ctx, e, m, err)
}

func (w Middleware) keep(ctx context.Context, e portmap.Experiment, m portmap.Measurement, err error) (portmap.Measurement, error) {
	if w.hooks.Keep == nil {
		return m, err
	}
	return w.hooks.Keep(ctx, e, m, err)
}

// MeasureBatch implements BatchMeasurer: it answers with Hooks.Answer what
// it can at once and asks the inner oracle for the rest as one batch (when
// the inner oracle measures batches; one by one otherwise), each result
// passed through Hooks.Keep.
func (w Middleware) MeasureBatch(ctx context.Context, exps []portmap.Experiment, done func(int, portmap.Measurement, error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var todo []int
	dups := map[int][]int{} // index in todo → later indices of the same experiment
	inTodo := map[string]int{}
	for i, e := range exps {
		if w.hooks.Answer != nil {
			if m, err, ok := w.hooks.Answer(ctx, e); ok {
				done(i, m, err)
				continue
			}
		}
		if w.hooks.Once {
			if j, dup := inTodo[e.Key()]; dup {
				dups[j] = append(dups[j], i)
				continue
			}
			inTodo[e.Key()] = len(todo)
		}
		todo = append(todo, i)
	}
	if len(todo) == 0 {
		return nil
	}
	finish := func(j int, m portmap.Measurement, err error) {
		done(todo[j], m, err)
		for _, i := range dups[j] {
			m.Experiment = exps[i]
			done(i, m, err)
		}
	}
	sub := make([]portmap.Experiment, len(todo))
	for j, i := range todo {
		sub[j] = exps[i]
	}
	b, ok := w.inner.(BatchMeasurer)
	if !ok {
		for j, e := range sub {
			m, err := w.inner.Measure(ctx, e)
			m, err = w.keep(ctx, e, m, err)
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			finish(j, m, err)
		}
		return nil
	}
	var jerr error // a failure to keep a result stops the batch's bookkeeping
	err := b.MeasureBatch(ctx, sub, func(j int, m portmap.Measurement, err error) {
		m, err = w.keep(ctx, sub[j], m, err)
		var je *JournalError
		if errors.As(err, &je) && jerr == nil {
			jerr = err
		}
		finish(j, m, err)
	})
	if jerr != nil {
		return jerr
	}
	return err
}

// Prepare passes the experiments Hooks.Holds does not hold to the inner
// oracle, when it prepares ahead (Preparer).
func (w Middleware) Prepare(ctx context.Context, exps []portmap.Experiment) error {
	p, ok := w.inner.(Preparer)
	if !ok {
		return nil
	}
	todo := exps
	if w.hooks.Holds != nil {
		todo = nil
		for _, e := range exps {
			if !w.hooks.Holds(e) {
				todo = append(todo, e)
			}
		}
		if len(todo) == 0 {
			return nil
		}
	}
	return p.Prepare(ctx, todo)
}

// Noise passes on the inner oracle's noise figure (NoiseReporter); 0, 0
// when it has none.
func (w Middleware) Noise() (float64, int) {
	if r, ok := w.inner.(NoiseReporter); ok {
		return r.Noise()
	}
	return 0, 0
}

// Remembers reports whether the inner oracle remembers (Rememberer), or
// the middleware answers a batch's duplicates with one result
// (Hooks.Once).
func (w Middleware) Remembers() bool { return w.hooks.Once || Remembers(w.inner) }

// CountUops switches the inner oracle's µop counter on (UopCounter), or
// returns an error naming it when it has none.
func (w Middleware) CountUops() error {
	if c, ok := w.inner.(UopCounter); ok {
		return c.CountUops()
	}
	return fmt.Errorf("oracle: %s: %w", NameOf(w.inner), ErrNoUopCounter)
}

// CountPortUops switches the inner oracle's per-port µop counters on
// (PortUopCounter), or returns an error naming it when it has none.
func (w Middleware) CountPortUops() error {
	if c, ok := w.inner.(PortUopCounter); ok {
		return c.CountPortUops()
	}
	return fmt.Errorf("oracle: %s: %w", NameOf(w.inner), ErrNoPortCounters)
}

// JournalError is a failure to keep a result — to append it to a
// campaign's file — rather than a property of the experiment. A
// Middleware's batch gives every result and then returns it.
type JournalError struct{ Err error }

func (e *JournalError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *JournalError) Unwrap() error { return e.Err }

// Rememberer is implemented by oracles that say whether they remember.
// An oracle either measures afresh every time it is asked — the host's
// benchmarker, Simulated: every answer is a new sample, with its own
// noise — or answers from what it holds — Replay, StoredFirst, a
// campaign's file (measure.Campaign), stored predictions (Stored), any
// prediction through AsOracle — so that asking again for an experiment
// gives the same answer and tells nothing about the noise. Remembers
// returns true for the second kind. An oracle that does not implement
// Rememberer measures afresh.
type Rememberer interface {
	Remembers() bool
}

// Remembers reports whether o answers an experiment asked again from
// memory rather than with a fresh sample (see Rememberer).
func Remembers(o Oracle) bool {
	r, ok := o.(Rememberer)
	return ok && r.Remembers()
}

// NameOf names an oracle for messages: its Name or Path, the name of the
// oracle an adapter wraps, or else its Go type.
func NameOf(o Oracle) string {
	switch x := o.(type) {
	case interface{ Name() string }:
		return x.Name()
	case interface{ Path() string }:
		return x.Path()
	case interface{ Unwrap() Oracle }:
		return NameOf(x.Unwrap())
	}
	return fmt.Sprintf("%T", o)
}

// Remembers reports true: the stored measurements are the answers.
func (r *Replay) Remembers() bool { return true }

// Remembers reports true: the stored predictions are the answers, the
// same every time (also through AsOracle).
func (p *StoredPredictor) Remembers() bool { return true }

// Remembers reports true: a stored experiment is answered with the stored
// measurement every time.
func (s *StoredFirst) Remembers() bool { return true }

// Remembers reports true: a predictor's answer for an experiment is the
// same every time.
func (o predictorOracle) Remembers() bool { return true }

// Name returns the predictor's name.
func (o predictorOracle) Name() string { return o.p.Name() }

var (
	_ BatchMeasurer  = Middleware{}
	_ Preparer       = Middleware{}
	_ NoiseReporter  = Middleware{}
	_ Rememberer     = Middleware{}
	_ UopCounter     = Middleware{}
	_ PortUopCounter = Middleware{}
	_ UopCounter     = (*Simulated)(nil)
	_ PortUopCounter = (*Simulated)(nil)
)
