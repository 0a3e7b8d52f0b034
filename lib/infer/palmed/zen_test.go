package palmed

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/resource"
)

// TestZenPlusLike runs PALMED on the simulated Zen+-like machine
// (portlab:zenplus-like, exact oracle, front end of 5 instructions per
// cycle) with Config.FrontEnd set to the machine's peak, and wants a
// random length-5 MAPE ≤ 3 % (2,000 experiments, design.Random seed 13 as
// notebook 13). With PORTLAB_PALMED_ZEN_NOFE=1 it runs without
// Config.FrontEnd and reports the mapping as it comes and with the front
// end added afterwards (WithFrontEnd). Set PORTLAB_PALMED_ZEN=1 to run it
// (minutes).
func TestZenPlusLike(t *testing.T) {
	if os.Getenv("PORTLAB_PALMED_ZEN") == "" {
		t.Skip("set PORTLAB_PALMED_ZEN=1 to run PALMED on portlab:zenplus-like")
	}
	m, err := machine.Lookup("portlab:zenplus-like")
	if err != nil {
		t.Skip(err)
	}
	ctx := context.Background()
	insns := m.Mapping.Instructions()
	cfg := DefaultConfig()
	if os.Getenv("PORTLAB_PALMED_ZEN_NOFE") == "" {
		cfg.FrontEnd = m.InstructionsPerCycle
	}
	res, err := Infer(ctx, m.Oracle(0, 1), insns, cfg, nil)
	if res == nil {
		t.Fatal(err)
	}
	if err != nil && !errors.Is(err, ErrNoFit) {
		t.Fatal(err)
	}
	t.Log(res)
	rnd, _, err := oracle.MeasureAll(ctx, m.Oracle(0, 1), design.Random(insns, 5, 2000, 13), nil)
	if err != nil {
		t.Fatal(err)
	}
	ev := metrics.Evaluate(ctx, res.Mapping, rnd)
	t.Logf("random length 5, mapping as it comes: %v, bias %+.2f%% (%d not predicted)", ev.Summary, bias(ctx, res, rnd), len(ev.Failures))
	if cfg.FrontEnd == 0 {
		fe := WithFrontEnd(res.Mapping, m.InstructionsPerCycle)
		ev = metrics.Evaluate(ctx, fe, rnd)
		t.Logf("random length 5, with the front end (%g IPC) added: %v (%d not predicted)", m.InstructionsPerCycle, ev.Summary, len(ev.Failures))
	} else if ev.Summary.MAPE > 3 {
		t.Errorf("random length 5: MAPE %.2f%%, want ≤ 3 %%", ev.Summary.MAPE)
	}
	// Where the error is: experiments with the truth's front end binding
	// or not.
	exact := m.Oracle(0, 1)
	plain := oracle.Simulate(m.Mapping, 0, 1)
	var feBound, portBound int
	var feErr, portErr float64
	for _, x := range rnd.Measurements {
		p, _, err := res.Mapping.Cycles(x.Experiment)
		if err != nil {
			continue
		}
		c, _ := oracle.Cycles(ctx, plain, x.Experiment)
		withFE, _ := oracle.Cycles(ctx, exact, x.Experiment)
		rel := (p - withFE) / withFE
		if rel < 0 {
			rel = -rel
		}
		if withFE > c*(1+1e-9) {
			feBound++
			feErr += rel
		} else {
			portBound++
			portErr += rel
		}
	}
	t.Logf("front end binding in %d of %d experiments (MAPE there %.2f%%), ports in %d (MAPE %.2f%%)",
		feBound, feBound+portBound, 100*feErr/max(1, float64(feBound)), portBound, 100*portErr/max(1, float64(portBound)))
}

