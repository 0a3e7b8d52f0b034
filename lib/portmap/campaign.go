package portmap

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// Record is one line of a campaign file: JSON lines, one experiment and
// what measuring it gave per line, appended as results come in (package
// measure writes them; ReadCampaign and ReadExperiments read them):
//
//	{"insns":{"add RW:GPR:64, R:GPR:64":1},"cycles":0.251,"time":"2026-11-22T10:00:00Z","min":0.25,"max":0.26,"dispersion":0.004}
//	{"insns":{"ud2":1},"error":"SIGILL: illegal instruction","time":"2026-11-22T10:00:01Z"}
//
// A line {"header":…} says where and how the lines after it were measured
// (Header); files of earlier versions have none. A line with an error is a failed experiment; Transient marks an error
// that says nothing about the experiment (the worker was killed, a timeout),
// which a rerun of the campaign measures again. An experiment may have
// several lines: the last one counts. Remeasured marks the line written
// after an experiment whose passes disagreed was measured once more at the
// end of a campaign run (package measure, Campaign.Resettle).
type Record struct {
	Insns      map[string]int `json:"insns"`
	Cycles     float64        `json:"cycles,omitempty"`
	Error      string         `json:"error,omitempty"`
	Transient  bool           `json:"transient,omitempty"`
	Time       time.Time      `json:"time"`
	Min        float64        `json:"min,omitempty"`
	Max        float64        `json:"max,omitempty"`
	Dispersion float64        `json:"dispersion,omitempty"`
	Contention float64        `json:"contention,omitempty"`
	Passes     int            `json:"passes,omitempty"`
	Spread     float64        `json:"spread,omitempty"`
	Uops       float64        `json:"uops,omitempty"`
	PortUops   []float64      `json:"port_uops,omitempty"`
	Remeasured bool           `json:"remeasured,omitempty"`

	exp Experiment // parsed from Insns by ParseCampaign
}

// RecordOf returns the record of a successful measurement taken at t.
func RecordOf(m Measurement, t time.Time) Record {
	return Record{Insns: insnCounts(m.Experiment), Cycles: m.Cycles, Time: t.UTC(),
		Min: m.Min, Max: m.Max, Dispersion: m.Dispersion, Contention: m.Contention, Passes: m.Passes, Spread: m.Spread,
		Uops: m.Uops, PortUops: m.PortUops, exp: m.Experiment}
}

// FailedRecord returns the record of an experiment that could not be
// measured at t, for the given reason.
func FailedRecord(e Experiment, reason string, transient bool, t time.Time) Record {
	return Record{Insns: insnCounts(e), Error: reason, Transient: transient, Time: t.UTC(), exp: e}
}

func insnCounts(e Experiment) map[string]int {
	out := make(map[string]int, len(e.items))
	for _, it := range e.items {
		out[it.Insn] = it.Count
	}
	return out
}

// Experiment returns the record's experiment.
func (r Record) Experiment() Experiment {
	if r.exp.Len() == 0 && len(r.Insns) > 0 {
		e, _ := ExperimentOf(r.Insns)
		return e
	}
	return r.exp
}

// Measurement returns the record as a measurement (meaningful when Error
// is empty).
func (r Record) Measurement() Measurement {
	return Measurement{Experiment: r.Experiment(), Cycles: r.Cycles, Min: r.Min, Max: r.Max,
		Dispersion: r.Dispersion, Contention: r.Contention, Passes: r.Passes, Spread: r.Spread,
		Uops: r.Uops, PortUops: r.PortUops}
}

// MarshalLine returns the record as one line of JSON with its newline.
func (r Record) MarshalLine() ([]byte, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// ParseCampaign parses the lines of a campaign file (name is used in
// errors) and returns the records and the length of the complete lines: a
// last line without its newline is the experiment a crashed run had in
// flight, and is not returned. A malformed line elsewhere is an error
// naming the file and line.
func ParseCampaign(name string, data []byte) ([]Record, int, error) {
	recs, _, _, valid, err := parseCampaign(name, data)
	return recs, valid, err
}

// headerPrefix starts a header line (see Header).
var headerPrefix = []byte(`{"header":`)

// parseCampaign parses a campaign file's records and headers.
func parseCampaign(name string, data []byte) ([]Record, []Header, []int, int, error) {
	var recs []Record
	var headers []Header
	var at []int // at[i]: the number of records before headers[i]
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
		offset += len(line)
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 {
			continue
		}
		if bytes.HasPrefix(trimmed, headerPrefix) {
			var h headerLine
			if perr := json.Unmarshal(trimmed, &h); perr != nil || h.Header == nil {
				why := "null"
				if perr != nil {
					why = perr.Error()
				}
				return nil, nil, nil, 0, &FormatError{File: name, Line: lineNo, Column: 1, Path: "header", Err: fmt.Errorf("malformed campaign header: %s", why)}
			}
			headers = append(headers, *h.Header)
			at = append(at, len(recs))
			continue
		}
		var rec Record
		if perr := json.Unmarshal(trimmed, &rec); perr != nil {
			return nil, nil, nil, 0, &FormatError{File: name, Line: lineNo, Column: 1, Err: fmt.Errorf("malformed campaign record: %v", perr)}
		}
		e, eerr := ExperimentOf(rec.Insns)
		if eerr == nil && e.Len() == 0 {
			eerr = fmt.Errorf("no instructions")
		}
		if eerr != nil {
			return nil, nil, nil, 0, &FormatError{File: name, Line: lineNo, Column: 1, Path: "insns", Err: fmt.Errorf("bad experiment: %v", eerr)}
		}
		rec.exp = e
		recs = append(recs, rec)
	}
	return recs, headers, at, offset, nil
}

// IsCampaign reports whether path names a campaign file by its extension:
// .jsonl, or .jsonl.gz for a compressed one.
func IsCampaign(path string) bool {
	return strings.HasSuffix(path, ".jsonl") || strings.HasSuffix(path, ".jsonl.gz")
}

// ReadCampaign reads a campaign file (JSON lines as package measure writes
// them, optionally gzip-compressed with a .gz name) into an experiment set
// without an architecture, in the order experiments were first measured;
// when an experiment was measured more than once the last result counts.
// Failed experiments are returned separately (Index is their position in
// the file's order of experiments). An incomplete last line (a crashed
// run's experiment in flight) is ignored; a malformed line is an error
// naming the file and line.
func ReadCampaign(path string) (*ExperimentSet, []Failure, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, nil, err
	}
	recs, _, err := ParseCampaign(path, data)
	if err != nil {
		return nil, nil, err
	}
	last := map[string]int{}
	var order []string
	for k, r := range recs {
		key := r.exp.Key()
		if _, ok := last[key]; !ok {
			order = append(order, key)
		}
		last[key] = k
	}
	set := &ExperimentSet{}
	var failures []Failure
	for i, key := range order {
		r := recs[last[key]]
		if r.Error != "" {
			failures = append(failures, Failure{Index: i, Experiment: r.exp, Reason: r.Error})
			continue
		}
		set.Measurements = append(set.Measurements, r.Measurement())
	}
	return set, failures, nil
}

// readFile reads path, decompressing it when its name ends in .gz.
func readFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("portmap: %w", err)
	}
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("portmap: %s: %w", path, err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			return nil, fmt.Errorf("portmap: %s: %w", path, err)
		}
	}
	return data, nil
}
