package pmevo

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Generation reports the state of the population after one generation of
// the evolutionary algorithm.
type Generation struct {
	Index int
	// BestError and BestVolume are the training error D_avg (mean relative
	// error, a fraction) and µop volume of the fittest individual under the
	// generation's scalarised fitness.
	BestError  float64
	BestVolume int
	// MinError and MedianError are the smallest and the median D_avg in the
	// population.
	MinError, MedianError float64
	// Distinct counts the different candidates in the population.
	Distinct int
	Elapsed  time.Duration
}

// individual is a candidate mapping with its objectives.
type individual struct {
	g   genome
	err float64 // D_avg
	vol int     // V
	fit float64 // scalarised fitness of the current generation
}

// evolve runs Algorithm 5.1 up to, but not including, the local search and
// returns the final population sorted by fitness, the history and why it
// stopped.
func (p *problem) evolve(ctx context.Context, cfg *Config, start time.Time) ([]individual, []Generation, string) {
	// The evolution's share of the time limit bounds every evaluation,
	// not only the start of a generation: on a large training set one
	// generation (or the first population) takes longer than the whole
	// budget.
	ectx := ctx
	if cfg.TimeLimit > 0 {
		var cancel context.CancelFunc
		ectx, cancel = context.WithDeadline(ctx, start.Add(cfg.evolutionLimit()))
		defer cancel()
	}
	why := func() string {
		if ctx.Err() != nil {
			return "interrupted"
		}
		return "time limit"
	}
	n := cfg.Population
	pop := make([]individual, n)
	evaluated := make([]bool, n)
	// The first individual is always made: a result needs one.
	parallelUntil(ectx, 1, cfg.workers(), n, func(k int) {
		r := rand.New(rand.NewPCG(cfg.Seed, uint64(k)))
		g := p.randomGenome(r, cfg.InitialUops)
		pop[k] = individual{g: g, err: p.errorOf(g), vol: volume(g)}
		evaluated[k] = true
	})
	if ectx.Err() != nil {
		// Stopped while making the first population: go on with the
		// individuals made so far.
		kept := pop[:0]
		for k := range pop {
			if evaluated[k] {
				kept = append(kept, pop[k])
			}
		}
		pop = kept
	}
	scalarise(pop, cfg.VolumeFitness)
	sortByFitness(pop)
	var history []Generation
	bestEver, stall := math.Inf(1), 0
	stopped := "generation limit"
	for gen := 1; gen <= cfg.Generations; gen++ {
		if ectx.Err() != nil {
			stopped = why()
			break
		}
		children := make([]individual, n+n%2)
		parallelUntil(ectx, 0, cfg.workers(), len(children)/2, func(k int) {
			r := rand.New(rand.NewPCG(cfg.Seed, uint64(gen)<<32|uint64(k)))
			a, b := pop[r.IntN(n)].g, pop[r.IntN(n)].g
			c1, c2 := recombine(r, a, b)
			for _, c := range []genome{c1, c2} {
				if cfg.Mutation > 0 && r.Float64() < cfg.Mutation {
					p.mutate(r, c)
				}
			}
			children[2*k] = individual{g: c1, err: p.errorOf(c1), vol: volume(c1)}
			children[2*k+1] = individual{g: c2, err: p.errorOf(c2), vol: volume(c2)}
		})
		if ectx.Err() != nil {
			// A generation cut short is dropped.
			stopped = why()
			break
		}
		all := append(pop, children...)
		scalarise(all, cfg.VolumeFitness)
		sortByFitness(all)
		pop = slices.Clone(all[:n])
		st := stats(pop, gen, time.Since(start))
		history = append(history, st)
		if cfg.Progress != nil {
			cfg.Progress(st)
		}
		if st.MinError < bestEver*(1-1e-9) {
			bestEver, stall = st.MinError, 0
		} else {
			stall++
		}
		if converged(pop) {
			stopped = "converged"
			break
		}
		if cfg.Stall > 0 && stall >= cfg.Stall {
			stopped = "stalled"
			break
		}
		if cfg.TimeLimit > 0 && time.Since(start) >= cfg.evolutionLimit() {
			stopped = "time limit"
			break
		}
	}
	return pop, history, stopped
}

