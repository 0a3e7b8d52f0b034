// Command cegissweep runs the scaling experiments of thesis §4.5 (Fig. 4.6,
// Fig. 4.8, Table 4.1) with package cegis: for every point of a grid,
// random ground truths × runs (3 × 3 in the thesis), each a whole inference
// from exact simulated measurements with a time limit. Every run is
// appended to a JSON-lines file as soon as it ends, so a crashed or stopped
// sweep resumes where it left off (runs already in the file are skipped),
// and the summary (median, min and max per point) is printed at the end.
//
// Usage:
//
//	go run ./bench/cmd/cegissweep -out FILE [-series SPEC]… [-first 1] [-truths 3] [-runs 3] [-timeout 10m] [-limit 10m] [-budget 75m] [-variant V] [-v]
//	go run ./bench/cmd/cegissweep -out FILE -summary [-instances]
//
// A series is ENCODING/PORTS/POINTS with ENCODING portlab (DefaultConfig)
// or thesis (ThesisConfig) and POINTS either instruction counts of a
// two-level sweep (Fig. 4.6: "portlab/8/2,4,6,8,10") or three-level shapes
// AxB of four instructions, A of them with B µops each and the others with
// one (Fig. 4.8: "portlab/6/1x2,2x2,4x4"). The points of a series run in
// the order given; a series stops after a point whose median processor
// time (the sweep's and z3's, recorded per run: on a shared core the wall
// time overstates the work) exceeds -limit (a run cut off by -timeout
// counts as longer than any other), and no run starts once -budget has
// passed. Truth t of a point is the random
// mapping of seed t (each µop on 1 to 4 random ports, thesis §4.5); run r
// sets z3's random seed to r.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/infer/cegis"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// Run is one line of the results file.
type Run = cegis.SweepRun

func key(r Run) string {
	return fmt.Sprintf("%s%s/%d/%d/%dx%d/%d/%d/%g/%g/%d", r.Encoding, variantSuffix(r), r.Ports, r.Insns, r.Multi, r.UopsEach, r.Truth, r.Run, r.Noise, r.Epsilon, r.Validation)
}

func variantSuffix(r Run) string {
	if r.Variant == "" {
		return ""
	}
	return "+" + r.Variant
}

func point(r Run) string {
	var s string
	if r.Levels == 3 {
		s = fmt.Sprintf("%s%s %d ports, 4 insns %dx%d+%d (%d µops)", r.Encoding, variantSuffix(r), r.Ports, r.Multi, r.UopsEach, r.Insns-r.Multi, r.Uops)
	} else {
		s = fmt.Sprintf("%s%s %d ports × %d insns", r.Encoding, variantSuffix(r), r.Ports, r.Insns)
	}
	if r.Noise != 0 || r.Epsilon != 0.02 || r.Validation != 0 {
		s += fmt.Sprintf(", noise %g %%, ε %g, validation %d", 100*r.Noise, r.Epsilon, r.Validation)
	}
	return s
}

type series struct {
	enc    string
	ports  int
	points []Run // templates: encoding, levels, ports, insns, multi, uops
}

func parseSeries(spec string) (series, error) {
	parts := strings.Split(spec, "/")
	if len(parts) != 3 {
		return series{}, fmt.Errorf("series %q: want ENCODING/PORTS/POINTS", spec)
	}
	s := series{enc: parts[0]}
	if s.enc != "portlab" && s.enc != "thesis" {
		return s, fmt.Errorf("series %q: encoding %q, want portlab or thesis", spec, s.enc)
	}
	var err error
	if s.ports, err = strconv.Atoi(parts[1]); err != nil || s.ports < 1 || s.ports > 12 {
		return s, fmt.Errorf("series %q: ports %q, want 1 to 12", spec, parts[1])
	}
	for _, p := range strings.Split(parts[2], ",") {
		t := Run{Encoding: s.enc, Ports: s.ports, Levels: 2}
		if a, b, ok := strings.Cut(p, "x"); ok {
			t.Levels, t.Insns = 3, 4
			t.Multi, err = strconv.Atoi(a)
			if err == nil {
				t.UopsEach, err = strconv.Atoi(b)
			}
			if err != nil || t.Multi < 0 || t.Multi > 4 || t.UopsEach < 1 || t.UopsEach > 8 {
				return s, fmt.Errorf("series %q: point %q, want AxB with A in 0..4, B in 1..8", spec, p)
			}
			t.Uops = t.Insns - t.Multi + t.Multi*t.UopsEach
		} else {
			t.Insns, err = strconv.Atoi(p)
			if err != nil || t.Insns < 1 || t.Insns > 64 {
				return s, fmt.Errorf("series %q: point %q, want an instruction count 1..64", spec, p)
			}
			t.Uops = t.Insns
		}
		s.points = append(s.points, t)
	}
	return s, nil
}

