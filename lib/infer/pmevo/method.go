package pmevo

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/oracle"
)

func init() { infer.Register("pmevo", func() infer.Method { return New() }) }

// Method is PMEvo behind the inference contract of package infer: it
// learns from the problem's Data when given (normally singletons, pairs and
// ratio pairs, e.g. a finished campaign), and otherwise measures PMEvo's
// training design (design.PMEvo) with the problem's oracle. The result's
// Report is the *Result of Infer.
type Method struct {
	// Config holds the hyperparameters; Ports, PortNames,
	// InstructionsPerCycle, Seed and Workers come from the problem and the
	// settings. New starts from DefaultConfig.
	Config Config
	// Paper, when set, starts from PaperConfig instead; the flags given
	// on the command line still override single hyperparameters.
	Paper bool

	flagged []func(*Config) // hyperparameters set by flags
}

// New returns the method with portlab's defaults (DefaultConfig).
func New() *Method { return &Method{Config: DefaultConfig(0)} }

// Name returns "pmevo".
func (*Method) Name() string { return "pmevo" }

// SetFlags defines the hyperparameters as command-line flags.
func (m *Method) SetFlags(fs *flag.FlagSet) {
	d := DefaultConfig(0)
	fs.BoolVar(&m.Paper, "paper", false, "the paper's hyperparameters (population 100,000, no mutation, no polish) instead of portlab's")
	intFlag := func(name, usage string, def int, set func(*Config, int)) {
		fs.Func(name, fmt.Sprintf("%s (default %d)", usage, def), func(s string) error {
			var v int
			if _, err := fmt.Sscan(s, &v); err != nil || v < 0 {
				return fmt.Errorf("want a whole number ≥ 0")
			}
			m.flagged = append(m.flagged, func(c *Config) { set(c, v) })
			return nil
		})
	}
	floatFlag := func(name, usage string, def float64, set func(*Config, float64)) {
		fs.Func(name, fmt.Sprintf("%s (default %v)", usage, def), func(s string) error {
			var v float64
			if _, err := fmt.Sscan(s, &v); err != nil {
				return fmt.Errorf("want a number")
			}
			m.flagged = append(m.flagged, func(c *Config) { set(c, v) })
			return nil
		})
	}
	intFlag("population", "population size", d.Population, func(c *Config, v int) { c.Population = v })
	intFlag("generations", "generation limit", d.Generations, func(c *Config, v int) { c.Generations = v })
	intFlag("stall", "stop after this many generations without progress (0: never)", d.Stall, func(c *Config, v int) { c.Stall = v })
	floatFlag("mutation", "mutation probability per child", d.Mutation, func(c *Config, v float64) { c.Mutation = v })
	floatFlag("volume", "weight of the µop volume in the fitness", d.VolumeFitness, func(c *Config, v float64) { c.VolumeFitness = v })
	intFlag("polish", "sweeps of the extended local search (0: off)", d.Polish, func(c *Config, v int) { c.Polish = v })
	intFlag("deep", "sweeps of the deep local search on the best candidates (0: off)", d.Deep, func(c *Config, v int) { c.Deep = v })
	intFlag("init-uops", "at most this many µops per instruction initially (0: ports)", d.InitialUops, func(c *Config, v int) { c.InitialUops = v })
	fs.Func("time-limit", fmt.Sprintf("the run's time budget: evolution 60 %%, local searches the rest (0: no limit) (default %v)", d.TimeLimit), func(v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return fmt.Errorf("want a duration such as 10m")
		}
		m.flagged = append(m.flagged, func(c *Config) { c.TimeLimit = d })
		return nil
	})
	floatFlag("epsilon", "congruence tolerance (negative: no filtering)", d.Epsilon, func(c *Config, v float64) { c.Epsilon = v })
	floatFlag("quantile", "congruence: quantile of the context differences that must be below epsilon (1: all, PMEvo)", 1, func(c *Config, v float64) { c.CongruenceQuantile = v })
}

// config returns the configuration of a run on p with s.
func (m *Method) config(p *infer.Problem, s *infer.Settings) Config {
	cfg := m.Config
	if m.Paper {
		cfg = PaperConfig(0)
	}
	for _, f := range m.flagged {
		f(&cfg)
	}
	cfg.Ports, cfg.PortNames, cfg.InstructionsPerCycle = p.Ports, p.PortNames, p.InstructionsPerCycle
	cfg.Seed, cfg.Workers = s.Seed, s.Workers
	if cfg.Seed == 0 {
		cfg.Seed = 1
	}
	return cfg
}

// Infer runs PMEvo on p (see Method).
func (m *Method) Infer(ctx context.Context, p *infer.Problem, s *infer.Settings) (*infer.Result, error) {
	if p.Ports == 0 {
		return nil, errors.New("pmevo: the number of ports is required")
	}
	cfg := m.config(p, s)
	start := time.Now()
	train := p.Data
	if train == nil {
		var err error
		var failures int
		train, _, err = design.PMEvo(ctx, p.Oracle, p.Instructions, func(pr oracle.Progress) {
			failures = pr.Failed
			if s.Progress != nil {
				s.Progress(infer.Status{Stage: "measuring", Done: pr.Done, Total: pr.Total, Elapsed: time.Since(start),
					Message: fmt.Sprintf("measuring the training design: %d/%d, %d failed", pr.Done, pr.Total, pr.Failed)})
			}
		})
		if err != nil {
			return nil, fmt.Errorf("pmevo: measuring the training experiments: %w", err)
		}
		if train.Len() == 0 {
			return nil, fmt.Errorf("pmevo: all %d training experiments failed", failures)
		}
	}
	detail := cfg.Progress
	cfg.Progress = func(g Generation) {
		if detail != nil {
			detail(g)
		}
		if s.Progress != nil {
			s.Progress(infer.Status{Stage: "generation", Done: g.Index, Total: cfg.Generations, Elapsed: time.Since(start),
				Message: fmt.Sprintf("generation %d/%d, best error %.2f%%, volume %d, %s", g.Index, cfg.Generations, 100*g.BestError, g.BestVolume, g.Elapsed.Round(time.Second))})
		}
	}
	detailSearch := cfg.SearchProgress
	cfg.SearchProgress = func(stage string, done, total int) {
		if detailSearch != nil {
			detailSearch(stage, done, total)
		}
		if s.Progress != nil {
			s.Progress(infer.Status{Stage: stage, Done: done, Total: total, Elapsed: time.Since(start),
				Message: fmt.Sprintf("%s: %d/%d candidates, %s", stage, done, total, time.Since(start).Round(time.Second))})
		}
	}
	res, err := Infer(ctx, train, cfg)
	if res == nil {
		return nil, err
	}
	return &infer.Result{Mapping: res.Mapping, Report: res}, err
}
