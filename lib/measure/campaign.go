package measure

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// Campaign is an oracle with a memory on disk: it measures with another
// oracle what its file does not hold yet and appends each result to the
// file (JSON lines, portmap.Record) as soon as it is known, and answers
// from the file what was measured before. Anything that measures through
// an oracle — oracle.MeasureAll, the designs of package design, an
// inference method — thereby becomes a resumable campaign: run it again
// after a crash (even SIGKILL) and it goes on where it stopped, losing at
// most the experiment that was in flight.
//
// A failure is stored too, with its reason, and answered from the file as
// the same failure — but only a property of the experiment (a fault, a
// timeout of its kernel, an instruction that cannot be built), never an
// infrastructure error (InfrastructureError: a worker that cannot start or
// be pinned, a missing assembler), which is returned and not kept — unless it was transient (the worker was killed from
// outside, a timeout: see oracle.IsTransient) or RetryErrors is set: then
// the experiment is measured again.
//
// A campaign is an oracle.Middleware over the other oracle: what the file
// does not answer reaches that oracle as one batch (an experiment a batch
// holds twice is measured once, both answered with its result), Prepare
// passes on what the file does not answer, and each result is appended to
// the file as soon as it is final. It remembers (oracle.Rememberer): an
// experiment asked again is answered from the file, so that a median of
// repeats must be taken below it (oracle.Repeat of the oracle it measures
// with), not above.
type Campaign struct {
	oracle.Middleware
	// RetryErrors makes the campaign measure again experiments whose
	// earlier attempt failed for a reason that is a property of the
	// experiment (by default they are answered as failed).
	RetryErrors bool
	// Resettle is the doubt about a measurement — the larger of the
	// spread of its passes (portmap.Measurement.Spread) and its
	// contention — above which Run measures the experiment once more at
	// the end of the run, minutes after its first measurement, and keeps
	// the result with less doubt (0: DefaultResettle; negative: never). A
	// busy period of a shared machine can last minutes, longer than the
	// passes over one batch.
	Resettle float64

	path string

	mu       sync.Mutex
	f        *os.File
	done     map[string]portmap.Record
	fromFile map[string]bool // the experiments the file held when opened
	resumed  int
	measured int
	// settling holds, during the second look (resettle), the first
	// measurement of each experiment measured again.
	settling map[string]portmap.Measurement
	// headers are the file's header lines; records the number of record
	// lines it holds.
	headers []portmap.Header
	records int
}

// OpenCampaign opens (or creates) the campaign file path, measuring with o
// what it does not hold. A truncated last line (a crash while writing) is
// cut off the file; a malformed line elsewhere is an error naming the file
// and line. Close the campaign when done.
func OpenCampaign(path string, o oracle.Oracle) (*Campaign, error) {
	done, fromFile := map[string]portmap.Record{}, map[string]bool{}
	c := &Campaign{path: path, done: done, fromFile: fromFile}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("measure: campaign file: %w", err)
	default:
		recs, headers, valid, err := portmap.ParseCampaignHeaders(path, data)
		if err != nil {
			return nil, err
		}
		c.headers, c.records = headers, len(recs)
		if valid < len(data) {
			// The last line was cut short by a crash: drop it.
			if terr := os.Truncate(path, int64(valid)); terr != nil {
				return nil, fmt.Errorf("measure: %s: truncating an incomplete last line: %w", path, terr)
			}
		}
		for _, r := range recs {
			key := r.Experiment().Key()
			done[key], fromFile[key] = r, true
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("measure: campaign file: %w", err)
	}
	c.f = f
	c.Middleware = oracle.Wrap(o, oracle.Hooks{
		Answer: func(_ context.Context, e portmap.Experiment) (portmap.Measurement, error, bool) {
			return c.answer(e)
		},
		Keep: c.record,
		Holds: func(e portmap.Experiment) bool {
			c.mu.Lock()
			defer c.mu.Unlock()
			_, ok := c.stored(e.Key())
			return ok
		},
		Once: true,
	})
	return c, nil
}

