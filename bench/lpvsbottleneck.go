package bench

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/portlab/portlab/lib/throughput"
)

// Axes of the comparison: PMEvo Fig. 8 / thesis Fig. 5.4 (a) and (b), and the
// realistic cases.
const (
	AxisPorts     = "ports"
	AxisLength    = "length"
	AxisRealistic = "realistic"
)

// Config is one row of the comparison: where the cases come from and their
// number of ports and experiment length (for SKLUopsInfo informational: 9
// ports, length 5).
type Config struct {
	Axis   string
	Source Source
	Ports  int
	Length int
}

// Name returns the configuration's sub-benchmark name, e.g.
// "ports=10/len=4" for ThreeLevel and "two-level/ports=10/len=5" otherwise.
func (c Config) Name() string {
	n := fmt.Sprintf("ports=%d/len=%d", c.Ports, c.Length)
	if c.Source != ThreeLevel {
		n = c.Source.String() + "/" + n
	}
	return n
}

// PortsAxis returns the configurations of PMEvo Fig. 8a / thesis Fig. 5.4a:
// random three-level mappings with 4 to 20 ports, experiments of length 4.
func PortsAxis() []Config {
	var cs []Config
	for p := 4; p <= 20; p++ {
		cs = append(cs, Config{AxisPorts, ThreeLevel, p, 4})
	}
	return cs
}

// LengthAxis returns the configurations of PMEvo Fig. 8b / thesis Fig. 5.4b:
// random three-level mappings with 10 ports, experiments of length 1 to 16.
func LengthAxis() []Config {
	var cs []Config
	for l := 1; l <= 16; l++ {
		cs = append(cs, Config{AxisLength, ThreeLevel, 10, l})
	}
	return cs
}

// Realistic returns the length-5 cases of the PMEvo fitness hot path: random
// three-level and two-level mappings with 10 ports, and the uops.info SKL
// mapping (9 ports) on the measured SKL evaluation set.
func Realistic() []Config {
	return []Config{
		{AxisRealistic, ThreeLevel, 10, 5},
		{AxisRealistic, TwoLevel, 10, 5},
		{AxisRealistic, SKLUopsInfo, 9, 5},
	}
}

// DefaultConfigs returns PortsAxis, LengthAxis and Realistic.
func DefaultConfigs() []Config {
	return slices.Concat(PortsAxis(), LengthAxis(), Realistic())
}

// Options control Run. Zero fields take the defaults, or the quick defaults
// if Quick is set.
type Options struct {
	// Configs are the rows to measure (default DefaultConfigs).
	Configs []Config
	// Mappings and PerMapping give the random cases per configuration:
	// default Mappings × PerMapping = 8 × 128, quick 2 × 16.
	Mappings, PerMapping int
	// SKLExperiments is the number of SKL experiments used (default all
	// 2,000, quick 128).
	SKLExperiments int
	// Share is the time the bottleneck engine runs after each LP solve, as
	// a fraction of that solve's time (default 0.5; see Measure).
	Share float64
	// HotTime is how long the bottleneck engine is timed back to back per
	// configuration, for EvalsPerSecond (default 250 ms, quick 10 ms).
	HotTime time.Duration
	// Quick selects the quick defaults.
	Quick bool
	// Progress, if not nil, receives one line per configuration.
	Progress io.Writer
}

