package throughput

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestBalancedFig31(t *testing.T) {
	m := fig31(t)
	for _, c := range []struct {
		e    map[string]int
		want []float64
	}{
		{map[string]int{"add": 2, "mul": 1, "store": 1}, []float64{1.5, 1.5, 1}},
		{map[string]int{"add": 1, "store": 1}, []float64{0.5, 0.5, 1}},
		{map[string]int{"mul": 3, "add": 1}, []float64{3, 1, 0}},
	} {
		s, err := Balanced(m, exp(t, c.e))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(s.Pressure, c.want) {
			t.Errorf("%v: pressure %v, want %v", c.e, s.Pressure, c.want)
		}
	}
}

// TestBalancedIsOptimalAndEven checks on random cases that the balanced
// schedule is feasible, optimal, and at least as even as the LP's.
func TestBalancedIsOptimalAndEven(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for c := 0; c < 1500; c++ {
		m, e := randomCase(r, 1+r.IntN(10), 1+r.IntN(8), 1+r.IntN(6))
		b, err := Balanced(m, e)
		if err != nil {
			t.Fatalf("case %d: %v", c, err)
		}
		res, _ := Bottleneck(m, e)
		if math.Abs(b.Cycles-res.Cycles) > 1e-9 {
			t.Fatalf("case %d: balanced t = %v, bottleneck %v", c, b.Cycles, res.Cycles)
		}
		for _, p := range res.Bottleneck.Indices() {
			if math.Abs(b.Pressure[p]-res.Cycles) > 1e-9 {
				t.Fatalf("case %d: bottleneck port %d at %v, want %v", c, p, b.Pressure[p], res.Cycles)
			}
		}
		load := make([]float64, len(b.Pressure))
		for _, u := range b.Uops {
			sum := 0.0
			for k, v := range u.OnPort {
				if v < -1e-9 || (v > 1e-9 && !u.Ports.Has(k)) {
					t.Fatalf("case %d: µop %v has %v on port %d", c, u.Ports, v, k)
				}
				sum += v
				load[k] += v
			}
			if math.Abs(sum-u.Mass) > 1e-6 {
				t.Fatalf("case %d: µop %v distributed %v of %v", c, u.Ports, sum, u.Mass)
			}
		}
		for k := range load {
			if math.Abs(load[k]-b.Pressure[k]) > 1e-6 {
				t.Fatalf("case %d: port %d carries %v, pressure says %v", c, k, load[k], b.Pressure[k])
			}
		}
		lp, err := LP(m, e)
		if err != nil {
			t.Fatal(err)
		}
		bs, ls := desc(b.Pressure), desc(lp.Pressure)
		for i := range bs {
			if bs[i] < ls[i]-1e-9 {
				break
			}
			if bs[i] > ls[i]+1e-9 {
				t.Fatalf("case %d: balanced loads %v less even than the LP's %v", c, bs, ls)
			}
		}
	}
}

func desc(v []float64) []float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	slices.Reverse(s)
	return s
}

// TestPortLoadsAreBalancedPressure checks PortLoads against the pressure of
// Balanced on random cases, reusing one destination slice.
func TestPortLoadsAreBalancedPressure(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	var dst []float64
	for c := 0; c < 500; c++ {
		m, e := randomCase(r, 1+r.IntN(10), 1+r.IntN(8), 1+r.IntN(6))
		b, err := Balanced(m, e)
		if err != nil {
			t.Fatalf("case %d: %v", c, err)
		}
		dst, err = NewModel(m).PortLoads(e, dst)
		if err != nil {
			t.Fatalf("case %d: %v", c, err)
		}
		if !slices.Equal(dst, b.Pressure) {
			t.Fatalf("case %d %v: loads %v, balanced pressure %v", c, e, dst, b.Pressure)
		}
		var sum float64
		for _, l := range dst {
			sum += l
		}
		uops := 0.0
		for _, u := range b.Uops {
			uops += u.Mass
		}
		if math.Abs(sum-uops) > 1e-9 {
			t.Fatalf("case %d %v: loads sum to %v, the experiment has %v µops", c, e, sum, uops)
		}
	}
	if _, err := NewModel(fig31(t)).PortLoads(exp(t, map[string]int{"add": 1}).With("nop", 1), nil); err == nil {
		t.Error("PortLoads of an unmapped instruction: no error")
	}
}