// Begin writes the header h (where and how the campaign measures) to the
// file, unless the file's last header says the same (the machine within
// portmap.MaxTickDrift, the same settings and shard). It refuses, before
// anything is measured, to go on with a file measured on another machine,
// by another portlab version, with other settings or for another shard,
// naming the field that differs; and to put a shard into a file that
// holds records of an earlier version, without a header. A file with no
// header otherwise gets one after its records, which stay of unknown
// provenance.
func (c *Campaign) Begin(h portmap.Header) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := len(c.headers); n > 0 {
		last := c.headers[n-1]
		if f, a, b := last.Machine.Difference(h.Machine); f != "" {
			return fmt.Errorf("measure: campaign %s was measured on another machine or portlab version: %s is %s there, %s here; measure into another file", c.path, f, a, b)
		}
		if f, a, b := last.Settings.Difference(h.Settings); f != "" {
			return fmt.Errorf("measure: campaign %s was measured with other settings: %s is %s there, %s here; measure into another file", c.path, f, a, b)
		}
		switch {
		case last.Shard != nil && h.Shard == nil:
			return fmt.Errorf("measure: campaign %s holds shard %s of %s; give -shard %s to resume it, or measure into another file", c.path, last.Shard.Shard, last.Shard.Design, last.Shard.Shard)
		case last.Shard == nil && h.Shard != nil && c.records > 0:
			return fmt.Errorf("measure: campaign %s holds a campaign that is not sharded; measure shard %s into another file", c.path, h.Shard.Shard)
		case last.Shard != nil:
			// A shard file holds one shard; a partial merge (MergeCampaigns)
			// several of one campaign, each of which resumes in it.
			same, sibling := false, true
			var held []string
			for _, o := range c.headers {
				if o.Shard == nil {
					continue
				}
				if o.Shard.Same(*h.Shard) {
					same = true
					continue
				}
				if o.Shard.Count != h.Shard.Count || o.Shard.Design != h.Shard.Design || o.Shard.Insns != h.Shard.Insns ||
					(o.Shard.Whole != "" && h.Shard.Whole != "" && o.Shard.Whole != h.Shard.Whole) {
					sibling = false
				}
				if s := o.Shard.Shard.String(); !slices.Contains(held, s) {
					held = append(held, s)
				}
			}
			switch {
			case same && sibling && last.Shard.Same(*h.Shard):
				return nil // the same shard, resumed
			case same && sibling:
				// another shard's records come last: a header for this one
			default:
				return fmt.Errorf("measure: campaign %s holds shard %s of design %s over %s (%d experiments), not shard %s of %s over %s (%d); measure into another file",
					c.path, strings.Join(held, ", "), last.Shard.Design, last.Shard.Insns, last.Shard.Planned, h.Shard.Shard, h.Shard.Design, h.Shard.Insns, h.Shard.Planned)
			}
		case last.Shard == nil && h.Shard == nil:
			return nil // the same machine and settings
		}
	} else if h.Shard != nil && c.records > 0 {
		return fmt.Errorf("measure: campaign %s holds records of an earlier portlab version, without a header; measure shard %s into another file", c.path, h.Shard.Shard)
	}
	line, err := h.MarshalLine()
	if err != nil {
		return err
	}
	if c.f == nil {
		return fmt.Errorf("measure: campaign %s is closed", c.path)
	}
	if _, err := c.f.Write(line); err != nil {
		return fmt.Errorf("measure: writing the header of %s: %w", c.path, err)
	}
	c.headers = append(c.headers, h)
	return nil
}

// Headers returns the file's header lines, the one Begin wrote included.
func (c *Campaign) Headers() []portmap.Header {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]portmap.Header(nil), c.headers...)
}

// Remembers reports true: an experiment asked again is answered from the
// file (oracle.Rememberer).
func (c *Campaign) Remembers() bool { return true }

// Path returns the campaign file's path.
func (c *Campaign) Path() string { return c.path }

// Close closes the campaign file.
func (c *Campaign) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil {
		return nil
	}
	err := c.f.Close()
	c.f = nil
	return err
}

