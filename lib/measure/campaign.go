package measure

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/portlab/portlab/lib/portmap"
)

// Record is one line of a campaign file (JSON lines): an experiment and
// what measuring it gave.
type Record struct {
	Insns  map[string]int `json:"insns"`
	Cycles float64        `json:"cycles,omitempty"`
	Error  string         `json:"error,omitempty"`
	Time   time.Time      `json:"time"`
	// Optional detail from oracles that report dispersion.
	Min        float64 `json:"min,omitempty"`
	Max        float64 `json:"max,omitempty"`
	Dispersion float64 `json:"dispersion,omitempty"`
	Contention float64 `json:"contention,omitempty"`
}

// Preparer is an Oracle that works faster when told the experiments
// ahead (the hardware oracle assembles them in one run); campaigns call
// Prepare with chunks of the experiments still to measure.
type Preparer interface {
	Prepare(ctx context.Context, exps []portmap.Experiment) error
}

// prepareChunk is the number of experiments a campaign prepares at once.
const prepareChunk = 256

// DetailedOracle is an Oracle that can also report the spread of its
// samples; campaigns record it when available.
type DetailedOracle interface {
	Oracle
	Measure(ctx context.Context, e portmap.Experiment) (Measurement, error)
}

// Campaign measures a list of experiments with an Oracle and appends each
// result to a JSON-lines file as soon as it is known, so that nothing
// measured is lost: run it again after a crash (even SIGKILL) and it skips
// every experiment the file already holds, losing at most the one that was
// in flight.
type Campaign struct {
	// Path is the JSON-lines file results are appended to.
	Path string
	// Oracle measures one experiment.
	Oracle Oracle
	// Progress, when set, is called after each experiment.
	Progress func(Progress)
	// RetryErrors makes a run re-measure experiments whose earlier attempt
	// ended in an error (by default they are kept as failed).
	RetryErrors bool
}

// Progress reports a campaign's state after one experiment.
type Progress struct {
	Done, Total int // experiments finished (including earlier runs) and in all
	Failed      int
	Last        portmap.Experiment
	Cycles      float64
	Err         error
	Elapsed     time.Duration // this run
}

// Failure is an experiment that could not be measured.
type Failure struct {
	Experiment portmap.Experiment
	Error      string
}

// Outcome is what a campaign run produced: the measured experiments in the
// order given, and the failures.
type Outcome struct {
	Set      *portmap.ExperimentSet
	Failures []Failure
	Resumed  int // results taken from the file instead of measured again
}

// Run measures every experiment of exps not already in the file and
// returns all results. It stops with ctx's error when ctx is cancelled;
// what was measured until then is in the file.
func (c *Campaign) Run(ctx context.Context, exps []portmap.Experiment) (*Outcome, error) {
	done, err := readCampaign(c.Path)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(c.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("measure: campaign file: %w", err)
	}
	defer f.Close()
	start := time.Now()
	out := &Outcome{Set: &portmap.ExperimentSet{}}
	finished, failed := 0, 0
	for _, e := range exps {
		if r, ok := done[e.Key()]; ok && (r.Error == "" || !c.RetryErrors) {
			finished++
			if r.Error != "" {
				failed++
			}
		}
	}
	detailed, _ := c.Oracle.(DetailedOracle)
	preparer, _ := c.Oracle.(Preparer)
	var pending []portmap.Experiment
	for _, e := range exps {
		if r, ok := done[e.Key()]; !ok || (r.Error != "" && c.RetryErrors) {
			pending = append(pending, e)
		}
	}
	next := 0 // index into pending of the next experiment to measure
	for _, e := range exps {
		key := e.Key()
		if r, ok := done[key]; ok && (r.Error == "" || !c.RetryErrors) {
			out.Resumed++
			if r.Error != "" {
				out.Failures = append(out.Failures, Failure{e, r.Error})
			} else {
				out.Set.Measurements = append(out.Set.Measurements, portmap.Measurement{Experiment: e, Cycles: r.Cycles})
			}
			continue
		}
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if preparer != nil && next%prepareChunk == 0 {
			if err := preparer.Prepare(ctx, pending[next:min(len(pending), next+prepareChunk)]); err != nil {
				return out, err
			}
		}
		next++
		rec := Record{Insns: map[string]int{}, Time: time.Now().UTC()}
		for _, it := range e.Items() {
			rec.Insns[it.Insn] = it.Count
		}
		var cycles float64
		var merr error
		if detailed != nil {
			var m Measurement
			m, merr = detailed.Measure(ctx, e)
			cycles, rec.Min, rec.Max, rec.Dispersion, rec.Contention = m.Cycles, m.Min, m.Max, m.Dispersion, m.Contention
		} else {
			cycles, merr = c.Oracle.Cycles(ctx, e)
		}
		if merr != nil && ctx.Err() != nil {
			return out, ctx.Err() // interrupted, not a property of e
		}
		if merr != nil {
			rec.Error = merr.Error()
			out.Failures = append(out.Failures, Failure{e, rec.Error})
			failed++
		} else {
			rec.Cycles = cycles
			out.Set.Measurements = append(out.Set.Measurements, portmap.Measurement{Experiment: e, Cycles: cycles})
		}
		line, err := json.Marshal(rec)
		if err != nil {
			return out, err
		}
		if _, err := f.Write(append(line, '\n')); err != nil {
			return out, fmt.Errorf("measure: appending to %s: %w", c.Path, err)
		}
		done[key] = rec
		finished++
		if c.Progress != nil {
			c.Progress(Progress{Done: finished, Total: len(exps), Failed: failed, Last: e, Cycles: cycles, Err: merr, Elapsed: time.Since(start)})
		}
	}
	return out, nil
}