// truth returns the random ground truth of seed for the point t: two-level,
// each instruction on 1 to 4 distinct random ports (as the package's tests
// draw them), or three-level with t.Multi instructions of t.UopsEach µops,
// each µop on 1 to 4 random ports (µops of one instruction on different
// port sets).
func truth(t Run, seed uint64) (*portmap.Mapping, map[string]int) {
	r := rand.New(rand.NewPCG(seed, 7))
	names := make([]string, t.Ports)
	for k := range names {
		names[k] = fmt.Sprint(k)
	}
	m := portmap.MustMapping(fmt.Sprintf("random-%dx%d-%d", t.Ports, t.Insns, seed), names...)
	var counts map[string]int
	if t.Levels == 3 {
		m = portmap.MustMapping(fmt.Sprintf("random3-%d-%dx%d-%d", t.Ports, t.Multi, t.UopsEach, seed), names...)
		counts = map[string]int{}
	}
	for i := 0; i < t.Insns; i++ {
		nu := 1
		if t.Levels == 3 && i < t.Multi {
			nu = t.UopsEach
		}
		var uops []portmap.Uop
	draw:
		for len(uops) < nu {
			w := 1 + r.IntN(min(4, t.Ports))
			s := portmap.Ports(r.Perm(t.Ports)[:w]...)
			for _, u := range uops {
				if u.Ports == s && t.Ports > 1 {
					continue draw
				}
			}
			uops = append(uops, portmap.Uop{Ports: s, Count: 1})
		}
		name := fmt.Sprintf("i%d", i)
		if err := m.Set(name, uops...); err != nil {
			panic(err)
		}
		if counts != nil {
			counts[name] = nu
		}
	}
	return m, counts
}

// variants are the settings a sweep can change from the encoding's
// defaults, by name.
var variants = map[string]func(*cegis.Config){
	"pairs":     func(c *cegis.Config) { c.Pairs = true },
	"nosym":     func(c *cegis.Config) { c.NoSymmetryBreaking = true },
	"nosim":     func(c *cegis.Config) { c.NoSimulation = true },
	"strat":     func(c *cegis.Config) { c.Stratified = true },
	"nosubsets": func(c *cegis.Config) { c.NoSubsets = true },
	"noenum":    func(c *cegis.Config) { c.NoEnumeration = true },
	"nocover":   func(c *cegis.Config) { c.NoCover = true },
}

// applyVariant applies the variants named in v, separated by '+'.
func applyVariant(c *cegis.Config, v string) error {
	if v == "" {
		return nil
	}
	for _, name := range strings.Split(v, "+") {
		f, ok := variants[name]
		if !ok {
			var names []string
			for n := range variants {
				names = append(names, n)
			}
			slices.Sort(names)
			return fmt.Errorf("variant %q: want names among %s joined by '+'", name, strings.Join(names, ", "))
		}
		f(c)
	}
	return nil
}

// verbose prints every iteration of every run.
var verbose bool

