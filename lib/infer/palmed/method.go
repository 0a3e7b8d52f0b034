package palmed

import (
	"context"
	"errors"
	"flag"
	"math/big"
	"reflect"
	"time"

	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/resource"
)

func init() { infer.Register("palmed", func() infer.Method { return New() }) }

// Method is PALMED behind the inference contract of package infer. It
// asks the problem's oracle for every kernel it needs (the problem's Data
// is used only through the oracle, e.g. a replay, which fails on kernels
// it does not hold: such kernels are skipped and recorded). The number of
// ports is not needed. The problem's InstructionsPerCycle, when positive,
// is the front end's peak (Config.FrontEnd, unless the configuration sets
// one). The result's Predictor is the resource mapping (with its
// front-end resource), its Mapping the equivalent port mapping when
// there is one (Result.PortMapping; without the front-end bound), and its
// Report the *Result.
type Method struct {
	// Config is the configuration; the zero Method runs with
	// DefaultConfig, as New's does.
	Config Config
}

// New returns the method with DefaultConfig.
func New() *Method { return &Method{Config: DefaultConfig()} }

// Name returns "palmed".
func (*Method) Name() string { return "palmed" }

// Uses returns what PALMED needs: an oracle to measure its kernels (or
// data that holds them); it finds the number of resources itself.
func (*Method) Uses() infer.Needs { return infer.Needs{Queries: true} }

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

// SetFlags defines the configuration as command-line flags
// (infer.BindFlags).
func (m *Method) SetFlags(fs *flag.FlagSet) {
	m.defaults()
	infer.BindFlags(fs, &m.Config)
}

// Infer runs PALMED on p (see Method).
func (m *Method) Infer(ctx context.Context, p *infer.Problem, s *infer.Settings) (*infer.Result, error) {
	cfg := m.Config
	if cfg.FrontEnd == 0 && p.InstructionsPerCycle > 0 {
		cfg.FrontEnd = p.InstructionsPerCycle
	}
	res, err := Infer(ctx, p.Oracle, p.Instructions, cfg, func(pr infer.Progress) { s.Notify(pr.Stage, pr.Done, pr.Total, pr.Message) })
	if res == nil || res.Mapping == nil {
		if err == nil {
			err = errors.New("palmed: no mapping")
		}
		return nil, err
	}
	pred := res.Mapping // with the front end when cfg.FrontEnd > 0
	st := infer.NotTerminated
	if errors.Is(err, ErrNoFit) {
		st = infer.NoFit
	}
	return &infer.Result{Predictor: pred, Mapping: res.PortMapping, Report: res, Status: st}, err
}

// WithFrontEnd returns a copy of m with a resource "front end" on which
// every instruction has load 1/ipc: throughput is then at most ipc
// instructions per cycle.
func WithFrontEnd(m *resource.Mapping, ipc float64) *resource.Mapping {
	c := m.Clone()
	k, err := c.AddResource("front end")
	if err != nil {
		return c
	}
	v := new(big.Rat).Inv(resource.Rational(ipc, 1e-9))
	for _, insn := range c.Instructions() {
		c.SetLoadAt(insn, k, v)
	}
	return c
}

var _ infer.FlagSetter = (*Method)(nil)

// duration formats d for reports.
func duration(d time.Duration) string { return d.Round(time.Millisecond).String() }
