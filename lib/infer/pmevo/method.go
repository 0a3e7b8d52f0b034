package pmevo

import (
	"context"
	"flag"
	"fmt"
	"reflect"
	"strings"
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
	// settings. New starts from DefaultConfig, and so does the zero
	// Method; the preset "paper" (Presets) is PaperConfig.
	Config Config
}

// New returns the method with portlab's defaults (DefaultConfig).
func New() *Method { return &Method{Config: DefaultConfig(0)} }

// Name returns "pmevo".
func (*Method) Name() string { return "pmevo" }

// Uses returns what PMEvo needs: the number of ports, and Data or an
// oracle to measure its training design with.
func (*Method) Uses() infer.Needs { return infer.Needs{Queries: true, Data: true, Ports: true} }

// Configuration returns the hyperparameters, for infer.Validate.
func (m *Method) Configuration() any {
	m.defaults()
	return &m.Config
}

// defaults gives the zero Method the default configuration (New's), so
// that &Method{} runs like New().
func (m *Method) defaults() {
	if reflect.ValueOf(m.Config).IsZero() {
		m.Config = DefaultConfig(0)
	}
}

// Presets returns the named configuration "paper" (PaperConfig, the PMEvo
// paper §5.2.2); DefaultConfig, portlab's, is where New starts.
func (m *Method) Presets() []infer.Preset {
	return []infer.Preset{
		{Name: "paper", Help: "the paper's hyperparameters (population 100,000, no mutation, no polish) instead of portlab's", Set: func() { m.Config = PaperConfig(0) }},
	}
}

// SetFlags defines the hyperparameters and the presets as command-line
// flags (infer.BindFlags).
func (m *Method) SetFlags(fs *flag.FlagSet) {
	m.defaults()
	infer.BindFlags(fs, &m.Config, m.Presets()...)
}

// config returns the configuration of a run on p with s.
func (m *Method) config(p *infer.Problem, s *infer.Settings) Config {
	cfg := m.Config
	cfg.Ports, cfg.PortNames, cfg.InstructionsPerCycle = p.Ports, p.PortNames, p.InstructionsPerCycle
	cfg.Seed, cfg.Workers = s.Seed, s.Workers
	if cfg.Seed == 0 {
		cfg.Seed = 1
	}
	return cfg
}

// Infer runs PMEvo on p (see Method).
func (m *Method) Infer(ctx context.Context, p *infer.Problem, s *infer.Settings) (*infer.Result, error) {
	cfg := m.config(p, s)
	start := time.Now()
	train := p.Data
	if train == nil {
		var err error
		var failures int
		train, _, err = design.PMEvo(ctx, p.Oracle, p.Instructions, func(pr oracle.Progress) {
			failures = pr.Failed
			s.Notify("measuring", pr.Done, pr.Total, fmt.Sprintf("measuring the training design: %d/%d, %d failed", pr.Done, pr.Total, pr.Failed))
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
		s.Notify("generation", g.Index, cfg.Generations,
			fmt.Sprintf("generation %d/%d, best error %.2f%%, volume %d, %s", g.Index, cfg.Generations, 100*g.BestError, g.BestVolume, g.Elapsed.Round(time.Second)))
	}
	detailSearch := cfg.SearchProgress
	cfg.SearchProgress = func(stage string, done, total int) {
		if detailSearch != nil {
			detailSearch(stage, done, total)
		}
		s.Notify(stage, done, total, fmt.Sprintf("%s: %d/%d candidates, %s", stage, done, total, time.Since(start).Round(time.Second)))
	}
	res, err := Infer(ctx, train, cfg)
	if res == nil {
		return nil, err
	}
	return &infer.Result{Mapping: res.Mapping, Report: res, Status: res.status()}, err
}

// status is the run's infer.Status from Report.Stopped: why the
// evolution stopped, followed by "; local searches cut at the time limit"
// and the like when the time limit cut what came after it (which makes it
// a run stopped by the time limit).
func (r *Result) status() infer.Status {
	return stoppedStatus(r.Report.Stopped)
}

func stoppedStatus(stopped string) infer.Status {
	evolution, rest, _ := strings.Cut(stopped, ";")
	switch {
	case evolution == "interrupted":
		return infer.NotTerminated // Infer tells an interrupt from a limit
	case evolution == "time limit" || strings.Contains(rest, "time limit"):
		return infer.TimeLimit
	case evolution == "generation limit":
		return infer.IterationLimit
	}
	return infer.Converged
}