func runOne(ctx context.Context, t Run, timeout time.Duration, epsilon float64) Run {
	truthMap, counts := truth(t, uint64(t.Truth))
	cfg := cegis.DefaultConfig()
	if t.Encoding == "thesis" {
		cfg = cegis.ThesisConfig()
	}
	cfg.UopCounts = counts
	cfg.SolverSeed = uint64(t.Run)
	cfg.Validation, cfg.Seed = t.Validation, uint64(t.Truth)
	if err := applyVariant(&cfg, t.Variant); err != nil {
		panic(err) // checked when the flag was parsed
	}
	if verbose {
		cfg.Progress = func(it cegis.Iteration) {
			fmt.Fprintf(os.Stderr, "  %s truth %d run %d: %v\n", point(t), t.Truth, t.Run, it)
		}
	}
	if epsilon >= 0 {
		cfg.Epsilon = epsilon
	}
	t.Epsilon = cfg.Epsilon
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cpu0 := cpuTime()
	start := time.Now()
	res, err := cegis.Infer(cctx, oracle.Simulate(truthMap, t.Noise, uint64(100*t.Truth+t.Run)), truthMap.Instructions(), t.Ports, cfg)
	t.Seconds = time.Since(start).Seconds()
	t.CPUSeconds = cpuTime() - cpu0
	t.Timeout = timeout.Seconds()
	t.Status = "ok"
	switch {
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		t.Status = "timeout"
	case errors.Is(err, cegis.ErrNoMapping):
		t.Status, t.Error = "conflict", err.Error()
	case errors.As(err, new(*cegis.UndecidedError)):
		t.Status, t.Error = "undecided", err.Error()
	case err != nil:
		t.Status, t.Error = "error", err.Error()
	}
	if res != nil {
		var us []string
		for _, name := range res.Mapping.Instructions() {
			us = append(us, name+"="+res.Mapping.Usage(name))
		}
		t.Mapping = strings.Join(us, " ")
		t.Measured = res.Measurements.Len()
		t.Extra = t.Measured - t.Insns
		for _, m := range res.Measurements.Measurements {
			t.Largest = max(t.Largest, m.Experiment.Len())
		}
		t.Iterations = len(res.Iterations)
		if res.Elapsed > 0 {
			t.FindOtherShare = float64(res.FindOther+res.Unbounded) / float64(res.Elapsed)
		}
		t.Complete = res.Complete
		t.ValidationSeconds = res.Validating.Seconds()
		if t.Status == "ok" {
			_, t.Equivalent = portmap.EquivalentByRenaming(res.Mapping, truthMap)
			test, _, err := oracle.MeasureAll(ctx, oracle.Simulate(truthMap, 0, 1), design.Random(truthMap.Instructions(), 5, 1000, uint64(t.Truth)), nil)
			if err == nil {
				ev := metrics.Evaluate(ctx, oracle.FromMapping(res.Mapping), test)
				if ev.Err() == nil {
					t.Pearson, t.MAPE = ev.Summary.Pearson, ev.Summary.MAPE
					for i, e := range ev.Experiments {
						d := math.Abs(ev.Predicted[i] - ev.Measured[i])
						// With ε = 0 the unit is the rounding of the
						// predictions (JSON has no infinities).
						t.MaxDiffRatio = max(t.MaxDiffRatio, d/max(2*cfg.Epsilon*float64(e.Len()), 1e-9))
					}
					if len(ev.Failures) > 0 {
						t.MaxDiffRatio = math.MaxFloat64 // JSON has no infinities
					}
				}
			}
			if !t.Equivalent && t.Levels == 2 {
				t.Distinct = distinctUnions(res.Mapping, truthMap, cfg.Epsilon)
			}
			if !res.Complete || (!t.Equivalent && (t.MaxDiffRatio > 1+1e-6 || t.Distinct != "")) {
				t.Status = "wrong"
			}
		}
	}
	return t
}

