package pmevo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync/atomic"
	"time"

	"github.com/portlab/portlab/lib/portmap"
)

// Config holds the parameters of an inference run. Start from DefaultConfig
// (portlab's settings) or PaperConfig (the paper's) and change fields.
type Config struct {
	// Ports is the number of execution ports |P| to infer a mapping over
	// (PMEvo: 9 for Skylake with the divider as a port, 10 for Zen+, 7 for
	// the Cortex-A72). PortNames optionally names them (default "0", "1", …).
	Ports     int
	PortNames []string
	// Population is the number of individuals N; each generation makes N
	// children by recombination and keeps the best N of the 2N (PMEvo:
	// 100,000).
	Population int `flag:"population" help:"population size" min:"2"`
	// Generations limits the number of generations; the run also stops when
	// the population has converged to a single fitness, or after Stall
	// generations without a new smallest training error (0: no stall test).
	Generations int `flag:"generations" help:"generation limit" min:"0"`
	Stall       int `flag:"stall" help:"stop after this many generations without progress (0: never)" min:"0"`
	// TimeLimit, when positive, bounds the whole run (counted from the
	// start of Infer): the evolution stops after 60 % of it, the local
	// searches of the candidates after 85 %, the deep local search when it
	// is over. A run that stops on it depends on the
	// machine's speed, not only on Seed: Result.Stopped says "time limit".
	TimeLimit time.Duration `flag:"time-limit" help:"the run's time budget: evolution 60 %, local searches the rest (0: no limit)" min:"0s"`
	// Epsilon is the congruence tolerance (PMEvo: 0.05); negative disables
	// congruence filtering.
	Epsilon float64 `flag:"epsilon" help:"congruence tolerance (negative: no filtering)"`
	// InitialUops bounds the number of distinct µops per instruction in the
	// random initial population: 1 to InitialUops (0: 1 to Ports, as in the
	// paper). Real mappings have one to three µops per instruction; fewer
	// initial µops make the first generations cheaper to evaluate.
	InitialUops int `flag:"init-uops" help:"at most this many µops per instruction initially (0: ports)" min:"0"`
	// VolumeFitness is the weight of the normalised µop volume in the
	// scalarised fitness, relative to the normalised training error (PMEvo:
	// 1, equal weights).
	VolumeFitness float64 `flag:"volume" help:"weight of the µop volume in the fitness" min:"0"`
	// CongruenceQuantile relaxes the congruence test for noisy data (see
	// CongruenceQuantile): 0 or 1 is PMEvo's test, 0.8 suits measurements
	// with a few per cent of outliers.
	CongruenceQuantile float64 `flag:"quantile" help:"congruence: quantile of the context differences that must be below epsilon (0 or 1: all, PMEvo)" min:"0" max:"1"`
	// Mutation is the probability that a child gets one random small change
	// (PMEvo: 0, recombination only).
	Mutation float64 `flag:"mutation" help:"mutation probability per child" min:"0" max:"1"`
	// LocalSearch is the number of distinct fittest individuals of the final
	// population given PMEvo's local search (0: all, as in the paper).
	LocalSearch int
	// Polish is the number of sweeps of portlab's extended local search
	// (moves of µops between port sets as well as count changes) applied
	// after PMEvo's; 0 disables it (the paper's algorithm).
	Polish int `flag:"polish" help:"sweeps of the extended local search (0: off)" min:"0"`
	// Deep is the number of sweeps of portlab's deep local search on the
	// best candidate after the others: the extended moves plus replacing an
	// instruction's µops by any single µop or any two µops in use (0: off).
	Deep int `flag:"deep" help:"sweeps of the deep local search on the best candidates (0: off)" min:"0"`
	// VolumeWeight is the training error (a fraction) that one unit of µop
	// volume is worth during the local searches. 0 takes the trade-off of the
	// final population's scalarised fitness, as the paper does.
	VolumeWeight float64
	// InstructionsPerCycle, when positive, caps predicted throughput at
	// |e| / InstructionsPerCycle (thesis §5.1.3's R_max variant).
	InstructionsPerCycle float64
	// Seed makes a run repeatable; Workers is the number of goroutines
	// evaluating fitness (0: GOMAXPROCS). Results do not depend on Workers.
	Seed    uint64
	Workers int
	// Progress, when set, is called after every generation;
	// SearchProgress after each candidate of a local search ("local
	// search", "deep local search") with the candidates done and their
	// number.
	Progress       func(Generation)
	SearchProgress func(stage string, done, total int)
}

// PaperConfig returns the hyperparameters of the PMEvo paper (§5.2.2):
// population 100,000, recombination only, ε = 0.05, PMEvo's local search
// on the whole final population. Expect hours on a small machine.
func PaperConfig(ports int) Config {
	return Config{Ports: ports, Population: 100000, Generations: 1000, Stall: 50, Epsilon: 0.05, VolumeFitness: 1, Seed: 1}
}