// Resumed returns the number of answers taken from the file so far of
// experiments it held when the campaign was opened — those from earlier
// runs, not those this campaign measured and was asked for again (a
// design that measures the singletons first, then asks for them with the
// rest) — and Measured the number of experiments measured (and appended)
// by this campaign.
func (c *Campaign) Resumed() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.resumed
}

// Measured returns the number of experiments measured by this campaign
// (successfully or not), as opposed to answered from its file.
func (c *Campaign) Measured() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.measured
}

// stored returns the record of e that the campaign answers with, if any.
func (c *Campaign) stored(key string) (portmap.Record, bool) {
	if _, again := c.settling[key]; again {
		return portmap.Record{}, false
	}
	r, ok := c.done[key]
	if !ok || (r.Error != "" && (r.Transient || c.RetryErrors || infrastructureReason(r.Error))) {
		return portmap.Record{}, false
	}
	return r, true
}

// infrastructureReasons are the messages of infrastructure failures that
// earlier versions journaled as failures of the experiment; a campaign
// measures such an experiment again instead of answering with them.
var infrastructureReasons = []string{
	"sched_setaffinity(", "did not start as a measurement worker", "measure: starting worker",
	"as failed: exec:", "mmap code", "mprotect code", "no code loaded at that entry",
}

// infrastructureReason reports whether a stored failure's reason is one of
// infrastructureReasons.
func infrastructureReason(reason string) bool {
	for _, r := range infrastructureReasons {
		if strings.Contains(reason, r) {
			return true
		}
	}
	return false
}

// storedError is a failure read back from a campaign file.
type storedError struct {
	reason string
}

func (e *storedError) Error() string { return e.reason }

// answer returns the stored result of e, if the campaign answers it from
// its file.
func (c *Campaign) answer(e portmap.Experiment) (portmap.Measurement, error, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.stored(e.Key())
	if !ok {
		return portmap.Measurement{}, nil, false
	}
	if c.fromFile[e.Key()] {
		c.resumed++
	}
	if r.Error != "" {
		return portmap.Measurement{}, &storedError{r.Error}, true
	}
	m := r.Measurement()
	m.Experiment = e
	return m, nil, true
}

// record appends the outcome of measuring e to the file and returns it
// (with the file's error if appending failed). An interruption is not a
// property of e and is not stored.
func (c *Campaign) record(ctx context.Context, e portmap.Experiment, m portmap.Measurement, err error) (portmap.Measurement, error) {
	if err != nil && ctx.Err() != nil {
		return m, ctx.Err()
	}
	if oracle.IsInfrastructure(err) {
		return m, err // the machinery failed, not the experiment: no record
	}
	c.mu.Lock()
	first, again := c.settling[e.Key()]
	c.mu.Unlock()
	if again {
		return c.settle(e, first, m, err)
	}
	var rec portmap.Record
	if err != nil {
		rec = portmap.FailedRecord(e, err.Error(), oracle.IsTransient(err), time.Now())
	} else {
		m.Experiment = e
		rec = portmap.RecordOf(m, time.Now())
	}
	if werr := c.append(e.Key(), rec); werr != nil {
		return m, werr
	}
	c.mu.Lock()
	c.measured++
	c.mu.Unlock()
	return m, err
}

var (
	_ oracle.BatchMeasurer = (*Campaign)(nil)
	_ oracle.Preparer      = (*Campaign)(nil)
	_ oracle.Rememberer    = (*Campaign)(nil)
	_ oracle.UopCounter    = (*Campaign)(nil)
	_ oracle.UopCounter    = (*Hardware)(nil)
)

// DefaultResettle is Campaign.Resettle's default: the contention above
// which the hardware oracle does not trust a pass (MaxContention).
const DefaultResettle = MaxContention

// doubt is how much a measurement's value may be off: the larger of the
// spread of its passes and its contention.
func doubt(m portmap.Measurement) float64 { return max(m.Spread, m.Contention) }

// Outcome is what a campaign run produced: the measured experiments in the
// order given, the failures, how many results came from earlier runs (the
// file as it was when the campaign was opened), and how
// many doubtful experiments were measured again (Remeasured), of which
// the second measurement was kept (Improved).
type Outcome struct {
	Set                  *portmap.ExperimentSet
	Failures             []portmap.Failure
	Resumed              int
	Remeasured, Improved int
}