// distinctUnions decides exactly whether two two-level mappings differ
// by more than 2ε·|e| on some experiment (random experiments may miss
// it): by the bottleneck formula they do when some set of instructions
// has port unions of a and b ports with 1/a − 1/b > 2ε. It returns such
// a set with its two union sizes, or "" when there is none (or more than
// 22 instructions to enumerate).
func distinctUnions(m, truth *portmap.Mapping, eps float64) string {
	names := truth.Instructions()
	if len(names) > 22 {
		return ""
	}
	a := make([]portmap.PortSet, len(names))
	b := make([]portmap.PortSet, len(names))
	for i, n := range names {
		ua, ok1 := m.Uops(n)
		ub, ok2 := truth.Uops(n)
		if !ok1 || !ok2 || len(ua) != 1 || len(ub) != 1 {
			return ""
		}
		a[i], b[i] = ua[0].Ports, ub[0].Ports
	}
	n := len(names)
	ua := make([]portmap.PortSet, 1<<n)
	ub := make([]portmap.PortSet, 1<<n)
	for s := 1; s < 1<<n; s++ {
		low := 0
		for s&(1<<low) == 0 {
			low++
		}
		ua[s], ub[s] = ua[s&^(1<<low)]|a[low], ub[s&^(1<<low)]|b[low]
		x, y := float64(ua[s].Len()), float64(ub[s].Len())
		if math.Abs(1/x-1/y) > 2*eps+1e-9 {
			var set []string
			for i := range names {
				if s&(1<<i) != 0 {
					set = append(set, names[i])
				}
			}
			return fmt.Sprintf("{%s}: %d ports, the truth %d", strings.Join(set, ", "), ua[s].Len(), ub[s].Len())
		}
	}
	return ""
}

func main() {
	out := flag.String("out", "", "append the runs to this JSON-lines `FILE` (required); runs already in it are skipped")
	var specs []string
	flag.Func("series", "a series ENCODING/PORTS/POINTS (repeatable; see the package comment)", func(s string) error {
		if _, err := parseSeries(s); err != nil {
			return err
		}
		specs = append(specs, s)
		return nil
	})
	truths := flag.Int("truths", 3, "random ground truths per point")
	first := flag.Int("first", 1, "seed of the first ground truth (the others follow): parallel sweeps of one point take disjoint truths")
	runs := flag.Int("runs", 3, "runs per ground truth (z3 random seeds 1, 2, …)")
	timeout := flag.Duration("timeout", 10*time.Minute, "time limit of one run")
	limit := flag.Duration("limit", 10*time.Minute, "stop a series after a point whose median processor time (or time, where not recorded) exceeds this")
	budget := flag.Duration("budget", 75*time.Minute, "start no run after this much time")
	summary := flag.Bool("summary", false, "only print the summary of -out")
	instances := flag.Bool("instances", false, "after the summary, one line per run: outcome, times and whether the answer is the truth up to renaming")
	noise := flag.Float64("noise", 0, "multiplicative noise of the simulated measurements (0.01: 1 %)")
	epsilon := flag.Float64("epsilon", -1, "tolerance ε (default: the configuration's, 0.02)")
	variant := flag.String("variant", "", "settings changed from the encoding's defaults, names joined by '+': pairs, nosym, nosim, strat, nosubsets, noenum, nocover")
	flag.BoolVar(&verbose, "v", false, "print every iteration of every run")
	validate := flag.Int("validate", 0, "random length-5 experiments measured after convergence (cegis.Config.Validation)")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := applyVariant(&cegis.Config{}, *variant); err != nil {
		fmt.Fprintln(os.Stderr, "cegissweep: -variant:", err)
		os.Exit(2)
	}
	done, err := load(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cegissweep:", err)
		os.Exit(1)
	}
	if !*summary {
		if err := sweep(*out, specs, done, *first, *truths, *runs, *timeout, *limit, *budget, *noise, *epsilon, *validate, *variant); err != nil {
			fmt.Fprintln(os.Stderr, "cegissweep:", err)
			os.Exit(1)
		}
		if done, err = load(*out); err != nil {
			fmt.Fprintln(os.Stderr, "cegissweep:", err)
			os.Exit(1)
		}
	}
	printSummary(done)
	if *instances {
		printInstances(done)
	}
}

// load reads the runs of a results file (none if it does not exist).
func load(path string) ([]Run, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var runs []Run
	for i, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		r := Run{Epsilon: 0.02} // lines written before ε was recorded
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			// A line cut short by a crash is the last one: skip it, the run is redone.
			fmt.Fprintf(os.Stderr, "cegissweep: %s:%d: %v (ignored)\n", path, i+1, err)
			continue
		}
		runs = append(runs, r)
	}
	return runs, nil
}

