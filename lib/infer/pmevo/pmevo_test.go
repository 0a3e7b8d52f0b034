package pmevo

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// toyTruth is a small three-level ground truth with two pairs of congruent
// instructions (add/sub, load/load2).
func toyTruth(t testing.TB) *portmap.Mapping {
	t.Helper()
	m := portmap.MustMapping("toy", "0", "1", "2", "3", "4")
	for _, iu := range [][2]string{
		{"add", "1*p0123"},
		{"sub", "1*p0123"},
		{"mul", "1*p1"},
		{"shuf", "1*p3"},
		{"fma", "1*p01"},
		{"load", "1*p4"},
		{"load2", "1*p4"},
		{"ldadd", "1*p4+1*p0123"},
		{"div", "1*p0+3*p2"},
		{"blend", "2*p01+1*p3"},
	} {
		m.MustSetUsage(iu[0], iu[1])
	}
	return m
}

func training(t testing.TB, m *portmap.Mapping, noise float64) *portmap.ExperimentSet {
	t.Helper()
	s, failures, err := design.PMEvo(context.Background(), oracle.Simulate(m, noise, 3), m.Instructions(), nil)
	if err != nil || len(failures) > 0 {
		t.Fatal(err, failures)
	}
	return s
}

func TestCongruence(t *testing.T) {
	m := toyTruth(t)
	s := training(t, m, 0)
	classes, err := Congruence(s, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, c := range classes {
		got[c.Representative] = c.Members
	}
	if len(classes) != 8 || !reflect.DeepEqual(got["add"], []string{"add", "sub"}) || !reflect.DeepEqual(got["load"], []string{"load", "load2"}) {
		t.Fatalf("classes %v", classes)
	}
	// ε < 0: no filtering.
	classes, _ = Congruence(s, -1)
	if len(classes) != m.Len() {
		t.Fatalf("eps<0: %d classes, want %d", len(classes), m.Len())
	}
	// Non-transitivity: a ≈ b and b ≈ c but not a ≈ c; the greedy rule in
	// instruction order puts b with a and c alone.
	set := &portmap.ExperimentSet{}
	for in, c := range map[string]float64{"a": 1.00, "b": 1.04, "c": 1.08} {
		set.Measurements = append(set.Measurements, portmap.Measurement{Experiment: portmap.NewExperiment(in), Cycles: c})
	}
	arch, _ := portmap.NewArchitecture("x", []string{"p"}, []string{"a", "b", "c"})
	set.Arch = arch
	classes, _ = Congruence(set, 0.05)
	if len(classes) != 2 || !reflect.DeepEqual(classes[0].Members, []string{"a", "b"}) || classes[1].Representative != "c" {
		t.Fatalf("non-transitive grouping: %v", classes)
	}
	// The quantile test tolerates one bad context out of five.
	noisy := training(t, m, 0)
	for k, ms := range noisy.Measurements {
		if ms.Experiment.Count("sub") == 1 && ms.Experiment.Count("mul") == 1 && ms.Experiment.Len() == 2 {
			noisy.Measurements[k].Cycles *= 1.3
		}
	}
	strict, _ := Congruence(noisy, 0.05)
	tolerant, err := CongruenceQuantile(noisy, 0.05, 0.8)
	together := func(cs []Class) bool {
		for _, c := range cs {
			if slices.Contains(c.Members, "add") {
				return slices.Contains(c.Members, "sub")
			}
		}
		return false
	}
	if err != nil || len(strict) != 9 || together(strict) || !together(tolerant) {
		t.Errorf("one outlier: strict %v, with q = 0.8 %v (%v)", strict, tolerant, err)
	}
	if _, err := CongruenceQuantile(noisy, 0.05, 0); err == nil {
		t.Error("quantile 0 accepted")
	}
	// The same outlier, known to be uncertain by 25 % (its passes
	// disagreed), is no evidence against congruence; known to be exact
	// to 1 %, it is.
	for _, spread := range []float64{0.25, 0.01} {
		for k, ms := range noisy.Measurements {
			if ms.Experiment.Count("sub") == 1 && ms.Experiment.Count("mul") == 1 && ms.Experiment.Len() == 2 {
				noisy.Measurements[k].Spread = spread
			}
		}
		cs, _ := Congruence(noisy, 0.05)
		if together(cs) != (spread == 0.25) {
			t.Errorf("one outlier with spread %v: %v", spread, cs)
		}
	}
	// A missing singleton is named.
	set.Measurements = append(set.Measurements, portmap.Measurement{Experiment: portmap.NewExperiment("a", "d"), Cycles: 1})
	if _, err := Congruence(set, 0.05); err == nil || !strings.Contains(err.Error(), "{d ↦ 1}") {
		t.Fatalf("missing singleton: %v", err)
	}
}

// heldOut returns the MAPE of m against truth on random experiments.
func heldOut(t testing.TB, truth, m *portmap.Mapping, length, n int) float64 {
	t.Helper()
	exps := design.Random(truth.Instructions(), length, n, 11)
	want, err := throughput.Predict(context.Background(), truth, exps)
	if err != nil {
		t.Fatal(err)
	}
	got, err := throughput.Predict(context.Background(), m, exps)
	if err != nil {
		t.Fatal(err)
	}
	mape, err := metrics.MAPE(want, got)
	if err != nil {
		t.Fatal(err)
	}
	return mape
}

func smallConfig() Config {
	cfg := DefaultConfig(5)
	cfg.Population, cfg.Generations, cfg.Stall = 300, 80, 15
	return cfg
}

func TestRecoversToyMapping(t *testing.T) {
	truth := toyTruth(t)
	cfg := smallConfig()
	var gens []Generation
	cfg.Progress = func(g Generation) { gens = append(gens, g) }
	res, err := Infer(context.Background(), training(t, truth, 0), cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := res.Report
	if r.Representatives != 8 || r.Instructions != 10 || len(gens) != r.Generations || len(res.History) != r.Generations {
		t.Fatalf("report %+v, %d progress calls", r, len(gens))
	}
	if r.TrainingMAPE > 0.5 {
		t.Errorf("training MAPE %.3f%%, want ≤ 0.5%%", r.TrainingMAPE)
	}
	e := heldOut(t, truth, res.Mapping, 5, 1000)
	t.Logf("%d generations (%s), training MAPE %.3f%% (evolved %.2f%%), held-out %.3f%%, volume %d", r.Generations, r.Stopped, r.TrainingMAPE, r.EvolvedMAPE, e, r.Volume)
	if e > 2 {
		t.Errorf("held-out length-5 MAPE %.3f%%, want ≤ 2%%\n%v", e, res.Mapping)
	}
	// Congruent instructions share their representative's µops.
	if res.Mapping.Usage("add") != res.Mapping.Usage("sub") {
		t.Errorf("add %q, sub %q", res.Mapping.Usage("add"), res.Mapping.Usage("sub"))
	}
	if r.TrainingMAPE/100 >= gens[0].MinError {
		t.Errorf("no progress: first generation's best error %v, result %v", gens[0].MinError, r.TrainingMAPE/100)
	}
}

func TestDeterministicWhateverWorkers(t *testing.T) {
	truth := toyTruth(t)
	s := training(t, truth, 0.02)
	run := func(workers int) *Result {
		cfg := smallConfig()
		cfg.Generations, cfg.Workers, cfg.Seed = 20, workers, 42
		res, err := Infer(context.Background(), s, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(1), run(4)
	if a.Mapping.String() != b.Mapping.String() {
		t.Fatalf("1 worker:\n%v\n4 workers:\n%v", a.Mapping, b.Mapping)
	}
	for k := range a.History {
		x, y := a.History[k], b.History[k]
		x.Elapsed, y.Elapsed = 0, 0
		if x != y {
			t.Fatalf("generation %d: %+v vs %+v", k, x, y)
		}
	}
	cfg := smallConfig()
	cfg.Generations, cfg.Seed = 20, 43
	c, _ := Infer(context.Background(), s, cfg)
	if reflect.DeepEqual(c.History[len(c.History)-1].MinError, a.History[len(a.History)-1].MinError) && c.Mapping.String() == a.Mapping.String() {
		t.Errorf("seeds 42 and 43 gave the same run")
	}
}

func TestInterrupt(t *testing.T) {
	truth := toyTruth(t)
	s := training(t, truth, 0)
	ctx, cancel := context.WithCancel(context.Background())
	cfg := smallConfig()
	cfg.Generations, cfg.Stall = 100000, 0
	cfg.Progress = func(g Generation) {
		if g.Index == 3 {
			cancel()
		}
	}
	start := time.Now()
	res, err := Infer(ctx, s, cfg)
	if !errors.Is(err, context.Canceled) || res == nil {
		t.Fatalf("err %v, result %v", err, res)
	}
	if res.Report.Stopped != "interrupted" || res.Report.Generations != 3 {
		t.Errorf("report %+v", res.Report)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("interrupt took %v", d)
	}
	if res.Mapping.Len() != truth.Len() {
		t.Errorf("partial result maps %d instructions, want %d", res.Mapping.Len(), truth.Len())
	}
}

// TestLocalSearchNeverWorsens checks both local searches on random
// candidates: the score never increases and the incremental bookkeeping
// matches a full re-evaluation.
func TestLocalSearchNeverWorsens(t *testing.T) {
	truth := toyTruth(t)
	classes, _ := Congruence(training(t, truth, 0), -1)
	reps := make([]string, len(classes))
	for k, c := range classes {
		reps[k] = c.Representative
	}
	p, err := newProblem(training(t, truth, 0.03), reps, 5, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	for c := 0; c < 20; c++ {
		g := p.randomGenome(r, 0)
		s := p.newSearcher(g, 1e-4)
		before := s.score()
		s.paperLocalSearch(context.Background())
		mid := s.score()
		s.polish(context.Background(), 5)
		after := s.score()
		s.deepPolish(context.Background(), 2, 1+c%3)
		deep := s.score()
		if mid > before+tol || after > mid+tol || deep > after+tol {
			t.Fatalf("case %d: score %v → %v → %v → %v", c, before, mid, after, deep)
		}
		after = deep
		full := p.errorOf(s.g) + 1e-4*float64(volume(s.g))
		if d := full - after; d > 1e-9 || d < -1e-9 {
			t.Fatalf("case %d: incremental score %v, full %v", c, after, full)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	s := training(t, toyTruth(t), 0)
	for _, tc := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Ports = 0 }, "Ports = 0"},
		{func(c *Config) { c.Population = 1 }, "Population = 1"},
		{func(c *Config) { c.Mutation = 2 }, "Mutation = 2"},
		{func(c *Config) { c.PortNames = []string{"a"} }, "1 PortNames for 5 ports"},
	} {
		cfg := smallConfig()
		tc.edit(&cfg)
		if _, err := Infer(context.Background(), s, cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("want error with %q, got %v", tc.want, err)
		}
	}
	bad := &portmap.ExperimentSet{Measurements: []portmap.Measurement{{Experiment: portmap.NewExperiment("a"), Cycles: -1}}}
	if _, err := Infer(context.Background(), bad, smallConfig()); err == nil || !strings.Contains(err.Error(), "-1") {
		t.Errorf("negative cycles: %v", err)
	}
}

// TestTimeLimit: a run with a time budget stops evolving after 60 % of it,
// says so, and still returns a searched mapping without an error.
func TestTimeLimit(t *testing.T) {
	truth := toyTruth(t)
	s := training(t, truth, 0)
	cfg := smallConfig()
	cfg.Generations, cfg.Stall = 100000, 0
	cfg.TimeLimit = 20 * time.Millisecond // less than the toy takes to converge
	var last Generation
	cfg.Progress = func(g Generation) { last = g }
	res, err := Infer(context.Background(), s, cfg)
	if err != nil || res == nil {
		t.Fatalf("%v, %v", res, err)
	}
	if !strings.HasPrefix(res.Report.Stopped, "time limit") || res.Report.Generations >= 100000 || res.Report.Elapsed < cfg.evolutionLimit() {
		t.Errorf("stopped %q after %d generations, the last at %v", res.Report.Stopped, res.Report.Generations, last.Elapsed)
	}
	if res.Mapping == nil || res.Report.TrainingMAPE > 50 {
		t.Errorf("mapping %v, training MAPE %v", res.Mapping, res.Report.TrainingMAPE)
	}
}

// TestTimeLimitCutsLocalSearches: when the evolution has used up the whole
// budget, the local searches stop at once (they ran unbounded and put a
// ten-minute run at twelve), say so, and the evolution's best is returned.
func TestTimeLimitCutsLocalSearches(t *testing.T) {
	truth := toyTruth(t)
	s := training(t, truth, 0)
	cfg := smallConfig()
	cfg.Generations, cfg.Stall = 100000, 0
	cfg.TimeLimit = 50 * time.Millisecond
	cfg.Progress = func(g Generation) {
		if g.Index == 1 {
			time.Sleep(cfg.TimeLimit) // the evolution overruns the whole budget
		}
	}
	var stages []string
	cfg.SearchProgress = func(stage string, done, total int) {
		if done < 1 || done > total {
			t.Errorf("%s: %d of %d", stage, done, total)
		}
		stages = append(stages, stage)
	}
	res, err := Infer(context.Background(), s, cfg)
	if err != nil || res == nil {
		t.Fatalf("%v, %v", res, err)
	}
	if !strings.Contains(res.Report.Stopped, "local searches cut at the time limit") || !strings.Contains(res.Report.Stopped, "deep local search cut") {
		t.Errorf("stopped %q", res.Report.Stopped)
	}
	if res.Mapping == nil || res.Mapping.Len() != truth.Len() {
		t.Errorf("mapping %v", res.Mapping)
	}
	if !slices.Contains(stages, "local search") {
		t.Errorf("no local search progress: %v", stages)
	}
}

// TestTimeLimitBoundsTheFirstPopulation: the time budget also stops the
// making of the first population, not only the evolution between
// generations (a population of 2^18 individuals takes seconds to
// evaluate, far beyond the budget): the run goes on with the individuals
// made so far, runs no generation and ends within the budget and a
// grace, with a mapping.
func TestTimeLimitBoundsTheFirstPopulation(t *testing.T) {
	truth := toyTruth(t)
	s := training(t, truth, 0)
	cfg := smallConfig()
	cfg.Population, cfg.Workers = 1<<18, 1
	cfg.TimeLimit = 200 * time.Millisecond
	res, err := Infer(context.Background(), s, cfg)
	if err != nil || res == nil {
		t.Fatalf("%v, %v", res, err)
	}
	if res.Report.Generations != 0 || !strings.HasPrefix(res.Report.Stopped, "time limit") {
		t.Errorf("stopped %q after %d generations, want the time limit before the first", res.Report.Stopped, res.Report.Generations)
	}
	if grace := 2 * time.Second; res.Report.Elapsed > cfg.TimeLimit+grace {
		t.Errorf("ran %v with a budget of %v", res.Report.Elapsed, cfg.TimeLimit)
	}
	if res.Mapping == nil || res.Mapping.Len() != truth.Len() {
		t.Errorf("mapping %v", res.Mapping)
	}
}

// TestInterruptStopsAGeneration: a context cancelled while a generation
// is evaluated stops it there (the generation is dropped), not after it.
func TestInterruptStopsAGeneration(t *testing.T) {
	truth := toyTruth(t)
	s := training(t, truth, 0)
	cfg := smallConfig()
	cfg.Population, cfg.Workers, cfg.Generations, cfg.Stall = 1<<13, 1, 1000, 0
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var cancelled time.Time
	cfg.Progress = func(g Generation) {
		if g.Index == 1 {
			// The next generation starts now; cancel while it is under way.
			go func() {
				time.Sleep(20 * time.Millisecond)
				cancelled = time.Now()
				cancel()
			}()
		}
	}
	res, err := Infer(ctx, s, cfg)
	if !errors.Is(err, context.Canceled) || res == nil {
		t.Fatalf("err %v, result %v", err, res)
	}
	if res.Report.Stopped != "interrupted" || res.Report.Generations != 1 {
		t.Errorf("report %+v, want interrupted after one generation", res.Report)
	}
	if d := time.Since(cancelled); d > interruptGrace+2*time.Second {
		t.Errorf("the run ended %v after the interrupt", d)
	}
}

// TestStoppedStatus: a run whose local searches the time limit cut is
// stopped by the time limit, whatever stopped its evolution.
func TestStoppedStatus(t *testing.T) {
	for stopped, want := range map[string]infer.Status{
		"converged":        infer.Converged,
		"stalled":          infer.Converged,
		"generation limit": infer.IterationLimit,
		"time limit":       infer.TimeLimit,
		"time limit; local searches cut at the time limit; deep local search cut at the time limit": infer.TimeLimit,
		"stalled; deep local search cut at the time limit":                                          infer.TimeLimit,
		"generation limit; local searches cut at the time limit":                                    infer.TimeLimit,
		"interrupted": infer.NotTerminated,
	} {
		if got := stoppedStatus(stopped); got != want {
			t.Errorf("%q: %v, want %v", stopped, got, want)
		}
	}
}
