package palmed

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// split is a small machine with disjoint integer (i0–i2) and FP (f0–f2)
// pipelines, each three wide, behind a front end of 4 instructions per
// cycle: a pair of an integer and an FP form at 3 per cycle each runs at
// the front end's 4, which reads as a conflict when the front end is not
// known (the paper's Zen case, Sec. 5.2).
func split() *portmap.Mapping {
	m := portmap.MustMapping("split", "i0", "i1", "i2", "f0", "f1", "f2")
	return m.MustSetUsage("ADD", "1*i012").MustSetUsage("SHL", "1*i0").
		MustSetUsage("IMUL", "1*i1").MustSetUsage("FADD", "1*f012").
		MustSetUsage("FMUL", "1*f0").MustSetUsage("FDIV", "1*f1")
}

// With Config.FrontEnd, PALMED maps the split machine exactly: every
// kernel of up to two forms (each at most 3 times) predicted as measured,
// with the front end a resource of the mapping.
func TestFrontEnd(t *testing.T) {
	truth := split()
	const ipc = 4
	sim := oracle.Simulate(truth, 0, 1)
	sim.Model = sim.Model.WithFrontEnd(throughput.FrontEnd{InstructionsPerCycle: ipc})
	cfg := DefaultConfig()
	cfg.Basic = 6
	cfg.FrontEnd = ipc
	res, err := Infer(context.Background(), sim, truth.Instructions(), cfg, nil)
	if err != nil {
		t.Fatalf("%v\n%v", err, res)
	}
	if _, ok := res.Mapping.Resource("front end"); !ok {
		t.Errorf("no front-end resource in %v", res.Mapping.Resources())
	}
	insns := truth.Instructions()
	wrong := 0
	for i, a := range insns {
		for _, b := range insns[i:] {
			for na := 1; na <= 3; na++ {
				for nb := 0; nb <= 3; nb++ {
					e := portmap.NewExperiment(a).Scale(na).Plus(portmap.NewExperiment(b).Scale(nb))
					want, _ := oracle.Cycles(context.Background(), sim, e)
					got, _, err := res.Mapping.Cycles(e)
					if err != nil {
						t.Fatal(err)
					}
					if math.Abs(got-want) > 1e-6*want {
						if wrong++; wrong <= 5 {
							t.Errorf("%v: %v cycles predicted, %v true", e, got, want)
						}
					}
				}
			}
		}
	}
	if wrong > 0 {
		t.Errorf("%d kernels mispredicted; mapping:\n%v", wrong, res.Mapping)
	}
}

// A negative or infinite front end is refused before any measurement.
func TestFrontEndConfig(t *testing.T) {
	for _, fe := range []float64{-1, math.Inf(1), math.NaN()} {
		o := &countingOracle{Oracle: oracle.Simulate(toy(), 0, 1)}
		cfg := toyConfig()
		cfg.FrontEnd = fe
		if _, err := Infer(context.Background(), o, toy().Instructions(), cfg, nil); err == nil || o.asked != 0 {
			t.Errorf("FrontEnd %g: error %v after %d measurements; want an error before any", fe, err, o.asked)
		}
	}
}

// TestBasicLimit: more basic instructions than LP1 can enumerate is an
// error before any measurement, not after the quadratic benchmarks.
func TestBasicLimit(t *testing.T) {
	o := &countingOracle{Oracle: oracle.Simulate(toy(), 0, 1)}
	cfg := toyConfig()
	cfg.Basic = MaxBasicLP1 + 1
	if _, err := Infer(context.Background(), o, toy().Instructions(), cfg, nil); err == nil || o.asked != 0 || !strings.Contains(err.Error(), "at most 16") {
		t.Errorf("Basic %d: error %v after %d measurements; want an error naming the limit before any", cfg.Basic, err, o.asked)
	}
}

// withMove is split with MOV, a move the renamer eliminates: no µop on
// any port, so only the front end (4 per cycle) bounds it.
func withMove() *portmap.Mapping {
	m := split()
	if err := m.Set("MOV"); err != nil {
		panic(err)
	}
	return m
}

