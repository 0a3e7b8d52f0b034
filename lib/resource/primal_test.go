package resource

import (
	"errors"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

func TestPortMappingToy(t *testing.T) {
	d := DualClosure(toy())
	pm, compact, err := PortMapping(d)
	if err != nil || !compact {
		t.Fatal(compact, err)
	}
	if pm.NumPorts() != 3 {
		t.Errorf("%d ports, want 3:\n%v", pm.NumPorts(), pm)
	}
	if ok, why := Equivalent(DualClosure(pm), d); !ok {
		t.Errorf("the port mapping's dual differs: %s\n%v", why, pm)
	}
	// VCVTT is two µops on the ports of ADDSS.
	v, _ := pm.Uops("VCVTT")
	a, _ := pm.Uops("ADDSS")
	if len(v) != 1 || v[0].Count != 2 || len(a) != 1 || v[0].Ports != a[0].Ports || a[0].Ports.Len() != 2 {
		t.Errorf("VCVTT %v, ADDSS %v; want 2×J and 1×J with |J| = 2", v, a)
	}
}

// twoLevel returns a random two-level port mapping on 1..10 ports: 1..8
// instructions, each one µop (1..3 times) on a random port set.
func twoLevel(rng *rand.Rand) *portmap.Mapping {
	n := 1 + rng.IntN(10)
	ports := make([]string, n)
	for k := range ports {
		ports[k] = string(rune('a' + k))
	}
	m := portmap.MustMapping("two-level", ports...)
	for i := 1 + rng.IntN(8); i > 0; i-- {
		s := portmap.PortSet(1 + rng.Uint64N(1<<uint(n)-1))
		if err := m.Set(string(rune('A'+i)), portmap.Uop{Ports: s, Count: 1 + rng.IntN(3)}); err != nil {
			panic(err)
		}
	}
	return m
}

// TestPortMappingProperty: for random port mappings, the port mapping
// recovered from the dual over the ∇-closure has the same bottleneck
// throughput, as exact rationals, on random experiments, and its own dual
// is equivalent. Two-level mappings are always recovered on at most the
// truth's ports in most cases. These random mappings are harder than
// real ones: µops on arbitrary port sets of up to 10 ports give closures
// of 20–30 resources for a handful of instructions (Skylake's has 13, see
// TestPortMappingSkylake), on which the search can give up; the error then
// says why.
func TestPortMappingProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 14))
	for _, c := range []struct {
		name     string
		gen      func(*rand.Rand) *portmap.Mapping
		cases    int
		minFound float64 // share recovered
		minFewer float64 // share recovered on at most the truth's ports
	}{
		{"two-level", twoLevel, 600, 0.8, 0.6},
		{"three-level", randomMapping, 200, 0.6, 0.4},
	} {
		start := time.Now()
		found, compact, fewer := 0, 0, 0
		for k := 0; k < c.cases; k++ {
			pm := c.gen(rng)
			d := DualClosure(pm)
			back, ok, err := PortMapping(d)
			var nd *NotDualError
			if errors.As(err, &nd) {
				continue
			}
			if err != nil {
				t.Fatalf("%s case %d: %v\n%v", c.name, k, err, pm)
			}
			found++
			if ok {
				compact++
			}
			if back.NumPorts() <= pm.NumPorts() {
				fewer++
			}
			checkSameThroughput(t, rng, pm, back)
			if ok, why := Equivalent(DualClosure(back), d); !ok {
				t.Fatalf("%s case %d: %s\ntruth\n%v\nrecovered\n%v", c.name, k, why, pm, back)
			}
		}
		t.Logf("%s: %d cases in %v: %d recovered (%d compact), %d on at most the truth's ports",
			c.name, c.cases, time.Since(start), found, compact, fewer)
		if float64(found) < c.minFound*float64(c.cases) || float64(fewer) < c.minFewer*float64(c.cases) {
			t.Errorf("%s: %d of %d recovered, %d on at most the truth's ports; want at least %.0f%% and %.0f%%",
				c.name, found, c.cases, fewer, 100*c.minFound, 100*c.minFewer)
		}
	}
}

