package cegis

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// abcd returns the reference implementation's instructions a–d on three
// ports: two-level a, b → {0,1}, c → {0}, d → {2}, or three-level
// a = [[0],[0]], b = c = [[0,1]], d = [[0,1],[2]].
func abcd(threeLevel bool) *portmap.Mapping {
	m := portmap.MustMapping("abcd", "0", "1", "2")
	if threeLevel {
		return m.MustSetUsage("a", "2*p0").MustSetUsage("b", "1*p01").MustSetUsage("c", "1*p01").MustSetUsage("d", "1*p01+1*p2")
	}
	return m.MustSetUsage("a", "1*p01").MustSetUsage("b", "1*p01").MustSetUsage("c", "1*p0").MustSetUsage("d", "1*p2")
}

// exactUpTo checks that got predicts exactly what truth does on every
// experiment of 1 to size instructions.
func exactUpTo(t *testing.T, got, truth *portmap.Mapping, size int) {
	t.Helper()
	mg, mt := throughput.NewModel(got), throughput.NewModel(truth)
	bad := 0
	multisets(truth.Instructions(), size, func(e portmap.Experiment) {
		a, _ := mg.Cycles(e)
		b, _ := mt.Cycles(e)
		if math.Abs(a-b) > 1e-9 && bad < 5 {
			bad++
			t.Errorf("%v: inferred mapping predicts %.4g cycles, the truth %.4g", e, a, b)
		}
	})
	if bad > 0 {
		t.Logf("inferred:\n%v", got)
	}
}

func TestReferenceCases(t *testing.T) {
	needZ3(t)
	for _, three := range []bool{false, true} {
		truth := abcd(three)
		for bound := 2; bound <= 4; bound++ {
			for _, enc := range []Encoding{Bottleneck, Thesis} {
				if enc == Thesis && bound > 2 {
					continue // slow; the bottleneck encoding covers the larger bounds
				}
				t.Run(fmt.Sprintf("three-level=%v/bound=%d/%v", three, bound, enc), func(t *testing.T) {
					cfg := DefaultConfig()
					cfg.Encoding, cfg.Epsilon, cfg.MaxSize = enc, 0, bound
					if three {
						cfg.UopCounts = map[string]int{"a": 2, "d": 2}
					}
					res, err := Infer(t.Context(), oracle.Simulate(truth, 0, 1), truth.Instructions(), 3, cfg)
					if err != nil {
						t.Fatal(err)
					}
					for _, m := range res.Measurements.Measurements {
						if n := m.Experiment.Len(); n > bound {
							t.Errorf("measured %v, larger than the bound %d", m.Experiment, bound)
						}
					}
					exactUpTo(t, res.Mapping, truth, bound)
				})
			}
		}
	}
	// A two-level search cannot explain the three-level truth.
	for _, enc := range []Encoding{Bottleneck, Thesis} {
		cfg := DefaultConfig()
		cfg.Encoding, cfg.Epsilon, cfg.MaxSize = enc, 0, 2
		truth := abcd(true)
		res, err := Infer(t.Context(), oracle.Simulate(truth, 0, 1), truth.Instructions(), 3, cfg)
		var nm *NoMappingError
		if !errors.Is(err, ErrNoMapping) || !errors.As(err, &nm) || res != nil {
			t.Fatalf("%v: two-level search on a three-level truth: %v, %v; want ErrNoMapping", enc, res, err)
		}
		if len(nm.Conflicting) == 0 || !strings.Contains(err.Error(), "conflict: {") {
			t.Errorf("%v: the error names no conflicting measurements: %v", enc, err)
		}
	}
}

func TestFusedMultiplyAdd(t *testing.T) {
	needZ3(t)
	truth := portmap.MustMapping("fma", "0", "1").MustSetUsage("add", "1*p01").MustSetUsage("sub", "1*p01").
		MustSetUsage("mul", "1*p1").MustSetUsage("fma", "1*p01+1*p1")
	for _, enc := range []Encoding{Bottleneck, Thesis} {
		cfg := DefaultConfig()
		cfg.Encoding, cfg.Epsilon = enc, 0.02
		cfg.UopCounts = map[string]int{"fma": 2}
		res, err := Infer(t.Context(), oracle.Simulate(truth, 0, 1), truth.Instructions(), 2, cfg)
		if err != nil {
			t.Fatalf("%v: %v", enc, err)
		}
		// fma on {0,1} and {1} is indistinguishable from fma on {0} and
		// {1} when mul runs on {1}: either answer is right (thesis §4.3).
		if !res.Complete {
			t.Errorf("%v: inferred (complete %v)\n%v", enc, res.Complete, res.Mapping)
		}
		exactUpTo(t, res.Mapping, truth, 4)
	}
}