func sweep(path string, specs []string, done []Run, first, truths, runs int, timeout, limit, budget time.Duration, noise, epsilon float64, validate int, variant string) error {
	have := map[string]Run{}
	for _, r := range done {
		have[key(r)] = r
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	cpu, z3v := cpuModel(), z3Version()
	start := time.Now()
	ctx := context.Background()
	for _, spec := range specs {
		s, _ := parseSeries(spec)
	points:
		for _, p := range s.points {
			p.Noise, p.Validation, p.Epsilon, p.Variant = noise, validate, epsilon, variant
			if epsilon < 0 {
				p.Epsilon = 0.02 // both configurations' default
			}
			var secs []float64
			for t := first; t < first+truths; t++ {
				for k := 1; k <= runs; k++ {
					r := p
					r.Truth, r.Run = t, k
					if old, ok := have[key(r)]; ok {
						secs = append(secs, cost(old))
						continue
					}
					if time.Since(start) > budget {
						fmt.Fprintf(os.Stderr, "budget of %v used up before %s truth %d run %d\n", budget, point(r), t, k)
						return nil
					}
					r = runOne(ctx, r, timeout, epsilon)
					r.Date, r.CPU, r.Z3 = time.Now().UTC().Format(time.RFC3339), cpu, z3v
					line, err := json.Marshal(r)
					if err != nil {
						return fmt.Errorf("%s truth %d run %d: recording the run: %w", point(r), t, k, err)
					}
					if _, err := f.Write(append(line, '\n')); err != nil {
						return err
					}
					if err := f.Sync(); err != nil {
						return err
					}
					have[key(r)] = r
					secs = append(secs, cost(r))
					fmt.Fprintf(os.Stderr, "%s truth %d run %d: %s %.2fs (CPU %.2fs), %d extra experiments (largest %d)%s [%v]\n",
						point(r), t, k, r.Status, r.Seconds, r.CPUSeconds, r.Extra, r.Largest, errSuffix(r), time.Since(start).Round(time.Second))
				}
			}
			if med, _, _ := stats(secs); med > limit.Seconds() {
				fmt.Fprintf(os.Stderr, "%s: median above %v, series stops\n", point(p), limit)
				break points
			}
		}
	}
	return nil
}

func errSuffix(r Run) string {
	if r.Error != "" {
		return ": " + r.Error
	}
	return ""
}

// seconds is a run's time, +Inf when it was cut off.
func seconds(r Run) float64 {
	if r.Status == "timeout" {
		return math.Inf(1)
	}
	return r.Seconds
}

// cost is a run's processor time if recorded, else its time; +Inf when it
// was cut off.
func cost(r Run) float64 {
	if r.Status == "timeout" {
		return math.Inf(1)
	}
	if r.CPUSeconds > 0 {
		return r.CPUSeconds
	}
	return r.Seconds
}

// stats returns the median (lower median for an even count), minimum and
// maximum.
func stats(xs []float64) (med, lo, hi float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[(len(s)-1)/2], s[0], s[len(s)-1]
}

func printSummary(runs []Run) {
	type agg struct {
		first             Run
		secs, extra, larg []float64
		share             []float64
		timeouts, wrong   int
		errs              int
		timeout           float64
		status            map[string]int
		notRenaming       int
		ratio             float64
		valid, cpu        []float64
	}
	var order []string
	byPoint := map[string]*agg{}
	for _, r := range runs {
		k := point(r)
		a := byPoint[k]
		if a == nil {
			a = &agg{first: r, status: map[string]int{}}
			byPoint[k] = a
			order = append(order, k)
		}
		a.secs = append(a.secs, seconds(r))
		a.timeout = max(a.timeout, r.Timeout)
		a.status[r.Status]++
		a.valid = append(a.valid, r.ValidationSeconds)
		if r.CPUSeconds > 0 {
			a.cpu = append(a.cpu, r.CPUSeconds)
			if r.Status == "timeout" {
				a.cpu[len(a.cpu)-1] = math.Inf(1)
			}
		}
		switch r.Status {
		case "timeout":
			a.timeouts++
			continue
		case "wrong":
			a.wrong++
		case "ok":
			if !r.Equivalent {
				a.notRenaming++
			}
			a.ratio = max(a.ratio, r.MaxDiffRatio)
		default:
			a.errs++
			continue
		}
		a.extra = append(a.extra, float64(r.Extra))
		a.larg = append(a.larg, float64(r.Largest))
		a.share = append(a.share, r.FindOtherShare)
	}
	slices.SortStableFunc(order, func(x, y string) int {
		a, b := byPoint[x].first, byPoint[y].first
		if c := strings.Compare(a.Encoding, b.Encoding); c != 0 {
			return c
		}
		if a.Levels != b.Levels {
			return a.Levels - b.Levels
		}
		if a.Ports != b.Ports {
			return a.Ports - b.Ports
		}
		if a.Uops != b.Uops {
			return a.Uops - b.Uops
		}
		return a.Multi - b.Multi
	})
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintln(w, "# point | runs | median s | min s | max s | median CPU s (runs) | timeouts | wrong | other outcomes | median extra exps (min–max) | largest exp | findOther share | validation s (max) | ok but not a renaming (largest difference / 2ε|e|)")
	fmtS := func(x, limit float64) string {
		if math.IsInf(x, 1) {
			return fmt.Sprintf("> %.0f", limit)
		}
		return fmt.Sprintf("%.2f", x)
	}
	for _, k := range order {
		a := byPoint[k]
		med, lo, hi := stats(a.secs)
		em, el, eh := stats(a.extra)
		_, _, lh := stats(a.larg)
		sm, _, _ := stats(a.share)
		other := []string{}
		for st, n := range a.status {
			if st != "ok" && st != "timeout" && st != "wrong" {
				other = append(other, fmt.Sprintf("%d %s", n, st))
			}
		}
		slices.Sort(other)
		_, _, vh := stats(a.valid)
		cm, _, _ := stats(a.cpu)
		cpu := "–"
		if len(a.cpu) > 0 {
			cpu = fmt.Sprintf("%s (%d)", fmtS(cm, a.timeout), len(a.cpu))
		}
		fmt.Fprintf(w, "%s | %d | %s | %s | %s | %s | %d | %d | %s | %.0f (%.0f–%.0f) | %.0f | %.3f | %.3f | %d (%.2f)\n",
			k, len(a.secs), fmtS(med, a.timeout), fmtS(lo, a.timeout), fmtS(hi, a.timeout), cpu, a.timeouts, a.wrong, strings.Join(other, ", "), em, el, eh, lh, sm, vh, a.notRenaming, a.ratio)
	}
}

// cpuTime returns the processor time of this process and its waited-for
// children (the z3 sessions), in seconds.
func cpuTime() float64 {
	sum := 0.0
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) == nil {
			sum += float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
		}
	}
	return sum
}

func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	model, family := "", ""
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "model name":
			if model == "" {
				model = strings.TrimSpace(v)
			}
		case "cpu family":
			if family == "" {
				family = strings.TrimSpace(v)
			}
		}
	}
	return fmt.Sprintf("%s (family %s)", model, family)
}

func z3Version() string {
	out, err := exec.Command("z3", "--version").Output()
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(out))
}

// printInstances prints one line per run.
func printInstances(runs []Run) {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintln(w, "\n# point | truth | run | status | s | CPU s | experiments (extra) | iterations | renaming of the truth | largest difference / 2ε|e| on 1,000 random length-5")
	for _, r := range runs {
		fmt.Fprintf(w, "%s | %d | %d | %s | %.1f | %.1f | %d (%d) | %d | %v | %.2f\n",
			point(r), r.Truth, r.Run, r.Status, r.Seconds, r.CPUSeconds, r.Measured, r.Extra, r.Iterations, r.Equivalent, r.MaxDiffRatio)
	}
}