// checkSameThroughput compares a and b on random experiments, exactly.
func checkSameThroughput(t *testing.T, rng *rand.Rand, a, b *portmap.Mapping) {
	t.Helper()
	ma, mb := throughput.NewModel(a), throughput.NewModel(b)
	insns := a.Instructions()
	for x := 0; x < 5; x++ {
		counts := map[string]int{}
		for k := 1 + rng.IntN(5); k > 0; k-- {
			counts[insns[rng.IntN(len(insns))]] += 1 + rng.IntN(4)
		}
		e := exp(t, counts)
		ra, err1 := ma.InvThroughput(e)
		rb, err2 := mb.InvThroughput(e)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if big.NewRat(ra.Num, int64(ra.Den)).Cmp(big.NewRat(rb.Num, int64(rb.Den))) != 0 {
			t.Fatalf("%v: %d/%d cycles on\n%v\nbut %d/%d on the recovered\n%v", e, ra.Num, ra.Den, a, rb.Num, rb.Den, b)
		}
	}
}

// The uops.info mapping of Skylake comes back on as many ports.
func TestPortMappingSkylake(t *testing.T) {
	truth, err := dataset.Mapping("pmevo:SKL/uops_info")
	if err != nil {
		t.Skip(err)
	}
	d := DualClosure(truth)
	back, compact, err := PortMapping(d)
	if err != nil || !compact || back.NumPorts() != truth.NumPorts() {
		t.Fatalf("compact %v on %v ports (truth %d): %v", compact, back, truth.NumPorts(), err)
	}
	if ok, why := Equivalent(DualClosure(back), d); !ok {
		t.Error(why)
	}
	checkSameThroughput(t, rand.New(rand.NewPCG(1, 2)), truth, back)
}

func TestPortMappingNotDual(t *testing.T) {
	// 1/65 needs a port set of 65 ports.
	m := MustNew("lcm", "r").MustSetLoad("a", "r", "2/5").MustSetLoad("b", "r", "1/65")
	pm, _, err := PortMapping(m)
	var nd *NotDualError
	if !errors.As(err, &nd) || !strings.Contains(err.Error(), "more than 64 ports") {
		t.Errorf("%v, %v; want a NotDualError about 64 ports", pm, err)
	}
	// Two resources of 60 ports each on a whole.
	m = MustNew("big", "r", "s").MustSetLoad("a", "r", "1/60").MustSetLoad("a", "s", "1/59").MustSetLoad("b", "s", "2/59")
	if pm, _, err = PortMapping(m); !errors.As(err, &nd) || !strings.Contains(err.Error(), "need 119 ports") {
		t.Errorf("%v, %v; want a NotDualError about 119 ports", pm, err)
	}
	// A mapping with loads unlike any compact dual still has the plain one.
	m = MustNew("plain", "r", "s").MustSetLoad("a", "r", "1/2").MustSetLoad("a", "s", "1/3").MustSetLoad("b", "r", "3/2")
	pm, _, err = PortMapping(m)
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := Equivalent(DualClosure(pm), m); !ok {
		t.Errorf("recovered mapping not equivalent: %s\n%v", why, pm)
	}
}

func TestEquivalent(t *testing.T) {
	d := DualClosure(toy())
	other := d.Clone()
	other.MustSetLoad("ADDSS", "r01", "1")
	if ok, why := Equivalent(d, other); ok || !strings.Contains(why, "r01") {
		t.Errorf("Equivalent with a changed load: %v, %q", ok, why)
	}
	// A resource dominated by another changes nothing.
	more := d.Clone()
	more.AddResource("r01'")
	more.MustSetLoad("ADDSS", "r01'", "1/2").MustSetLoad("VCVTT", "r01'", "1/2")
	if ok, why := Equivalent(d, more); !ok {
		t.Errorf("with a dominated resource: %s", why)
	}
}