// DefaultConfig returns portlab's settings: a population of 4,000 started
// with one to three µops per instruction, occasional mutation, a lighter
// weight (0.2) on the volume objective, PMEvo's local search on the 20
// fittest distinct candidates followed by the extended local search, and the
// deep local search on the best four. On the 310-form Skylake data set this
// takes about a minute on two cores; on larger or noisier problems the run
// stops after ten minutes (TimeLimit: six of evolution, the rest for the
// local searches). On 120 forms measured on a Zen 3 host (115 congruence
// classes, 10,957 experiments) the deep local search alone had run 13
// minutes when it was interrupted.
func DefaultConfig(ports int) Config {
	return Config{
		Ports: ports, Population: 4000, Generations: 300, Stall: 40, TimeLimit: 10 * time.Minute,
		Epsilon: 0.05, InitialUops: 3, VolumeFitness: 0.2, Mutation: 0.2, LocalSearch: 20, Polish: 50, Deep: 20,
		VolumeWeight: 1e-5, Seed: 1,
	}
}

// evolutionLimit is the share of TimeLimit the evolution may take.
func (cfg *Config) evolutionLimit() time.Duration { return cfg.TimeLimit * 6 / 10 }

// localContext returns the context of the local searches that follow the
// evolution: they end at 85 % of TimeLimit (the deep local search gets
// the rest) or when ctx is cancelled. An interrupted evolution still gets
// a local search of at most interruptGrace, so that an interrupt returns
// a mapping no single count change improves, within seconds.
func (cfg *Config) localContext(ctx context.Context, start time.Time) (context.Context, context.CancelFunc) {
	if ctx.Err() != nil {
		return context.WithTimeout(context.WithoutCancel(ctx), interruptGrace)
	}
	if cfg.TimeLimit > 0 {
		return context.WithDeadline(ctx, start.Add(cfg.TimeLimit*85/100))
	}
	return context.WithCancel(ctx)
}

// interruptGrace bounds the local search after an interrupt.
const interruptGrace = 5 * time.Second

func (cfg *Config) check() error {
	switch {
	case cfg.Ports < 1 || cfg.Ports > portmap.MaxPorts:
		return fmt.Errorf("pmevo: Ports = %d, want 1 to %d", cfg.Ports, portmap.MaxPorts)
	case cfg.PortNames != nil && len(cfg.PortNames) != cfg.Ports:
		return fmt.Errorf("pmevo: %d PortNames for %d ports", len(cfg.PortNames), cfg.Ports)
	case cfg.Population < 2:
		return fmt.Errorf("pmevo: Population = %d, want at least 2", cfg.Population)
	case cfg.Generations < 0:
		return fmt.Errorf("pmevo: Generations = %d, want ≥ 0", cfg.Generations)
	case cfg.Mutation < 0 || cfg.Mutation > 1:
		return fmt.Errorf("pmevo: Mutation = %v, want a probability", cfg.Mutation)
	case cfg.InitialUops < 0:
		return fmt.Errorf("pmevo: InitialUops = %d, want ≥ 0", cfg.InitialUops)
	case cfg.VolumeFitness < 0:
		return fmt.Errorf("pmevo: VolumeFitness = %v, want ≥ 0", cfg.VolumeFitness)
	case cfg.VolumeWeight < 0:
		return fmt.Errorf("pmevo: VolumeWeight = %v, want ≥ 0", cfg.VolumeWeight)
	}
	return nil
}

// deepCandidates is the number of best candidates the deep local search
// improves.
const deepCandidates = 4

// Result is an inferred mapping with how it came about.
type Result struct {
	// Mapping maps every instruction of the training set; members of a
	// congruence class share their representative's µops.
	Mapping *portmap.Mapping
	Classes []Class
	History []Generation
	Report  Report
}

// Report summarises an inference run.
type Report struct {
	Instructions    int // instructions in the training set
	Representatives int // congruence classes
	Experiments     int // training experiments among representatives
	Generations     int
	// Stopped is "converged", "stalled", "generation limit", "time limit"
	// or "interrupted"; infer.Result.Status says the same in the terms
	// every method shares.
	Stopped string
	// TrainingMAPE is the mean absolute percentage error of the mapping on
	// all training experiments (in %, all instructions, not just
	// representatives); EvolvedMAPE is the best individual's before the local
	// searches, on the representatives' experiments.
	TrainingMAPE, EvolvedMAPE float64
	Volume                    int // Σ n·|u| over the representatives
	DistinctUops              int // different µop port sets in the mapping
	Elapsed                   time.Duration
	Seed                      uint64
	Population                int
}

