package oracle

import (
	"context"
	"math/rand/v2"
	"sync"

	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// Simulated is an Oracle that measures with a known mapping: the exact
// bottleneck throughput (package throughput), optionally with
// multiplicative Gaussian noise — the result is t·(1 + Noise·z) with z
// standard normal, redrawn per call, never below 1 % of t — and the µops
// the experiment retires (Measurement.Uops), as a µop counter would count
// them. Use it to test whether an inference algorithm recovers a mapping
// (thesis §3.3).
//
// With PortCounters set it also fills Measurement.PortUops, as per-port µop
// counters (Intel's UOPS_DISPATCHED_PORT events, which uops.info reads)
// would: the µops each port executes per execution of the experiment in
// the balanced optimal schedule of the mapping (throughput.Model.PortLoads
// — an optimal schedule, with the load as even as possible where optimal
// schedules differ). The counts are exact for the mapping; with Noise set
// each port's count is multiplied by its own 1 + Noise·z (never below 0),
// drawn like the timing's. Port counters cost a schedule per measurement,
// several times the bottleneck formula (random length-5 experiments on the
// uops.info Skylake mapping: about 30 µs instead of 6 µs per measurement),
// so they are off by default.
//
// Real per-port counters are out of reach here: the hardware oracle
// (package measure) has no perf_event_open path, and the virtual machines
// portlab is developed on expose no PMU at all.
type Simulated struct {
	Model *throughput.Model
	Noise float64 // relative standard deviation, e.g. 0.02 for 2 %
	// PortCounters makes Measure fill Measurement.PortUops.
	PortCounters bool
	// Counted, when not nil, is what the µop counter counts per execution
	// of the instructions it lists, instead of their µops: AMD's Zen
	// counter counts macro-ops (package machine describes what a
	// machine's counter counts and fills this in). Measurement.Uops sums
	// it (with the µops of unlisted instructions).
	Counted map[string]int

	mapping *portmap.Mapping
	mu      sync.Mutex
	rng     *rand.Rand
}

// Simulate returns a simulated oracle for m with the given noise and random
// seed. Later changes to m do not affect it.
func Simulate(m *portmap.Mapping, noise float64, seed uint64) *Simulated {
	m = m.Clone()
	return &Simulated{Model: throughput.NewModel(m), Noise: noise, mapping: m, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// SimulateWithPortCounters is Simulate with PortCounters set: its
// measurements also hold the µops executed per port (see Simulated).
func SimulateWithPortCounters(m *portmap.Mapping, noise float64, seed uint64) *Simulated {
	s := Simulate(m, noise, seed)
	s.PortCounters = true
	return s
}

// Measure returns the (noisy) simulated inverse throughput of e, its µop
// count and, with PortCounters set, its µops per port.
func (s *Simulated) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	if err := ctx.Err(); err != nil {
		return portmap.Measurement{}, err
	}
	t, err := s.Model.Cycles(e)
	if err != nil {
		return portmap.Measurement{}, unmappedError(s.mapping, e, err)
	}
	m := portmap.Measurement{Experiment: e, Cycles: t, Uops: float64(uopsOf(s.mapping, s.Counted, e))}
	if s.PortCounters {
		if m.PortUops, err = s.Model.PortLoads(e, nil); err != nil {
			return portmap.Measurement{}, unmappedError(s.mapping, e, err)
		}
	}
	if s.Noise != 0 {
		s.mu.Lock()
		z := s.rng.NormFloat64()
		for k, n := range m.PortUops {
			m.PortUops[k] = max(n*(1+s.Noise*s.rng.NormFloat64()), 0)
		}
		s.mu.Unlock()
		m.Cycles = max(t*(1+s.Noise*z), 0.01*t)
	}
	return m, nil
}

// Mapping returns the simulated mapping.
func (s *Simulated) Mapping() *portmap.Mapping { return s.mapping }

// uopsOf returns the number of µops one execution of e issues under m, as
// a counter that counts counted[insn] for the instructions counted lists.
func uopsOf(m *portmap.Mapping, counted map[string]int, e portmap.Experiment) int {
	n := 0
	for _, it := range e.Items() {
		if c, ok := counted[it.Insn]; ok {
			n += it.Count * c
			continue
		}
		uops, _ := m.Uops(it.Insn)
		for _, u := range uops {
			n += it.Count * u.Count
		}
	}
	return n
}

// unmappedError wraps err of an experiment with an instruction m does not
// map as an *InsnError naming it.
func unmappedError(m *portmap.Mapping, e portmap.Experiment, err error) error {
	for _, it := range e.Items() {
		if !m.Has(it.Insn) {
			return &InsnError{Insn: it.Insn, Err: err}
		}
	}
	return err
}

// MappingPredictor predicts with a port mapping: the bottleneck formula
// of package throughput (thesis Thm 5.2), optionally capped by a front-end
// bound. It is what every inferred or published mapping is evaluated with.
type MappingPredictor struct {
	// Label is the Name; FromMapping sets it to the mapping's name.
	Label string
	// FrontEnd, when not zero, bounds the throughput by the instructions or
	// µops the core issues per cycle (see throughput.FrontEnd).
	FrontEnd throughput.FrontEnd

	model *throughput.Model
}

// FromMapping returns the predictor of mapping m. Later changes to m do not
// affect it. Experiments with an instruction m does not map are reported as
// unsupported.
func FromMapping(m *portmap.Mapping) *MappingPredictor {
	name := m.Name()
	if name == "" {
		name = "mapping"
	}
	return &MappingPredictor{Label: name, model: throughput.NewModel(m)}
}

// Name returns p.Label.
func (p *MappingPredictor) Name() string { return p.Label }

// Predict returns the modeled inverse throughputs of exps, evaluated in
// parallel; see Predictor for unsupported experiments.
func (p *MappingPredictor) Predict(ctx context.Context, exps []portmap.Experiment) ([]float64, error) {
	md := p.model
	if p.FrontEnd != (throughput.FrontEnd{}) {
		md = md.WithFrontEnd(p.FrontEnd)
	}
	var failures []portmap.Failure
	var ok []portmap.Experiment
	var at []int
	for i, e := range exps {
		if _, err := md.Index(e); err != nil {
			failures = append(failures, portmap.Failure{Index: i, Experiment: e, Insn: unmapped(md, e), Reason: err.Error()})
			continue
		}
		ok = append(ok, e)
		at = append(at, i)
	}
	pred, err := md.Predict(ctx, ok)
	if err != nil {
		return nil, err
	}
	values := make([]float64, len(exps))
	for k, i := range at {
		values[i] = pred[k]
	}
	return Unsupported(p.Label, values, failures)
}

// unmapped returns the first instruction of e that md cannot index.
func unmapped(md *throughput.Model, e portmap.Experiment) string {
	for _, it := range e.Items() {
		if _, err := md.Index(portmap.NewExperiment(it.Insn)); err != nil {
			return it.Insn
		}
	}
	return ""
}