// scalarise sets the fitness F = Λ1(D_avg) + wv·Λ2(V) of every individual,
// where the affine maps Λ send the population's minimum and maximum of each
// objective to 0 and 1000 (an objective that is constant contributes 0).
func scalarise(pop []individual, wv float64) {
	lo, hi, vlo, vhi := ranges(pop)
	for k := range pop {
		f := 0.0
		if hi > lo {
			f += 1000 * (pop[k].err - lo) / (hi - lo)
		}
		if vhi > vlo {
			f += wv * 1000 * float64(pop[k].vol-vlo) / float64(vhi-vlo)
		}
		pop[k].fit = f
	}
}

// ranges returns the smallest and largest error and volume in pop.
func ranges(pop []individual) (lo, hi float64, vlo, vhi int) {
	lo, hi = pop[0].err, pop[0].err
	vlo, vhi = pop[0].vol, pop[0].vol
	for _, in := range pop {
		lo, hi = min(lo, in.err), max(hi, in.err)
		vlo, vhi = min(vlo, in.vol), max(vhi, in.vol)
	}
	return lo, hi, vlo, vhi
}

// sortByFitness orders by fitness, then error, then volume; the sort is
// stable so that equal individuals keep their order (determinism).
func sortByFitness(pop []individual) {
	sort.SliceStable(pop, func(a, b int) bool {
		x, y := &pop[a], &pop[b]
		if x.fit != y.fit {
			return x.fit < y.fit
		}
		if x.err != y.err {
			return x.err < y.err
		}
		return x.vol < y.vol
	})
}

// volumeWeight is the trade-off of the scalarised fitness of pop, expressed
// as the error worth one unit of volume: F ∝ D/ΔD + wv·V/ΔV ∝ D + V·wv·ΔD/ΔV.
func volumeWeight(pop []individual, wv float64) float64 {
	lo, hi, vlo, vhi := ranges(pop)
	if hi == lo || vhi == vlo {
		return 0
	}
	return wv * (hi - lo) / float64(vhi-vlo)
}

func converged(pop []individual) bool {
	for _, in := range pop[1:] {
		if in.err != pop[0].err || in.vol != pop[0].vol {
			return false
		}
	}
	return true
}

func stats(pop []individual, gen int, elapsed time.Duration) Generation {
	errs := make([]float64, len(pop))
	seen := map[string]bool{}
	for k, in := range pop {
		errs[k] = in.err
		if len(seen) < 10000 {
			seen[in.g.key()] = true
		}
	}
	slices.Sort(errs)
	return Generation{
		Index: gen, BestError: pop[0].err, BestVolume: pop[0].vol,
		MinError: errs[0], MedianError: errs[len(errs)/2],
		Distinct: len(seen), Elapsed: elapsed,
	}
}

// parallel calls f(0), …, f(n−1) on workers goroutines. Each call must
// write only its own results, so the outcome does not depend on workers.
func parallel(workers, n int, f func(int)) {
	parallelUntil(context.Background(), n, workers, n, f)
}

// parallelUntil is parallel that hands out no index beyond the first
// once ctx is done: f runs for indices 0 to first−1, and for the others
// until ctx is done.
func parallelUntil(ctx context.Context, first, workers, n int, f func(int)) {
	done := ctx.Done()
	stop := func(k int) bool {
		if k < first {
			return false
		}
		select {
		case <-done:
			return true
		default:
			return false
		}
	}
	if workers <= 1 || n <= 1 {
		for k := 0; k < n && !stop(k); k++ {
			f(k)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < min(workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1) - 1)
				if k >= n || stop(k) {
					return
				}
				f(k)
			}
		}()
	}
	wg.Wait()
}

func (cfg *Config) workers() int {
	if cfg.Workers > 0 {
		return cfg.Workers
	}
	return runtime.GOMAXPROCS(0)
}