// readCampaign reads the records of a campaign file by experiment key. A
// missing file is an empty campaign. A truncated last line (a crash while
// writing) is cut off the file; a malformed line elsewhere is an error
// naming the file and line.
func readCampaign(path string) (map[string]Record, error) {
	done := map[string]Record{}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return done, nil
	}
	if err != nil {
		return nil, fmt.Errorf("measure: campaign file: %w", err)
	}
	recs, valid, err := parseCampaign(path, data)
	if err != nil {
		return nil, err
	}
	if valid < len(data) {
		// The last line was cut short by a crash: drop it.
		if terr := os.Truncate(path, int64(valid)); terr != nil {
			return nil, fmt.Errorf("measure: %s: truncating an incomplete last line: %w", path, terr)
		}
	}
	for _, r := range recs {
		done[r.key] = r.Record
	}
	return done, nil
}

// keyedRecord is a record with its experiment.
type keyedRecord struct {
	Record
	exp portmap.Experiment
	key string
}

// parseCampaign parses the lines of a campaign file and returns the records
// and the length of the complete lines (a last line without its newline is
// in-flight work of a crashed run and not returned).
func parseCampaign(name string, data []byte) ([]keyedRecord, int, error) {
	var recs []keyedRecord
	r := bufio.NewReader(bytes.NewReader(data))
	offset, lineNo := 0, 0
	for {
		line, err := r.ReadBytes('\n')
		if len(line) == 0 && err == io.EOF {
			break
		}
		lineNo++
		if err != nil {
			break // incomplete last line
		}
		var rec Record
		if perr := json.Unmarshal(bytes.TrimSpace(line), &rec); perr != nil {
			return nil, 0, fmt.Errorf("measure: %s:%d: malformed record: %v", name, lineNo, perr)
		}
		e, eerr := portmap.ExperimentOf(rec.Insns)
		if eerr != nil || e.Len() == 0 {
			return nil, 0, fmt.Errorf("measure: %s:%d: bad experiment: %v", name, lineNo, eerr)
		}
		recs = append(recs, keyedRecord{rec, e, e.Key()})
		offset += len(line)
	}
	return recs, offset, nil
}

// ReadCampaign reads a campaign file (JSON lines as Campaign writes them,
// optionally gzip-compressed with a .gz name) into an experiment set without
// an architecture, in the order experiments were first measured; when an
// experiment was measured more than once the last result counts. Failed
// experiments are returned separately; an incomplete last line (a crashed
// run's experiment in flight) is ignored. A malformed line is an error
// naming the file and line.
func ReadCampaign(path string) (*portmap.ExperimentSet, []Failure, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("measure: campaign file: %w", err)
	}
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, nil, fmt.Errorf("measure: %s: %w", path, err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			return nil, nil, fmt.Errorf("measure: %s: %w", path, err)
		}
	}
	recs, _, err := parseCampaign(path, data)
	if err != nil {
		return nil, nil, err
	}
	last := map[string]int{}
	var order []string
	for k, r := range recs {
		if _, ok := last[r.key]; !ok {
			order = append(order, r.key)
		}
		last[r.key] = k
	}
	set := &portmap.ExperimentSet{}
	var failures []Failure
	for _, key := range order {
		r := recs[last[key]]
		if r.Error != "" {
			failures = append(failures, Failure{r.exp, r.Error})
			continue
		}
		set.Measurements = append(set.Measurements, portmap.Measurement{Experiment: r.exp, Cycles: r.Cycles})
	}
	return set, failures, nil
}
