package cegis

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/portlab/portlab/lib/infer"
)

func init() { infer.Register("cegis", func() infer.Method { return New() }) }

// Method is counter-example-guided inference behind the inference contract
// of package infer: it asks the problem's oracle for every experiment it
// needs (a replay of stored data answers only the experiments it holds).
// The problem's instructions, ports and front-end bound and the settings'
// seed override Config's. The result's Report is the *Result of Infer.
type Method struct {
	Config Config
	// Thesis, when set, starts from ThesisConfig instead of DefaultConfig;
	// the flags given on the command line still override single settings.
	Thesis bool

	flagged []func(*Config)
	uops    string
}

// New returns the method with DefaultConfig.
func New() *Method { return &Method{Config: DefaultConfig()} }

// Name returns "cegis".
func (*Method) Name() string { return "cegis" }

// SetFlags defines the settings as command-line flags.
func (m *Method) SetFlags(fs *flag.FlagSet) {
	fs.BoolVar(&m.Thesis, "thesis", false, "the thesis's settings: LP-optimality encoding (Def. 4.5), integer unbounded check, no symmetry breaking, no simulation")
	set := func(name, usage string, f func(*Config, string) error) {
		fs.Func(name, usage, func(s string) error {
			var c Config
			if err := f(&c, s); err != nil { // check now, apply later
				return err
			}
			m.flagged = append(m.flagged, func(cfg *Config) { f(cfg, s) })
			return nil
		})
	}
	boolFlag := func(name, usage string, f func(*Config, bool)) {
		fs.BoolFunc(name, usage, func(s string) error {
			v := s == "true"
			if s != "true" && s != "false" {
				return errors.New("want true or false")
			}
			m.flagged = append(m.flagged, func(cfg *Config) { f(cfg, v) })
			return nil
		})
	}
	set("encoding", "SMT encoding: bottleneck (default) or thesis", func(c *Config, s string) error {
		switch s {
		case "bottleneck":
			c.Encoding = Bottleneck
		case "thesis":
			c.Encoding = Thesis
		default:
			return fmt.Errorf("encoding %q: want bottleneck or thesis", s)
		}
		return nil
	})
	set("epsilon", "tolerance on cycles per instruction (default 0.02)", func(c *Config, s string) error {
		_, err := fmt.Sscan(s, &c.Epsilon)
		if err == nil && c.Epsilon < 0 {
			err = fmt.Errorf("negative tolerance %g", c.Epsilon)
		}
		return err
	})
	set("max-size", "largest experiment to measure (0: no limit)", func(c *Config, s string) error {
		_, err := fmt.Sscan(s, &c.MaxSize)
		return err
	})
	set("validate", "random length-5 experiments measured to check the result, per round (default 50, -thesis 0; 0: none)", func(c *Config, s string) error {
		_, err := fmt.Sscan(s, &c.Validation)
		return err
	})
	set("timeout", "time limit of each solver query, e.g. 10m (0: none)", func(c *Config, s string) error {
		var err error
		c.Timeout, err = time.ParseDuration(s)
		return err
	})
	fs.StringVar(&m.uops, "uops", "", "three-level search with known µop counts, e.g. fma=2,div=3 (others 1)")
	boolFlag("no-symmetry", "no symmetry breaking over port renamings", func(c *Config, v bool) { c.NoSymmetryBreaking = v })
	boolFlag("no-simulation", "no simulator check of earlier candidates", func(c *Config, v bool) { c.NoSimulation = v })
	boolFlag("stratified", "thesis order: bounded searches of growing size before the unbounded check", func(c *Config, v bool) { c.Stratified = v })
	boolFlag("pairs", "also measure every pair of instructions first", func(c *Config, v bool) { c.Pairs = v })
	boolFlag("integer-unbounded", "unbounded check over integer experiments (thesis)", func(c *Config, v bool) { c.IntegerUnbounded = v })
}

// config returns the configuration of a run on p with s.
func (m *Method) config(p *infer.Problem, s *infer.Settings) (Config, error) {
	cfg := m.Config
	if m.Thesis {
		cfg = ThesisConfig()
	}
	for _, f := range m.flagged {
		f(&cfg)
	}
	if m.uops != "" {
		cfg.UopCounts = map[string]int{}
		for _, kv := range strings.Split(m.uops, ",") {
			name, n, ok := strings.Cut(kv, "=")
			var c int
			if _, err := fmt.Sscan(n, &c); !ok || err != nil {
				return cfg, fmt.Errorf("cegis: -uops %q: want NAME=COUNT,…", kv)
			}
			cfg.UopCounts[name] = c
		}
	}
	cfg.InstructionsPerCycle = p.InstructionsPerCycle
	cfg.Seed = s.Seed
	return cfg, nil
}

// Infer runs counter-example-guided inference on p (see Method).
func (m *Method) Infer(ctx context.Context, p *infer.Problem, s *infer.Settings) (*infer.Result, error) {
	if p.Ports == 0 {
		return nil, errors.New("cegis: the number of ports is required")
	}
	if p.Oracle == nil {
		return nil, errors.New("cegis: the method asks for experiments and needs an oracle")
	}
	cfg, err := m.config(p, s)
	if err != nil {
		return nil, err
	}
	detail := cfg.Progress
	cfg.Progress = func(it Iteration) {
		if detail != nil {
			detail(it)
		}
		if s.Progress != nil {
			// No Total: the number of iterations is not known in advance.
			s.Progress(infer.Status{Stage: it.Step, Done: it.Index, Elapsed: it.Elapsed, Message: it.Status()})
		}
	}
	res, err := Infer(ctx, p.Oracle, p.Instructions, p.Ports, cfg)
	if res == nil {
		return nil, err
	}
	if p.PortNames != nil {
		perm := make([]int, p.Ports)
		for k := range perm {
			perm[k] = k
		}
		if named, rerr := res.Mapping.Renamed(perm, p.PortNames); rerr == nil {
			res.Mapping = named
		}
	}
	return &infer.Result{Mapping: res.Mapping, Report: res}, err
}
