package cegis

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
)

// SweepRun is one run of a scaling sweep (thesis Figs. 4.6 and 4.8, Table
// 4.1): one inference of a random ground truth of a given size, as one
// JSON line of the results file that bench/cmd/cegissweep writes and
// ReadSweep reads.
type SweepRun struct {
	Encoding string `json:"encoding"` // portlab or thesis
	// Variant names the settings changed from the encoding's defaults
	// (e.g. "pairs"); empty for the defaults.
	Variant  string  `json:"variant,omitempty"`
	Levels   int     `json:"levels"` // 2 or 3
	Ports    int     `json:"ports"`
	Insns    int     `json:"insns"`
	Multi    int     `json:"multi"`     // three-level: instructions with more than one µop
	UopsEach int     `json:"uops_each"` // three-level: µops of each of them
	Uops     int     `json:"uops"`      // µops in all
	Truth    int     `json:"truth"`     // seed of the ground truth
	Run      int     `json:"run"`       // z3 random seed
	Status   string  `json:"status"`    // ok, timeout, wrong, conflict (no mapping; conflicting measurements named), undecided or error
	Error    string  `json:"error,omitempty"`
	Seconds  float64 `json:"seconds"`
	// CPUSeconds is the processor time of the run, the sweep's own and
	// z3's (the children's), user and system: on a shared machine it
	// is what the run would take on an idle one (single-threaded).
	CPUSeconds float64 `json:"cpu_s,omitempty"`
	// Extra is the number of experiments measured beyond the singletons
	// (thesis Fig. 4.6b/4.8b); Largest the size of the largest.
	Measured, Extra, Largest, Iterations int
	// FindOtherShare is the share of the time spent in findOtherMapping
	// (bounded and unbounded queries).
	FindOtherShare float64 `json:"findother_share"`
	Complete       bool    `json:"complete"`
	// Equivalent: the result is the truth up to a renaming of the ports;
	// Pearson and MAPE on 1,000 random length-5 experiments.
	Equivalent bool `json:"equivalent"`
	// MaxDiffRatio is the largest |result − truth| over the 1,000 random
	// experiments in units of 2ε·|e|: at most 1 means no experiment
	// tells the result from the truth beyond the tolerance (an equally
	// valid answer, thesis §4.3), above 1 a wrong one.
	MaxDiffRatio float64 `json:"max_diff_ratio"`
	// Distinct, for a two-level result that is not a renaming of the
	// truth, names a set of instructions whose port unions under the
	// two tell them apart beyond the tolerance on some experiment (an
	// exact check; the random experiments may miss it): the run is then
	// wrong. Empty when there is none.
	Distinct string `json:"distinct,omitempty"`
	// Mapping is the result, one "insn=usage" per instruction.
	Mapping string  `json:"mapping,omitempty"`
	Pearson float64 `json:"pearson"`
	MAPE    float64 `json:"mape"`
	Timeout float64 `json:"timeout_s"`
	// Noise is the multiplicative noise of the simulated measurements,
	// Validation the random experiments measured after convergence (0:
	// none), ValidationSeconds their time in all.
	Noise             float64 `json:"noise,omitempty"`
	Epsilon           float64 `json:"epsilon"`
	Validation        int     `json:"validation,omitempty"`
	ValidationSeconds float64 `json:"validation_s,omitempty"`
	Date              string  `json:"date"`
	CPU               string  `json:"cpu"`
	Z3                string  `json:"z3"`
}

// Sweep holds the runs of a scaling sweep and, grouped by size, those
// without noise or validation (the runs of Figs. 4.6 and 4.8).
type Sweep struct {
	Runs   []SweepRun
	Points []*SweepPoint
}

// SweepPoint gathers the runs of one size of one encoding.
type SweepPoint struct {
	Encoding      string
	Levels, Ports int
	// X is the number of instructions of a two-level point; of a
	// three-level point it is the number of instructions with more than
	// one µop and Y their µops each (Y is 0 for two-level points).
	X, Y int
	// Seconds, CPUSeconds and Extra hold one value per run: wall time,
	// processor time (runs that recorded it) and experiments beyond the
	// singletons. A run cut off by the time limit has +Inf times and no
	// Extra value.
	Seconds, CPUSeconds, Extra []float64
	// Limit is the largest time limit of the runs, Timeouts the runs cut
	// off by it and Wrong the runs whose answer was not the truth.
	Limit           float64
	Timeouts, Wrong int
}

