package anica

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"
)

// MarshalJSON writes a failed prediction as its message alone (its
// cycles are NaN, which JSON cannot hold).
func (p Prediction) MarshalJSON() ([]byte, error) {
	if p.Err != "" || math.IsNaN(p.Cycles) || math.IsInf(p.Cycles, 0) {
		msg := p.Err
		if msg == "" {
			msg = fmt.Sprint(p.Cycles)
		}
		return json.Marshal(struct {
			Err     string `json:"err"`
			Outside bool   `json:"outside,omitempty"`
		}{msg, p.Outside})
	}
	return json.Marshal(struct {
		Cycles float64 `json:"cycles"`
	}{p.Cycles})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (p *Prediction) UnmarshalJSON(data []byte) error {
	var v struct {
		Cycles  float64 `json:"cycles"`
		Err     string  `json:"err"`
		Outside bool    `json:"outside"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*p = Prediction{Cycles: v.Cycles, Err: v.Err, Outside: v.Outside && v.Err != ""}
	if v.Err != "" {
		p.Cycles = math.NaN()
	}
	return nil
}

// jsonScore holds a score that may be +Inf (a predictor failed).
type jsonScore float64

func (s jsonScore) MarshalJSON() ([]byte, error) {
	if math.IsInf(float64(s), 1) {
		return []byte(`"inf"`), nil
	}
	return json.Marshal(float64(s))
}

func (s *jsonScore) UnmarshalJSON(data []byte) error {
	if string(data) == `"inf"` {
		*s = jsonScore(math.Inf(1))
		return nil
	}
	var f float64
	err := json.Unmarshal(data, &f)
	*s = jsonScore(f)
	return err
}

type witnessJSON struct {
	Block       string       `json:"block"`
	Predictions []Prediction `json:"predictions"`
	Score       jsonScore    `json:"score"`
}

// MarshalJSON writes the score +Inf as "inf".
func (w Witness) MarshalJSON() ([]byte, error) {
	return json.Marshal(witnessJSON{w.Block, w.Predictions, jsonScore(w.Score)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (w *Witness) UnmarshalJSON(data []byte) error {
	var v witnessJSON
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*w = Witness{v.Block, v.Predictions, float64(v.Score)}
	return nil
}

type discoveryJSON struct {
	Block      *Block     `json:"block"`
	Origin     Witness    `json:"origin"`
	Witnesses  []Witness  `json:"witnesses"`
	Score      jsonScore  `json:"score"`
	Generality int        `json:"generality"`
	Decisions  []Decision `json:"decisions"`
	Batch      int        `json:"batch"`
	Stopped    bool       `json:"stopped,omitempty"`
}

// MarshalJSON writes the score +Inf as "inf".
func (d Discovery) MarshalJSON() ([]byte, error) {
	return json.Marshal(discoveryJSON{d.Block, d.Origin, d.Witnesses, jsonScore(d.Score), d.Generality, d.Decisions, d.Batch, d.Stopped})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (d *Discovery) UnmarshalJSON(data []byte) error {
	var v discoveryJSON
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*d = Discovery{v.Block, v.Origin, v.Witnesses, float64(v.Score), v.Generality, v.Decisions, v.Batch, v.Stopped}
	return nil
}

// journalLine is one line of a campaign's journal: the header (Predictors
// and Config), a prediction (P, Block, Prediction) or a finished batch.
type journalLine struct {
	Kind       string       `json:"kind"`
	Predictors []string     `json:"predictors,omitempty"`
	Config     *Config      `json:"config,omitempty"`
	P          int          `json:"p,omitempty"`
	Block      string       `json:"block,omitempty"`
	Prediction *Prediction  `json:"prediction,omitempty"`
	Batch      int          `json:"batch,omitempty"`
	Sampled    int          `json:"sampled,omitempty"`
	Found      int          `json:"interesting,omitempty"`
	New        []*Discovery `json:"discoveries,omitempty"`
	Elapsed    float64      `json:"elapsed,omitempty"` // seconds
}

// Journal makes the campaign append to w, as JSON lines: a header naming
// the predictors and the configuration (when header is set: a new
// journal), then every new prediction and every finished batch with its
// discoveries. A campaign restored from the journal (Resume) continues
// where it stopped, asking no predictor again about a block it answered.
func (c *Campaign) Journal(w io.Writer, header bool) error {
	var werr error
	write := func(l journalLine) {
		if werr != nil {
			return
		}
		data, err := json.Marshal(l)
		if err != nil {
			werr = fmt.Errorf("anica: journal: %w", err)
			return
		}
		if _, err := w.Write(append(data, '\n')); err != nil {
			werr = fmt.Errorf("anica: journal: %w", err)
		}
	}
	if header {
		cfg := c.Config
		write(journalLine{Kind: "header", Predictors: c.names(), Config: &cfg})
	}
	for k, p := range c.Predictors {
		p.OnNew = func(key string, pr Prediction) {
			write(journalLine{Kind: "prediction", P: k, Block: key, Prediction: &pr})
		}
	}
	c.OnBatch = func(batch, sampled, interesting int, found []*Discovery) error {
		write(journalLine{Kind: "batch", Batch: batch, Sampled: sampled, Found: interesting, New: found, Elapsed: c.Elapsed.Seconds()})
		return werr
	}
	return werr
}

func (c *Campaign) names() []string {
	var out []string
	for _, p := range c.Predictors {
		out = append(out, p.Name())
	}
	return out
}

// Resume reads a journal Journal wrote and restores the campaign's
// predictions, batches and discoveries. The journal must be of a campaign
// with the same predictors and configuration; a last line cut short (the
// campaign was killed while writing it) is ignored, any other bad line is
// an error naming it. It returns the number of batches restored.
func (c *Campaign) Resume(r io.Reader) (int, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	var lines [][]byte
	for sc.Scan() {
		lines = append(lines, slices.Clone(sc.Bytes()))
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("anica: journal: %w", err)
	}
	batches := 0
	for i, raw := range lines {
		var l journalLine
		if err := json.Unmarshal(raw, &l); err != nil {
			if i == len(lines)-1 {
				break // cut short by a kill
			}
			return 0, fmt.Errorf("anica: journal line %d: %w", i+1, err)
		}
		switch l.Kind {
		case "header":
			if i != 0 {
				return 0, fmt.Errorf("anica: journal line %d: a second header", i+1)
			}
			if !slices.Equal(l.Predictors, c.names()) {
				return 0, fmt.Errorf("anica: journal: campaign of predictors %v, not %v (use another directory)", l.Predictors, c.names())
			}
			if l.Config == nil {
				return 0, errors.New("anica: journal: a header without the campaign's configuration")
			}
			if *l.Config != c.Config {
				return 0, fmt.Errorf("anica: journal: campaign with another configuration: %s (give the same settings, or use another directory)", configDiff(*l.Config, c.Config))
			}
		case "prediction":
			if l.P < 0 || l.P >= len(c.Predictors) || l.Prediction == nil {
				return 0, fmt.Errorf("anica: journal line %d: bad prediction record", i+1)
			}
			c.Predictors[l.P].Put(l.Block, *l.Prediction)
		case "batch":
			if l.Batch != c.Batches {
				return 0, fmt.Errorf("anica: journal line %d: batch %d after %d batches", i+1, l.Batch, c.Batches)
			}
			c.Batches++
			c.Sampled += l.Sampled
			c.Interesting += l.Found
			c.Discoveries = append(c.Discoveries, l.New...)
			c.Elapsed = time.Duration(l.Elapsed * float64(time.Second))
			batches++
		default:
			return 0, fmt.Errorf("anica: journal line %d: unknown kind %q", i+1, l.Kind)
		}
		if i == 0 && l.Kind != "header" {
			return 0, errors.New("anica: journal: no header on line 1")
		}
	}
	return batches, nil
}

// configDiff names the fields in which the journal's configuration
// differs from now's, with both values.
func configDiff(was, now Config) string {
	var out []string
	a, b := reflect.ValueOf(was), reflect.ValueOf(now)
	for i := range a.NumField() {
		if x, y := a.Field(i).Interface(), b.Field(i).Interface(); x != y {
			out = append(out, fmt.Sprintf("%s %v in the journal, %v now", a.Type().Field(i).Name, x, y))
		}
	}
	return strings.Join(out, "; ")
}