// Infer runs PMEvo (Ritter & Hack, PLDI 2020, §4; thesis Ch. 5) on measured experiments,
// normally singletons, pairs and ratio pairs (see Experiments): congruence
// filtering, the evolutionary algorithm on the representatives, the local
// search, and expansion of the result to every instruction. When ctx is
// cancelled during evolution it goes on with the population reached so far
// and returns the result together with ctx's error.
func Infer(ctx context.Context, s *portmap.ExperimentSet, cfg Config) (*Result, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if s == nil || len(s.Measurements) == 0 {
		return nil, errors.New("pmevo: no training experiments")
	}
	start := time.Now()
	q := cfg.CongruenceQuantile
	if q == 0 {
		q = 1
	}
	classes, err := CongruenceQuantile(s, cfg.Epsilon, q)
	if err != nil {
		return nil, err
	}
	reps := make([]string, len(classes))
	for k, c := range classes {
		reps[k] = c.Representative
	}
	p, err := newProblem(s, reps, cfg.Ports, cfg.InstructionsPerCycle)
	if err != nil {
		return nil, err
	}
	pop, history, stopped := p.evolve(ctx, &cfg, start)
	evolved := pop[0].err

	// Local search on the distinct fittest individuals, with the objective
	// frozen (thesis §5.1.3; see VolumeWeight).
	w := cfg.VolumeWeight
	if w == 0 {
		w = volumeWeight(pop, cfg.VolumeFitness)
	}
	var cands []genome
	seen := map[string]bool{}
	for _, in := range pop {
		if k := in.g.key(); !seen[k] {
			seen[k] = true
			cands = append(cands, in.g)
			if cfg.LocalSearch > 0 && len(cands) == cfg.LocalSearch {
				break
			}
		}
	}
	improved := make([]*searcher, len(cands))
	lctx, lcancel := cfg.localContext(ctx, start)
	defer lcancel()
	var searched atomic.Int64
	parallel(cfg.workers(), len(cands), func(k int) {
		sr := p.newSearcher(cands[k], w)
		sr.paperLocalSearch(lctx)
		if cfg.Polish > 0 {
			sr.polish(lctx, cfg.Polish)
		}
		improved[k] = sr
		if cfg.SearchProgress != nil {
			cfg.SearchProgress("local search", int(searched.Add(1)), len(cands))
		}
	})
	if lctx.Err() != nil && ctx.Err() == nil {
		stopped += "; local searches cut at the time limit"
	}
	// The deep local search on the best few (a stable sort keeps the
	// population's order among equals).
	sort.SliceStable(improved, func(a, b int) bool { return improved[a].score() < improved[b].score()-tol })
	if cfg.Deep > 0 && ctx.Err() == nil {
		dctx := ctx
		if cfg.TimeLimit > 0 {
			var cancel context.CancelFunc
			dctx, cancel = context.WithDeadline(ctx, start.Add(cfg.TimeLimit))
			defer cancel()
		}
		deep := improved[:min(len(improved), deepCandidates)]
		var polished atomic.Int64
		parallel(cfg.workers(), len(deep), func(k int) {
			deep[k].deepPolish(dctx, cfg.Deep, 1)
			if cfg.SearchProgress != nil {
				cfg.SearchProgress("deep local search", int(polished.Add(1)), len(deep))
			}
		})
		if dctx.Err() != nil && ctx.Err() == nil {
			stopped += "; deep local search cut at the time limit"
		}
	}
	best := improved[0]
	for _, sr := range improved[1:] {
		if sr.score() < best.score()-tol {
			best = sr
		}
	}
	ports := cfg.PortNames
	if ports == nil {
		for k := 0; k < cfg.Ports; k++ {
			ports = append(ports, fmt.Sprint(k))
		}
	}
	m, err := p.mapping(best.g, classes, ports, "pmevo")
	if err != nil {
		return nil, err
	}
	res := &Result{Mapping: m, Classes: classes, History: history}
	res.Report = Report{
		Instructions: len(usedInstructions(s)), Representatives: len(reps),
		Experiments: len(p.meas), Generations: len(history), Stopped: stopped,
		EvolvedMAPE: 100 * evolved, Volume: best.vol, DistinctUops: m.DistinctUops(),
		Seed: cfg.Seed, Population: cfg.Population,
	}
	res.Report.TrainingMAPE, err = trainingMAPE(m, s, cfg.InstructionsPerCycle)
	if err != nil {
		return nil, err
	}
	res.Report.Elapsed = time.Since(start)
	return res, ctx.Err()
}

// MarshalJSON returns the report, the congruence classes and the history
// of the run (the mapping is saved in its own formats; see
// infer.Result.WriteFiles).
func (r *Result) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Report  Report
		Classes []Class
		History []Generation
	}{r.Report, r.Classes, r.History})
}