// Run measures exps through the campaign (oracle.MeasureAll), then
// measures once more, as one batch, the experiments whose passes did not
// agree or ran contended (see Resettle), and returns all results, those from earlier runs
// included. It stops with ctx's error when ctx is cancelled; what was
// measured until then is in the file, and a rerun resumes, the second
// measurements included.
func (c *Campaign) Run(ctx context.Context, exps []portmap.Experiment, progress func(oracle.Progress)) (*Outcome, error) {
	before := c.Resumed()
	set, failures, err := oracle.MeasureAll(ctx, c, exps, progress)
	out := &Outcome{Set: set, Failures: failures, Resumed: c.Resumed() - before}
	if err != nil {
		return out, err
	}
	out.Remeasured, out.Improved, err = c.resettle(ctx, set, progress)
	return out, err
}

// resettle measures the experiments of set whose doubt exceeds Resettle
// and that were not measured again before, once more — through the
// campaign, so that each second measurement is settled (see settle) as
// soon as it is final and an interrupt loses none — and puts the kept
// measurement into set.
func (c *Campaign) resettle(ctx context.Context, set *portmap.ExperimentSet, progress func(oracle.Progress)) (remeasured, improved int, err error) {
	limit := c.Resettle
	if limit == 0 {
		limit = DefaultResettle
	}
	if limit < 0 {
		return 0, 0, nil
	}
	var idx []int
	var again []portmap.Experiment
	c.mu.Lock()
	c.settling = map[string]portmap.Measurement{}
	for i, m := range set.Measurements {
		if key := m.Experiment.Key(); doubt(m) > limit && !c.done[key].Remeasured {
			idx = append(idx, i)
			again = append(again, m.Experiment)
			c.settling[key] = m
		}
	}
	pending := len(c.settling)
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.settling = nil
		c.mu.Unlock()
	}()
	if len(again) == 0 {
		return 0, 0, nil
	}
	againProgress := progress
	if progress != nil {
		againProgress = func(p oracle.Progress) {
			p.Phase = "measuring again"
			progress(p)
		}
	}
	second, _, err := oracle.MeasureAll(ctx, c, again, againProgress)
	c.mu.Lock()
	remeasured = pending - len(c.settling) // settle drops what it settled
	c.mu.Unlock()
	byKey := map[string]portmap.Measurement{}
	for _, m := range second.Measurements {
		byKey[m.Experiment.Key()] = m
	}
	for _, i := range idx {
		first := set.Measurements[i]
		if m, ok := byKey[first.Experiment.Key()]; ok {
			if doubt(m) < doubt(first) {
				improved++
			}
			set.Measurements[i] = m
		}
	}
	return remeasured, improved, err
}

// settle keeps, of an experiment's first measurement and its second one
// (m, err), the one with less doubt, and appends it to the file marked
// Remeasured. A failure the second time leaves the first standing,
// unmarked, so that a later run looks again.
func (c *Campaign) settle(e portmap.Experiment, first, m portmap.Measurement, err error) (portmap.Measurement, error) {
	if err != nil {
		return first, nil
	}
	best := first
	if doubt(m) < doubt(first) {
		best = m
	}
	best.Experiment = e
	rec := portmap.RecordOf(best, time.Now())
	rec.Remeasured = true
	if err := c.append(e.Key(), rec); err != nil {
		return first, err
	}
	c.mu.Lock()
	delete(c.settling, e.Key())
	c.mu.Unlock()
	return best, nil
}

// append writes rec, the record of the experiment with key, to the file.
func (c *Campaign) append(key string, rec portmap.Record) error {
	line, err := rec.MarshalLine()
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil {
		return &oracle.JournalError{Err: fmt.Errorf("measure: campaign %s is closed", c.path)}
	}
	if _, err := c.f.Write(line); err != nil {
		return &oracle.JournalError{Err: fmt.Errorf("measure: appending to %s: %w", c.path, err)}
	}
	c.done[key] = rec
	c.records++
	return nil
}