// TestZenPlusLikeFrontEnd measures, without running PALMED, what the
// front end of portlab:zenplus-like (5 instructions per cycle) does to a
// resource mapping: the exact dual of its port mapping (resource.DualClosure,
// the best PALMED could infer from ports alone) predicts the 2,000 random
// length-5 experiments of TestZenPlusLike with the MAPE logged, and exactly
// once the front end is added as a resource (WithFrontEnd); it also logs
// how the front end makes disjoint pipelines look conflicting in PALMED's
// pair kernels (an integer ALU and an FP form, each 4 per cycle).
func TestZenPlusLikeFrontEnd(t *testing.T) {
	m, err := machine.Lookup("portlab:zenplus-like")
	if err != nil {
		t.Skip(err)
	}
	ctx := context.Background()
	insns := m.Mapping.Instructions()
	exact := m.Oracle(0, 1)
	rnd, _, err := oracle.MeasureAll(ctx, exact, design.Random(insns, 5, 2000, 13), nil)
	if err != nil {
		t.Fatal(err)
	}
	dual := resource.DualClosure(m.Mapping)
	ev := metrics.Evaluate(ctx, dual, rnd)
	fe := metrics.Evaluate(ctx, WithFrontEnd(dual, m.InstructionsPerCycle), rnd)
	plain := oracle.Simulate(m.Mapping, 0, 1)
	bound := 0
	for _, x := range rnd.Measurements {
		c, _ := oracle.Cycles(ctx, plain, x.Experiment)
		if x.Cycles > c*(1+1e-9) {
			bound++
		}
	}
	t.Logf("random length 5: the front end binds in %d of %d; exact dual without it: %v; with it: %v", bound, rnd.Len(), ev.Summary, fe.Summary)
	if fe.Summary.MAPE > 1e-6 {
		t.Errorf("dual with the front end: MAPE %.3g%%, want 0", fe.Summary.MAPE)
	}
	// PALMED's quadratic benchmarks a^ā·b^b̄: how many the front end binds,
	// and how many disjoint pairs (slowdown ≤ 1 + DisjointTol on the
	// ports) it makes look conflicting.
	cfg := DefaultConfig()
	alone := map[string]float64{}
	for _, insn := range insns {
		alone[insn], _ = oracle.Cycles(ctx, exact, portmap.NewExperiment(insn))
	}
	pairs, feBound, disjointPorts, hidden := 0, 0, 0, 0
	for i, a := range insns {
		for _, b := range insns[i+1:] {
			e := mix([]part{{single(a), 1 / alone[a]}, {single(b), 1 / alone[b]}}, cfg.RoundTol, cfg.MaxScale)
			withFE, _ := oracle.Cycles(ctx, exact, e)
			ports, _ := oracle.Cycles(ctx, plain, e)
			slower := max(float64(e.Count(a))*alone[a], float64(e.Count(b))*alone[b])
			pairs++
			if withFE > ports*(1+1e-9) {
				feBound++
			}
			if ports <= slower*(1+cfg.DisjointTol) {
				disjointPorts++
				if withFE > slower*(1+cfg.DisjointTol) {
					hidden++
				}
			}
		}
	}
	t.Logf("pair kernels: %d; the front end binds in %d; %d pairs are disjoint on the ports, %d of them look conflicting through the front end", pairs, feBound, disjointPorts, hidden)
	// A pair kernel of two disjoint 4-per-cycle forms.
	var alu, fp string
	for _, insn := range insns {
		u, _ := m.Mapping.Uops(insn)
		if len(u) != 1 || u[0].Count != 1 || u[0].Ports.Len() != 4 {
			continue
		}
		if u[0].Ports.Has(6) && alu == "" {
			alu = insn
		}
		if u[0].Ports.Has(0) && fp == "" {
			fp = insn
		}
	}
	if alu == "" || fp == "" {
		t.Skip("no 4-port ALU and FP forms")
	}
	pair := portmap.NewExperiment(alu).Scale(4).Plus(portmap.NewExperiment(fp).Scale(4))
	c, _ := oracle.Cycles(ctx, exact, pair)
	t.Logf("pair kernel %v: %.3g cycles, slowdown %.3g over either alone (disjoint pipelines would give 1): PALMED sees a conflict", pair, c, c/1)
}