// TestRandomTruths recovers random two-level mappings (thesis §4.5.1) and
// checks them against the truth on 1,000 random length-5 experiments.
func TestRandomTruths(t *testing.T) {
	needZ3(t)
	// Exact measurements and ε = 0: with ε > 0 a mapping that differs from
	// the truth by less than 2ε·|e| on every experiment is an equally
	// valid answer (thesis §4.3).
	for _, c := range []struct {
		ports, insns int
		seed         uint64
	}{{4, 6, 1}, {4, 6, 2}, {6, 5, 1}, {8, 4, 1}} {
		{
			seed := c.seed
			truth := randomTwoLevel(c.ports, c.insns, seed)
			cfg := DefaultConfig()
			cfg.Epsilon = 0
			res, err := Infer(t.Context(), oracle.Simulate(truth, 0, 1), truth.Instructions(), c.ports, cfg)
			if err != nil {
				t.Fatalf("%v: %v", truth.Name(), err)
			}
			if _, ok := portmap.EquivalentByRenaming(res.Mapping, truth); !ok || !res.Complete {
				t.Errorf("%v: inferred (complete %v)\n%vtruth\n%v", truth.Name(), res.Complete, res.Mapping, truth)
			}
			test, _, err := oracle.MeasureAll(t.Context(), oracle.Simulate(truth, 0, 1), design.Random(truth.Instructions(), 5, 1000, seed), nil)
			if err != nil {
				t.Fatal(err)
			}
			ev := metrics.Evaluate(t.Context(), oracle.FromMapping(res.Mapping), test)
			if ev.Err() != nil || ev.Summary.Pearson < 1-1e-12 || ev.Summary.MAPE >= 0.5 {
				t.Errorf("%v: on 1,000 random experiments %v (%v)", truth.Name(), ev.Summary, ev.Err())
			}
			t.Logf("%v: %v", truth.Name(), res)
		}
	}
}

