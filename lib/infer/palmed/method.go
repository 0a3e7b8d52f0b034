package palmed

import (
	"context"
	"errors"
	"flag"
	"math/big"
	"time"

	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/resource"
)

func init() { infer.Register("palmed", func() infer.Method { return New() }) }

// Method is PALMED behind the inference contract of package infer. It
// asks the problem's oracle for every kernel it needs (the problem's Data
// is used only through the oracle, e.g. a replay, which fails on kernels
// it does not hold: such kernels are skipped and recorded). The number of
// ports is not needed. The result's Predictor is the resource mapping
// (with a front-end resource when the problem gives
// InstructionsPerCycle), its Mapping the equivalent port mapping when
// there is one (Result.PortMapping; without the front-end bound), and its
// Report the *Result.
type Method struct {
	Config Config
}

// New returns the method with DefaultConfig.
func New() *Method { return &Method{Config: DefaultConfig()} }

// Name returns "palmed".
func (*Method) Name() string { return "palmed" }

// SetFlags defines the configuration as command-line flags.
func (m *Method) SetFlags(fs *flag.FlagSet) {
	c := &m.Config
	fs.IntVar(&c.Basic, "basic", c.Basic, "number of basic instructions (Alg. 1)")
	fs.Float64Var(&c.MinIPC, "min-ipc", c.MinIPC, "leave out instructions with a lower IPC alone")
	fs.Float64Var(&c.EqTol, "eq-tol", c.EqTol, "tolerance of the equivalence classes")
	fs.Float64Var(&c.DisjointTol, "disjoint-tol", c.DisjointTol, "slowdown tolerance of disjoint pairs")
	fs.Float64Var(&c.SatTol, "sat-tol", c.SatTol, "relative tolerance of saturation tests")
	fs.Float64Var(&c.RoundTol, "round-tol", c.RoundTol, "relative tolerance of integer multiplicities")
	fs.IntVar(&c.M, "M", c.M, "repetitions of a in the a^M·b kernels")
	fs.IntVar(&c.L, "L", c.L, "cycles of the saturating kernel in K_sat")
	fs.Float64Var(&c.FitTol, "fit-tol", c.FitTol, "largest accepted LP2 sub-saturation of a kernel")
	fs.IntVar(&c.MaxGrow, "max-grow", c.MaxGrow, "rounds of shape growth after a rejected LP2 fit")
	fs.Float64Var(&c.Eps, "eps", c.Eps, "smallest load kept as an edge")
	fs.Float64Var(&c.PrivateTol, "private-tol", c.PrivateTol, "under-prediction of an instruction alone that adds a private resource")
	fs.DurationVar(&c.SolverTimeLimit, "solver-time", c.SolverTimeLimit, "time limit of each MILP solve")
	fs.Float64Var(&c.Noise, "measurement-noise", c.Noise, "relative noise of one measurement, widening the tolerances (negative: estimate it from repeated singletons; 0: exact)")
	fs.IntVar(&c.Repeats, "repeats", c.Repeats, "measurements per kernel when noisy (median kept)")
	fs.Float64Var(&c.NoiseWidth, "noise-width", c.NoiseWidth, "standard deviations of noise the tolerances allow")
}

// Infer runs PALMED on p (see Method).
func (m *Method) Infer(ctx context.Context, p *infer.Problem, s *infer.Settings) (*infer.Result, error) {
	if p.Oracle == nil {
		return nil, errors.New("palmed: needs an oracle to measure its kernels")
	}
	var progress func(infer.Status)
	if s != nil {
		progress = s.Progress
	}
	res, err := Infer(ctx, p.Oracle, p.Instructions, m.Config, progress)
	if res == nil || res.Mapping == nil {
		if err == nil {
			err = errors.New("palmed: no mapping")
		}
		return nil, err
	}
	pred := res.Mapping
	if p.InstructionsPerCycle > 0 {
		pred = WithFrontEnd(res.Mapping, p.InstructionsPerCycle)
	}
	return &infer.Result{Predictor: pred, Mapping: res.PortMapping, Report: res}, err
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
