package cegis

import (
	"context"
	"errors"
	"flag"
	"reflect"

	"github.com/portlab/portlab/lib/infer"
)

func init() { infer.Register("cegis", func() infer.Method { return New() }) }

// Method is counter-example-guided inference behind the inference contract
// of package infer: it asks the problem's oracle for every experiment it
// needs (a replay of stored data answers only the experiments it holds).
// The problem's instructions, ports and front-end bound and the settings'
// seed override Config's. The result's Report is the *Result of Infer.
type Method struct {
	// Config is the configuration: New starts from DefaultConfig, and so
	// does the zero Method; the preset "thesis" (Presets) is
	// ThesisConfig.
	Config Config
}

// New returns the method with DefaultConfig.
func New() *Method { return &Method{Config: DefaultConfig()} }

// Name returns "cegis".
func (*Method) Name() string { return "cegis" }

// Uses returns what the method needs: an oracle to ask (or data that
// holds every experiment it asks for) and the number of ports.
func (*Method) Uses() infer.Needs { return infer.Needs{Queries: true, Ports: true} }

// Configuration returns the configuration, for infer.Validate.
func (m *Method) Configuration() any {
	m.defaults()
	return &m.Config
}

// defaults gives the zero Method the default configuration (New's), so
// that &Method{} runs like New().
func (m *Method) defaults() {
	if reflect.ValueOf(m.Config).IsZero() {
		m.Config = DefaultConfig()
	}
}

// Presets returns the named configuration "thesis" (ThesisConfig, thesis
// §4.5).
func (m *Method) Presets() []infer.Preset {
	return []infer.Preset{
		{Name: "thesis", Help: "the thesis's settings: LP-optimality encoding (Def. 4.5), integer unbounded check, no symmetry breaking, no simulation", Set: func() { m.Config = ThesisConfig() }},
	}
}

// SetFlags defines the settings and the preset as command-line flags
// (infer.BindFlags).
func (m *Method) SetFlags(fs *flag.FlagSet) {
	m.defaults()
	infer.BindFlags(fs, &m.Config, m.Presets()...)
}

// Infer runs counter-example-guided inference on p (see Method).
func (m *Method) Infer(ctx context.Context, p *infer.Problem, s *infer.Settings) (*infer.Result, error) {
	cfg := m.Config
	cfg.InstructionsPerCycle = p.InstructionsPerCycle
	cfg.Seed = s.Seed
	detail := cfg.Progress
	cfg.Progress = func(it Iteration) {
		if detail != nil {
			detail(it)
		}
		// No Total: the number of iterations is not known in advance.
		s.Notify(it.Step, it.Index, 0, it.Status())
	}
	res, err := Infer(ctx, p.Oracle, p.Instructions, p.Ports, cfg)
	if res == nil {
		return nil, err
	}
	perm := make([]int, p.Ports)
	for k := range perm {
		perm[k] = k
	}
	if named, rerr := res.Mapping.Renamed(perm, p.PortNames); rerr == nil {
		res.Mapping = named
	}
	st := infer.NotTerminated
	var undecided *UndecidedError
	if errors.As(err, &undecided) {
		st = infer.Undecided
	}
	return &infer.Result{Mapping: res.Mapping, Report: res, Status: st}, err
}