// TestBruteForce checks the claim of a complete result on tiny instances:
// every two-level mapping that explains the measurements predicts what the
// result predicts, on every experiment of up to six instructions.
func TestBruteForce(t *testing.T) {
	needZ3(t)
	const ports, n = 3, 3
	for seed := uint64(1); seed <= 4; seed++ {
		truth := randomTwoLevel(ports, n, seed)
		cfg := DefaultConfig()
		cfg.Epsilon = 0
		res, err := Infer(t.Context(), oracle.Simulate(truth, 0, 1), truth.Instructions(), ports, cfg)
		if err != nil || !res.Complete {
			t.Fatalf("%v: %v, %v", truth.Name(), res, err)
		}
		got := throughput.NewModel(res.Mapping)
		insns := truth.Instructions()
		consistent := 0
		for code := 0; code < 7*7*7; code++ {
			m := portmap.MustMapping("candidate", "0", "1", "2")
			for i, c := 0, code; i < n; i, c = i+1, c/7 {
				m.Set(insns[i], portmap.Uop{Ports: portmap.PortSet(c%7 + 1), Count: 1})
			}
			md := throughput.NewModel(m)
			ok := true
			for _, x := range res.Measurements.Measurements {
				if v, _ := md.Cycles(x.Experiment); math.Abs(v-x.Cycles) > 1e-9 {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			consistent++
			multisets(insns, 6, func(e portmap.Experiment) {
				a, _ := md.Cycles(e)
				b, _ := got.Cycles(e)
				if math.Abs(a-b) > 1e-9 {
					t.Fatalf("%v: mapping\n%vexplains the %d measurements but predicts %.4g for %v, the result %.4g", truth.Name(), m, res.Measurements.Len(), a, e, b)
				}
			})
		}
		if consistent == 0 {
			t.Errorf("%v: no enumerated mapping explains the measurements, not even the truth", truth.Name())
		}
	}
}

// TestNoise: with 1 % noise and ε = 0.02, the result is the truth or an
// error naming conflicting measurements, never another mapping.
func TestNoise(t *testing.T) {
	needZ3(t)
	outcomes := map[string]int{}
	for seed := uint64(1); seed <= 6; seed++ {
		truth := randomTwoLevel(4, 5, seed)
		cfg := DefaultConfig()
		cfg.Validation, cfg.Seed = 50, seed
		res, err := Infer(t.Context(), oracle.Simulate(truth, 0.01, seed), truth.Instructions(), 4, cfg)
		var nm *NoMappingError
		switch {
		case err == nil:
			if _, ok := portmap.EquivalentByRenaming(res.Mapping, truth); !ok {
				t.Errorf("%v with noise: silently wrong\n%vtruth\n%v", truth.Name(), res.Mapping, truth)
			}
			outcomes["truth"]++
		case errors.As(err, &nm) && len(nm.Conflicting) > 0:
			outcomes["conflict"]++
		default:
			t.Errorf("%v with noise: %v", truth.Name(), err)
		}
	}
	t.Logf("outcomes: %v", outcomes)
}

func TestCancelReturnsBestSoFar(t *testing.T) {
	needZ3(t)
	truth := randomTwoLevel(4, 6, 3)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	cfg := DefaultConfig()
	cfg.Progress = func(it Iteration) { cancel() }
	res, err := Infer(ctx, oracle.Simulate(truth, 0, 1), truth.Instructions(), 4, cfg)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v", err)
	}
	if res == nil || res.Mapping == nil || res.Complete || len(res.Iterations) != 1 {
		t.Errorf("cancelled run returned %v", res)
	}
}

func TestBadInput(t *testing.T) {
	o := oracle.Simulate(abcd(false), 0, 1)
	for _, c := range []struct {
		insns []string
		ports int
		cfg   Config
		want  string
	}{
		{nil, 3, DefaultConfig(), "no instructions"},
		{[]string{"a"}, 0, DefaultConfig(), "0 ports"},
		{[]string{"a"}, 13, DefaultConfig(), "at most 12 ports, not 13"},
		{[]string{"a", "a"}, 3, DefaultConfig(), `"a" listed twice`},
		{[]string{"a"}, 3, Config{Epsilon: -1}, "negative tolerance ε = -1"},
		{[]string{"a"}, 3, Config{UopCounts: map[string]int{"a": 0}}, `"a": 0 µops`},
		{[]string{"a"}, 3, Config{UopCounts: map[string]int{"x": 2}}, `"x", which is not among`},
		{[]string{"a"}, 3, Config{Z3: "no-such-z3"}, "Debian package z3"},
	} {
		if _, err := Infer(t.Context(), o, c.insns, c.ports, c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Infer(%q, %d ports): %v; want an error containing %q", c.insns, c.ports, err, c.want)
		}
	}
}

// TestFrontEndCap: with a peak of two instructions per cycle the result
// predicts what the capped truth does, though mappings the cap hides
// become indistinguishable.
func TestFrontEndCap(t *testing.T) {
	needZ3(t)
	truth := portmap.MustMapping("cap", "0", "1", "2", "3").MustSetUsage("a", "1*p0").MustSetUsage("b", "1*p1").
		MustSetUsage("c", "1*p23").MustSetUsage("d", "1*p0123")
	machine := oracle.Simulate(truth, 0, 1)
	machine.Model = machine.Model.WithFrontEnd(throughput.FrontEnd{InstructionsPerCycle: 2})
	for _, enc := range []Encoding{Bottleneck, Thesis} {
		cfg := DefaultConfig()
		cfg.Encoding, cfg.Epsilon, cfg.InstructionsPerCycle, cfg.MaxSize = enc, 0, 2, 3
		res, err := Infer(t.Context(), machine, truth.Instructions(), 4, cfg)
		if err != nil {
			t.Fatalf("%v: %v", enc, err)
		}
		got := throughput.NewModel(res.Mapping).WithFrontEnd(throughput.FrontEnd{InstructionsPerCycle: 2})
		multisets(truth.Instructions(), 3, func(e portmap.Experiment) {
			a, _ := got.Cycles(e)
			b, _ := machine.Model.Cycles(e)
			if math.Abs(a-b) > 1e-9 {
				t.Errorf("%v: %v: inferred %.4g cycles with the cap, the machine %.4g", enc, e, a, b)
			}
		})
	}
}

// TestUndecidedStops: when distinguishing experiments rule out neither
// mapping, the search stops with an *UndecidedError instead of measuring
// the same experiment for ever. Lowering the separation of a
// distinguishing experiment below 2ε·|e| provokes such experiments: the
// exact answer then often lies within ε·|e| of both predictions.
func TestUndecidedStops(t *testing.T) {
	needZ3(t)
	defer func(s float64) { separation = s }(separation)
	separation = 0.2
	truth := randomTwoLevel(4, 5, 2)
	cfg := DefaultConfig()
	cfg.Epsilon = 0.1
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	res, err := Infer(ctx, oracle.Simulate(truth, 0, 1), truth.Instructions(), 4, cfg)
	var ue *UndecidedError
	if !errors.As(err, &ue) {
		t.Fatalf("want an *UndecidedError, got %v (result %v)", err, res)
	}
	if res == nil || res.Mapping == nil || res.Complete {
		t.Errorf("want the latest mapping, not complete; got %v", res)
	}
	if len(ue.Undecided) != maxUndecided || !strings.Contains(err.Error(), "ruled out neither") {
		t.Errorf("error %v", err)
	}
	for _, u := range ue.Undecided {
		tol := cfg.Epsilon * float64(u.Measurement.Experiment.Len())
		p, q, c := u.Predicted[0], u.Predicted[1], u.Measurement.Cycles
		if math.Abs(p-c) > tol+1e-6 || math.Abs(q-c) > tol+1e-6 || math.Abs(p-q) <= separation*cfg.Epsilon*float64(u.Measurement.Experiment.Len()) {
			t.Errorf("%v = %v cycles with predictions %v, %v: not an undecided measurement", u.Measurement.Experiment, c, p, q)
		}
	}
	t.Log(err)
}