// ReadSweep reads a sweep's results, one JSON run per line; an error names
// the line.
func ReadSweep(r io.Reader) (*Sweep, error) {
	s := &Sweep{}
	byKey := map[[5]any]*SweepPoint{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		var run SweepRun
		if err := json.Unmarshal(sc.Bytes(), &run); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		s.Runs = append(s.Runs, run)
		if run.Noise != 0 || run.Validation != 0 {
			continue
		}
		x, y := run.Insns, 0
		if run.Levels == 3 {
			x, y = run.Multi, run.UopsEach
		}
		key := [5]any{run.Encoding, run.Levels, run.Ports, x, y}
		p := byKey[key]
		if p == nil {
			p = &SweepPoint{Encoding: run.Encoding, Levels: run.Levels, Ports: run.Ports, X: x, Y: y}
			byKey[key] = p
			s.Points = append(s.Points, p)
		}
		p.Limit = math.Max(p.Limit, run.Timeout)
		switch run.Status {
		case "timeout":
			p.Timeouts++
			p.Seconds = append(p.Seconds, math.Inf(1))
			if run.CPUSeconds > 0 {
				p.CPUSeconds = append(p.CPUSeconds, math.Inf(1))
			}
			continue
		case "wrong":
			p.Wrong++
		}
		p.Seconds = append(p.Seconds, run.Seconds)
		if run.CPUSeconds > 0 {
			p.CPUSeconds = append(p.CPUSeconds, run.CPUSeconds)
		}
		p.Extra = append(p.Extra, float64(run.Extra))
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return s, nil
}

// ReadSweepFile reads a sweep's results file; an error names the file and
// line.
func ReadSweepFile(path string) (*Sweep, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := ReadSweep(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Series returns the points of one encoding, level count and port count
// (and, three-level, µop count y), ordered by X.
func (s *Sweep) Series(encoding string, levels, ports, y int) []*SweepPoint {
	var out []*SweepPoint
	for _, p := range s.Points {
		if p.Encoding == encoding && p.Levels == levels && p.Ports == ports && p.Y == y {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].X < out[j].X })
	return out
}

// Point returns the point of the given size, or nil.
func (s *Sweep) Point(encoding string, levels, ports, x, y int) *SweepPoint {
	for _, p := range s.Points {
		if p.Encoding == encoding && p.Levels == levels && p.Ports == ports && p.X == x && p.Y == y {
			return p
		}
	}
	return nil
}

// Quantity names what a sweep series plots.
type Quantity int

// The quantities of a sweep point.
const (
	WallTime  Quantity = iota // Seconds
	CPUTime                   // CPUSeconds
	ExtraRuns                 // Extra: experiments beyond the singletons
)

func (p *SweepPoint) values(q Quantity) []float64 {
	switch q {
	case WallTime:
		return p.Seconds
	case CPUTime:
		return p.CPUSeconds
	}
	return p.Extra
}

// Stats returns the median (the lower one of an even count), the minimum
// and the maximum of a quantity over the point's runs (times of runs cut
// off are +Inf); ok is false when no run recorded it.
func (p *SweepPoint) Stats(q Quantity) (med, lo, hi float64, ok bool) {
	vals := p.values(q)
	if len(vals) == 0 {
		return 0, 0, 0, false
	}
	s := append([]float64(nil), vals...)
	sort.Float64s(s)
	return s[(len(s)-1)/2], s[0], s[len(s)-1], true
}

// SeriesStats returns, per point that recorded the quantity, X and the
// quantity's median, minimum and maximum (see Stats), with times of runs
// cut off drawn at the time limit: the data of a curve with error bars.
func SeriesStats(points []*SweepPoint, q Quantity) (x, med, lo, hi []float64) {
	for _, p := range points {
		m, l, h, ok := p.Stats(q)
		if !ok {
			continue
		}
		if q != ExtraRuns {
			m, l, h = min(m, p.Limit), min(l, p.Limit), min(h, p.Limit)
		}
		x, med, lo, hi = append(x, float64(p.X)), append(med, m), append(lo, l), append(hi, h)
	}
	return x, med, lo, hi
}

// String returns the point's median wall time (with the processor time
// where every run recorded it) and its number of runs, "> T s" for a median
// cut off at the limit T; "not run" for a nil point.
func (p *SweepPoint) String() string {
	if p == nil || len(p.Seconds) == 0 {
		return "not run"
	}
	m, _, _, _ := p.Stats(WallTime)
	s := fmt.Sprintf("%.1f s", m)
	if math.IsInf(m, 1) {
		s = fmt.Sprintf("> %.0f s", p.Limit)
	}
	if len(p.CPUSeconds) == len(p.Seconds) {
		if c, _, _, _ := p.Stats(CPUTime); math.IsInf(c, 1) {
			s += " (processor: cut off)"
		} else {
			s += fmt.Sprintf(" (processor %.1f s)", c)
		}
	}
	return fmt.Sprintf("%s, n = %d", s, len(p.Seconds))
}