// A form no port explains (an eliminated move, running alone at the front
// end's peak) is mapped to the front end only and kept out of the core,
// whether the peak is given or estimated from the measurements; every
// kernel of up to two forms is then predicted as measured. Without it
// (FrontEndTol 0, the peak not given) the pair kernels at the front end
// read as conflicts of MOV with every form and the core cannot fit them.
func TestFrontEndOnly(t *testing.T) {
	truth := withMove()
	const ipc = 4
	sim := oracle.Simulate(truth, 0, 1)
	sim.Model = sim.Model.WithFrontEnd(throughput.FrontEnd{InstructionsPerCycle: ipc})
	insns := truth.Instructions()
	mispredicted := func(res *Result) int {
		wrong := 0
		for i, a := range insns {
			for _, b := range insns[i:] {
				for na := 1; na <= 3; na++ {
					for nb := 0; nb <= 3; nb++ {
						e := portmap.NewExperiment(a).Scale(na).Plus(portmap.NewExperiment(b).Scale(nb))
						want, _ := oracle.Cycles(context.Background(), sim, e)
						got, _, err := res.Mapping.Cycles(e)
						if err != nil {
							t.Fatal(err)
						}
						if math.Abs(got-want) > 1e-6*want {
							if wrong++; wrong <= 3 {
								t.Logf("%v: %v cycles predicted, %v true", e, got, want)
							}
						}
					}
				}
			}
		}
		return wrong
	}
	for _, fe := range []float64{0, ipc} {
		cfg := DefaultConfig()
		cfg.Basic = 6
		cfg.FrontEnd = fe
		cfg.EstimateFrontEnd = true
		res, err := Infer(context.Background(), sim, insns, cfg, nil)
		if err != nil {
			t.Fatalf("FrontEnd %g: %v\n%v", fe, err, res)
		}
		if len(res.FrontEndOnly) != 1 || res.FrontEndOnly[0] != "MOV" {
			t.Errorf("FrontEnd %g: front end only %v; want [MOV]", fe, res.FrontEndOnly)
		}
		if res.FrontEnd != ipc || res.FrontEndEstimated != (fe == 0) {
			t.Errorf("FrontEnd %g: result's front end %g (estimated %v); want %d", fe, res.FrontEnd, res.FrontEndEstimated, ipc)
		}
		for _, b := range res.Basic {
			if b == "MOV" {
				t.Errorf("FrontEnd %g: MOV among the basic instructions %v", fe, res.Basic)
			}
		}
		if !res.Mapping.Has("MOV") {
			t.Errorf("FrontEnd %g: MOV not mapped", fe)
		}
		k, ok := res.Mapping.Resource("front end")
		if !ok {
			t.Fatalf("FrontEnd %g: no front-end resource in %v", fe, res.Mapping.Resources())
		}
		loads, _ := res.Mapping.Loads("MOV")
		for r, v := range loads {
			if r != k && v > 0 {
				t.Errorf("FrontEnd %g: MOV has load %g on %s; want the front end only", fe, v, res.Mapping.Resources()[r])
			}
		}
		if n := mispredicted(res); n > 0 {
			t.Errorf("FrontEnd %g: %d kernels mispredicted; mapping:\n%v", fe, n, res.Mapping)
		}
	}
	cfg := DefaultConfig()
	cfg.Basic = 6
	cfg.EstimateFrontEnd = true
	cfg.FrontEndTol = 0
	cfg.MaxGrow = 1 // fails either way; growing only takes time
	res, err := Infer(context.Background(), sim, insns, cfg, nil)
	if res == nil {
		t.Fatal(err)
	}
	if len(res.FrontEndOnly) != 0 || res.FrontEnd != 0 {
		t.Errorf("FrontEndTol 0: front end only %v at %g; want none", res.FrontEndOnly, res.FrontEnd)
	}
	if err == nil && mispredicted(res) == 0 {
		t.Errorf("FrontEndTol 0: MOV's kernels fitted without the front end; the test machine no longer shows the failure")
	}
}

// On a machine without a front-end limit no form is taken for one: the
// fastest kernels are those of single port groups, and the run is the
// same as with FrontEndTol 0.
func TestFrontEndOnlyNone(t *testing.T) {
	truth := split()
	sim := oracle.Simulate(truth, 0, 1)
	cfg := DefaultConfig()
	cfg.Basic = 6
	cfg.EstimateFrontEnd = true
	res, err := Infer(context.Background(), sim, truth.Instructions(), cfg, nil)
	if err != nil {
		t.Fatalf("%v\n%v", err, res)
	}
	if len(res.FrontEndOnly) != 0 || res.FrontEnd != 0 {
		t.Errorf("front end only %v at %g; want none", res.FrontEndOnly, res.FrontEnd)
	}
	if _, ok := res.Mapping.Resource("front end"); ok {
		t.Errorf("a front-end resource in %v", res.Mapping.Resources())
	}
}