func (o Options) withDefaults() Options {
	def := func(v *int, full, quick int) {
		if *v <= 0 {
			*v = full
			if o.Quick {
				*v = quick
			}
		}
	}
	def(&o.Mappings, Mappings, 2)
	def(&o.PerMapping, PerMapping, 16)
	def(&o.SKLExperiments, 0, 128)
	if o.Share <= 0 {
		o.Share = 0.5
	}
	if o.HotTime <= 0 {
		o.HotTime = 250 * time.Millisecond
		if o.Quick {
			o.HotTime = 10 * time.Millisecond
		}
	}
	if o.Configs == nil {
		o.Configs = DefaultConfigs()
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	return o
}

// Row is the measurement of one configuration. All times are wall-clock
// times per experiment on the calling goroutine.
type Row struct {
	Config
	// Cases is the number of experiments, each solved by both engines.
	Cases int
	// LPNanos is the mean time of throughput.LP (build and solve the LP)
	// per experiment, over one pass over all cases.
	LPNanos float64
	// BottleneckNanos is the mean time of Model.Evaluate per pre-indexed
	// experiment, measured in the windows between the LP solves (see
	// Measure), so that both engines are timed under the same conditions.
	BottleneckNanos float64
	// HotNanos is the time of Model.Evaluate per experiment in a loop over
	// all cases without LP solves in between (best of 5 rounds): the
	// engine's speed as a fitness function.
	HotNanos float64
	// MaxLPError is the largest |LP value − exact bottleneck value| seen.
	MaxLPError float64
}

// Speedup returns LPNanos / BottleneckNanos.
func (r Row) Speedup() float64 { return r.LPNanos / r.BottleneckNanos }

// EvalsPerSecond returns the bottleneck engine's evaluations per second on
// one core, 1e9 / HotNanos.
func (r Row) EvalsPerSecond() float64 { return 1e9 / r.HotNanos }

// Cases returns the cases of c under opts' case counts.
func (o Options) Cases(c Config) ([]Case, error) {
	o = o.withDefaults()
	switch c.Source {
	case ThreeLevel, TwoLevel:
		return RandomCases(c.Source, c.Ports, c.Length, o.Mappings, o.PerMapping), nil
	case SKLUopsInfo:
		return SKLCases(o.SKLExperiments)
	}
	return nil, fmt.Errorf("bench: unknown source %v", c.Source)
}

// Run measures every configuration of opts, in order, and returns one row
// each. Configurations with equal source, ports and length (the same cases)
// are measured once. It returns an error, and no rows, if LP and the
// bottleneck formula disagree on any case.
func Run(opts Options) ([]Row, error) {
	o := opts.withDefaults()
	type key struct {
		src           Source
		ports, length int
	}
	done := map[key]Row{}
	rows := make([]Row, 0, len(o.Configs))
	for i, c := range o.Configs {
		k := key{c.Source, c.Ports, c.Length}
		if r, ok := done[k]; ok {
			r.Config = c
			rows = append(rows, r)
			continue
		}
		start := time.Now()
		cases, err := o.Cases(c)
		if err != nil {
			return nil, err
		}
		if c.Source == SKLUopsInfo && len(cases) > 0 {
			// Report what the data hold.
			c.Ports = cases[0].Mapping.NumPorts()
			c.Length = cases[0].Experiment.Len()
		}
		r, err := Measure(cases, o.Share, o.HotTime)
		if err != nil {
			return nil, fmt.Errorf("bench: %v: %w", c, err)
		}
		r.Config = c
		done[k] = r
		rows = append(rows, r)
		fmt.Fprintf(o.Progress, "[%2d/%d] %-9s %-13s ports=%-2d len=%-2d %5d cases: LP %7.1f µs, bottleneck %7.1f ns (hot %7.1f ns), ×%.0f (%.1fs)\n",
			i+1, len(o.Configs), c.Axis, c.Source, c.Ports, c.Length, r.Cases, r.LPNanos/1e3, r.BottleneckNanos, r.HotNanos, r.Speedup(), time.Since(start).Seconds())
	}
	return rows, nil
}

// chunk is the number of bottleneck evaluations between two clock reads.
const chunk = 32

// Measure times throughput.LP and the bottleneck engine on cases and checks
// that they agree on every case: the LP value, snapped to a fraction, must
// equal the exact bottleneck value, and the raw LP value must lie within
// 1e-6 (relative) of it.
//
// Each case is solved once by LP, and right after each solve the bottleneck
// engine evaluates the cases round-robin for share × that solve's time.
// Interleaving the two at millisecond grain makes their ratio robust against
// the machine's speed changing during the run (shared or throttled cores).
// The bottleneck windows start with caches the LP solve has disturbed, so
// the ratio is conservative. HotNanos is the engine's undisturbed speed: the
// best of 5 rounds of back-to-back passes over all cases, each of hotTime/5,
// spread over the LP pass.
func Measure(cases []Case, share float64, hotTime time.Duration) (Row, error) {
	n := len(cases)
	if n == 0 {
		return Row{}, fmt.Errorf("no cases")
	}
	exact := make([]throughput.Result, n)
	for i, c := range cases {
		exact[i] = c.Model.Evaluate(c.Terms)
	}
	for i := range min(n, 8) { // warm-up
		if _, err := throughput.LP(cases[i].Mapping, cases[i].Experiment); err != nil {
			return Row{}, fmt.Errorf("LP on %v: %w", cases[i].Experiment, err)
		}
	}

	// Back to back: a round of whole passes over the cases for hotTime/5,
	// five times spread over the LP pass; the best round counts.
	const rounds = 5
	hot := math.Inf(1)
	var acc int64
	hotRound := func() {
		runtime.GC() // not the LP's garbage collection
		passes := 0
		start := time.Now()
		var el time.Duration
		for el < hotTime/rounds || passes == 0 {
			for _, c := range cases {
				acc += c.Model.Evaluate(c.Terms).Num
			}
			passes++
			el = time.Since(start)
		}
		hot = min(hot, float64(el.Nanoseconds())/float64(passes*n))
	}

	lpCycles := make([]float64, n)
	lpValue := make([]float64, n)
	var lpTime, bnTime time.Duration
	var evals int64
	j, round := 0, 0
	runtime.GC()
	for i, c := range cases {
		t0 := time.Now()
		s, err := throughput.LP(c.Mapping, c.Experiment)
		t1 := time.Now()
		if err != nil {
			return Row{}, fmt.Errorf("LP on %v: %w", c.Experiment, err)
		}
		lpCycles[i], lpValue[i] = s.Cycles, s.LPValue
		d := t1.Sub(t0)
		lpTime += d
		budget := time.Duration(share * float64(d))
		var el time.Duration
		for el < budget {
			for range chunk {
				b := &cases[j]
				acc += b.Model.Evaluate(b.Terms).Num
				if j++; j == n {
					j = 0
				}
			}
			evals += chunk
			el = time.Since(t1)
		}
		bnTime += el
		for round < rounds && i+1 >= (round+1)*n/rounds {
			hotRound()
			round++
		}
	}
	runtime.KeepAlive(acc) // keeps the timed evaluations from being optimized away
	row := Row{
		Cases:           n,
		LPNanos:         float64(lpTime.Nanoseconds()) / float64(n),
		BottleneckNanos: float64(bnTime.Nanoseconds()) / float64(evals),
		HotNanos:        hot,
	}
	for i, c := range cases {
		want := exact[i].Cycles
		d := math.Abs(lpValue[i] - want)
		row.MaxLPError = max(row.MaxLPError, d)
		if lpCycles[i] != want || d > 1e-6*math.Max(1, want) {
			return Row{}, fmt.Errorf("LP and bottleneck disagree on %v (mapping %s): LP %v (raw %v), bottleneck %d/%d = %v",
				c.Experiment, c.Mapping.Name(), lpCycles[i], lpValue[i], exact[i].Num, exact[i].Den, want)
		}
	}
	for i, c := range cases { // the timed engine is deterministic; check anyway
		if r := c.Model.Evaluate(c.Terms); r != exact[i] {
			return Row{}, fmt.Errorf("bottleneck engine not deterministic on %v: %+v, then %+v", c.Experiment, exact[i], r)
		}
	}
	return row, nil
}

// Columns are the CSV columns of WriteCSV.
var Columns = []string{
	"axis", "mapping", "ports", "length", "cases",
	"lp_ns_per_exp", "bottleneck_ns_per_exp", "speedup", "bottleneck_hot_ns_per_exp", "bottleneck_evals_per_s", "max_lp_abs_err",
}

// WriteCSV writes rows as CSV with the header Columns.
func WriteCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(Columns); err != nil {
		return err
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	for _, r := range rows {
		rec := []string{
			r.Axis, r.Source.String(), strconv.Itoa(r.Ports), strconv.Itoa(r.Length), strconv.Itoa(r.Cases),
			f(r.LPNanos), f(r.BottleneckNanos), f(r.Speedup()), f(r.HotNanos), f(r.EvalsPerSecond()), f(r.MaxLPError),
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// TableHeader is the header of the text table of WriteTable.
var TableHeader = []string{
	"axis", "mapping", "ports", "len", "cases", "LP µs/exp", "bottleneck ns/exp", "speed-up", "hot ns/exp", "hot Mevals/s",
}

// WriteTable writes rows as an aligned text table, an empty row between
// axes.
func WriteTable(w io.Writer, rows []Row) error {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', tabwriter.AlignRight)
	line := func(cells ...string) {
		for _, c := range cells {
			fmt.Fprint(tw, c, "\t")
		}
		fmt.Fprintln(tw)
	}
	line(TableHeader...)
	for i, r := range rows {
		if i > 0 && rows[i-1].Axis != r.Axis {
			line(make([]string, len(TableHeader))...)
		}
		line(r.Axis, r.Source.String(), strconv.Itoa(r.Ports), strconv.Itoa(r.Length), strconv.Itoa(r.Cases),
			fmt.Sprintf("%.1f", r.LPNanos/1e3), fmt.Sprintf("%.1f", r.BottleneckNanos),
			fmt.Sprintf("%.0f×", r.Speedup()), fmt.Sprintf("%.1f", r.HotNanos), fmt.Sprintf("%.2f", r.EvalsPerSecond()/1e6))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for ln := range strings.Lines(buf.String()) {
		if _, err := io.WriteString(w, strings.TrimRight(ln, " \n")+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// String formats the row's configuration, for messages.
func (c Config) String() string { return c.Axis + ": " + c.Source.String() + " " + c.Name() }
