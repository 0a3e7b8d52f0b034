package resource

import (
	"context"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// toy is the port mapping of PALMED Fig. 1a on Skylake's ports 0, 1, 6.
func toy() *portmap.Mapping {
	m := portmap.MustMapping("fig1", "0", "1", "6")
	return m.MustSetUsage("DIVPS", "1*p0").MustSetUsage("VCVTT", "2*p01").
		MustSetUsage("ADDSS", "1*p01").MustSetUsage("BSR", "1*p1").
		MustSetUsage("JNLE", "1*p06").MustSetUsage("JMP", "1*p6")
}

func rat(s string) *big.Rat {
	v, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return v
}

func exp(t testing.TB, counts map[string]int) portmap.Experiment {
	e, err := portmap.ExperimentOf(counts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestToyClosureAndDual(t *testing.T) {
	pm := toy()
	var names []string
	for _, s := range NablaClosure(pm) {
		names = append(names, SetName(pm, s))
	}
	if got, want := strings.Join(names, " "), "r0 r1 r6 r01 r06 r016"; got != want {
		t.Fatalf("closure = %s, want %s", got, want)
	}
	d := DualClosure(pm)
	// The normalised dual table of the notes (§1.3), checked exactly.
	want := map[string]map[string]string{
		"DIVPS": {"r0": "1", "r01": "1/2", "r06": "1/2", "r016": "1/3"},
		"VCVTT": {"r01": "1", "r016": "2/3"},
		"ADDSS": {"r01": "1/2", "r016": "1/3"},
		"BSR":   {"r1": "1", "r01": "1/2", "r016": "1/3"},
		"JNLE":  {"r06": "1/2", "r016": "1/3"},
		"JMP":   {"r6": "1", "r06": "1/2", "r016": "1/3"},
	}
	for insn, loads := range want {
		for _, r := range d.Resources() {
			w := "0"
			if s, ok := loads[r]; ok {
				w = s
			}
			if got := d.Load(insn, r); got.Cmp(rat(w)) != 0 {
				t.Errorf("ρ(%s, %s) = %s, want %s", insn, r, got.RatString(), w)
			}
		}
	}
	for _, c := range []struct {
		k          map[string]int
		ipc, bneck string
	}{
		{map[string]int{"ADDSS": 2, "BSR": 1}, "2", "r01"},
		{map[string]int{"ADDSS": 1, "BSR": 2}, "3/2", "r1"},
		{map[string]int{"ADDSS": 2, "JNLE": 2}, "3", "r016"},
	} {
		e := exp(t, c.k)
		cyc, arg, err := d.CyclesExact(e)
		if err != nil {
			t.Fatal(err)
		}
		ipc := new(big.Rat).Quo(big.NewRat(int64(e.Len()), 1), cyc)
		if ipc.Cmp(rat(c.ipc)) != 0 || d.Resources()[arg] != c.bneck {
			t.Errorf("%v: IPC %s, bottleneck %s; want %s, %s", e, ipc.RatString(), d.Resources()[arg], c.ipc, c.bneck)
		}
	}
}

// randomMapping returns a random port mapping on 1..10 ports with 1..6
// instructions of 1..3 µops.
func randomMapping(rng *rand.Rand) *portmap.Mapping {
	n := 1 + rng.IntN(10)
	ports := make([]string, n)
	for k := range ports {
		ports[k] = string(rune('a' + k))
	}
	m := portmap.MustMapping("random", ports...)
	insns := 1 + rng.IntN(6)
	for i := 0; i < insns; i++ {
		var uops []portmap.Uop
		for u := 1 + rng.IntN(3); u > 0; u-- {
			s := portmap.PortSet(1 + rng.Uint64N(1<<uint(n)-1))
			uops = append(uops, portmap.Uop{Ports: s, Count: 1 + rng.IntN(3)})
		}
		if err := m.Set(string(rune('A'+i)), uops...); err != nil {
			panic(err)
		}
	}
	return m
}

// TestDualityProperty checks Thm A.2 and the closure claim on random
// cases: the dual over all port subsets and over the ∇-closure give
// exactly (as rationals) the bottleneck throughput of the port mapping,
// and a dual over a smaller ∇ never gives more cycles (Thm A.1).
func TestDualityProperty(t *testing.T) {
	const cases = 10000
	start := time.Now()
	rng := rand.New(rand.NewPCG(14, 2022))
	for c := 0; c < cases; c++ {
		pm := randomMapping(rng)
		model := throughput.NewModel(pm)
		all, err := Dual(pm, NablaAll(pm.NumPorts()))
		if err != nil {
			t.Fatal(err)
		}
		clos := DualClosure(pm)
		// A ∇ of the µops' own port sets only, without unions.
		var own []portmap.PortSet
		seen := map[portmap.PortSet]bool{}
		for _, insn := range pm.Instructions() {
			uops, _ := pm.Uops(insn)
			for _, u := range uops {
				if !seen[u.Ports] {
					seen[u.Ports] = true
					own = append(own, u.Ports)
				}
			}
		}
		small, err := Dual(pm, own)
		if err != nil {
			t.Fatal(err)
		}
		insns := pm.Instructions()
		counts := map[string]int{}
		for k := 1 + rng.IntN(5); k > 0; k-- {
			counts[insns[rng.IntN(len(insns))]] += 1 + rng.IntN(4)
		}
		e := exp(t, counts)
		res, err := model.InvThroughput(e)
		if err != nil {
			t.Fatal(err)
		}
		truth := big.NewRat(res.Num, int64(res.Den))
		for _, d := range []struct {
			name string
			m    *Mapping
		}{{"all subsets", all}, {"closure", clos}} {
			got, _, err := d.m.CyclesExact(e)
			if err != nil {
				t.Fatal(err)
			}
			if got.Cmp(truth) != 0 {
				t.Fatalf("case %d, %v on\n%v: dual over %s gives %s cycles, port mapping %s", c, e, pm, d.name, got.RatString(), truth.RatString())
			}
		}
		got, _, _ := small.CyclesExact(e)
		if got.Cmp(truth) > 0 {
			t.Fatalf("case %d, %v on\n%v: dual over the µop port sets gives %s > %s cycles", c, e, pm, got.RatString(), truth.RatString())
		}
	}
	t.Logf("%d cases in %v", cases, time.Since(start))
}

func TestJSONRoundTrip(t *testing.T) {
	d := DualClosure(toy())
	dir := t.TempDir()
	for _, normalized := range []bool{true, false} {
		path := filepath.Join(dir, "m.json")
		if err := d.WriteFile(path, normalized); err != nil {
			t.Fatal(err)
		}
		back, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, insn := range d.Instructions() {
			for _, r := range d.Resources() {
				if a, b := d.Load(insn, r), back.Load(insn, r); a.Cmp(b) != 0 {
					t.Errorf("normalized=%v: ρ(%s,%s) = %s after round trip, want %s", normalized, insn, r, b.RatString(), a.RatString())
				}
			}
		}
	}
	// Non-normalised form of Fig. 1b: throughputs and whole uses.
	f := d.File(false)
	thr := map[string]string{}
	for _, r := range f.Resources {
		thr[r.Name] = r.Throughput
	}
	if thr["r01"] != "2" || thr["r016"] != "3" || thr["r0"] != "1" {
		t.Errorf("throughputs %v, want r01 2, r016 3, r0 1", thr)
	}
	for _, fi := range f.Instructions {
		if fi.Name == "VCVTT" && (fi.Loads["r01"] != "2" || fi.Loads["r016"] != "2") {
			t.Errorf("VCVTT uses %v, want r01 2, r016 2", fi.Loads)
		}
	}
}

func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		json, want string
	}{
		{`{"resources":[{"name":"r"}],"instructions":[{"name":"a","loads":{"s":"1"}}]}`, `unknown resource "s"`},
		{`{"resources":[{"name":"r"}],"instructions":[{"name":"a","loads":{"r":"x"}}]}`, `load "x" on "r"`},
		{`{"resources":[{"name":"r","throughput":"0"}],"instructions":[]}`, `throughput "0"`},
		{`{"resources":[{"name":"r"},{"name":"r"}]}`, `resource "r" given twice`},
		{`{"resources":[{"name":"r"}],"instructions":[{"name":"a","loads":{"r":"-1"}}]}`, `negative load -1`},
	} {
		var m Mapping
		err := m.UnmarshalJSON([]byte(c.json))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.json, err, c.want)
		}
	}
	d := DualClosure(toy())
	if _, err := Dual(toy(), []portmap.PortSet{portmap.Ports(5)}); err == nil || !strings.Contains(err.Error(), "∇ element 0") {
		t.Errorf("Dual with a port outside: %v", err)
	}
	vals, err := d.Predict(context.Background(), []portmap.Experiment{portmap.NewExperiment("ADDSS"), portmap.NewExperiment("NOPE", "ADDSS")})
	var ue *oracle.UnsupportedError
	if !errors.As(err, &ue) || len(ue.Failures) != 1 || ue.Failures[0].Insn != "NOPE" || !math.IsNaN(vals[1]) || vals[0] != 0.5 {
		t.Errorf("Predict = %v, %v; want [0.5 NaN] and NOPE unsupported", vals, err)
	}
}

func TestRational(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{{1.0 / 3, "1/3"}, {0.6666667, "2/3"}, {2, "2"}, {0.25000001, "1/4"}, {0, "0"}, {-1, "0"}} {
		if got := Rational(c.x, 1e-6).RatString(); got != c.want {
			t.Errorf("Rational(%v) = %s, want %s", c.x, got, c.want)
		}
	}
}

func TestExplain(t *testing.T) {
	d := DualClosure(toy())
	x, err := d.Explain(exp(t, map[string]int{"ADDSS": 1, "BSR": 2}))
	if err != nil {
		t.Fatal(err)
	}
	if x.Bottleneck != "r1" || x.IPC != 1.5 || x.Usage[0].Resource != "r1" || x.Usage[0].Utilisation != 1 {
		t.Errorf("Explain = %v", x)
	}
	if !strings.Contains(d.HTML(), "<th>r016</th>") || !strings.Contains(d.String(), "2/3") {
		t.Errorf("renderings lack the resources or loads:\n%s", d)
	}
}
