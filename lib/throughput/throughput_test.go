package throughput

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/portlab/portlab/lib/portmap"
)

// fig31 is the two-level mapping of thesis Fig. 3.1.
func fig31(t testing.TB) *portmap.Mapping {
	m := portmap.MustMapping("fig3.1", "p1", "p2", "p3")
	for _, s := range []struct{ insn, usage string }{
		{"mul", "1*[p1]"}, {"add", "1*[p1,p2]"}, {"sub", "1*p12"}, {"store", "1*p3"},
	} {
		if err := m.SetUsage(s.insn, s.usage); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// fig33 is the three-level mapping of thesis Fig. 3.3 (u1 → {p1}, u3 → {p3}).
func fig33(t testing.TB) *portmap.Mapping {
	m := portmap.MustMapping("fig3.3", "p1", "p2", "p3")
	m.MustSetUsage("mul", "2*p1").MustSetUsage("add", "p12").MustSetUsage("sub", "p12").MustSetUsage("store", "p12+p3")
	return m
}

func exp(t testing.TB, counts map[string]int) portmap.Experiment {
	e, err := portmap.ExperimentOf(counts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestGoldenVectors(t *testing.T) {
	p := func(m *portmap.Mapping, names ...string) portmap.PortSet {
		s, err := m.Arch().PortSet(names...)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	m1, m3 := fig31(t), fig33(t)
	facile := portmap.MustMapping("facile", "1", "2", "3", "4")
	facile.MustSetUsage("A", "p12").MustSetUsage("B", "p23").MustSetUsage("C", "p24")
	cases := []struct {
		name   string
		m      *portmap.Mapping
		e      map[string]int
		cycles float64
		bp     []string
	}{
		{"Ex3.8", m1, map[string]int{"add": 2, "mul": 1, "store": 1}, 1.5, []string{"p1", "p2"}},
		{"singleton mul", m1, map[string]int{"mul": 1}, 1, []string{"p1"}},
		{"singleton add", m1, map[string]int{"add": 1}, 0.5, []string{"p1", "p2"}},
		{"ties union", m1, map[string]int{"add": 2, "store": 1}, 1, []string{"p1", "p2", "p3"}},
		{"Fig3.3 mix", m3, map[string]int{"add": 2, "mul": 1, "store": 1}, 2.5, []string{"p1", "p2"}},
		{"Fig3.3 add+store", m3, map[string]int{"add": 2, "store": 1}, 1.5, []string{"p1", "p2"}},
		{"Fig3.3 add+sub+mul", m3, map[string]int{"add": 1, "sub": 1, "mul": 1}, 2, []string{"p1", "p2"}},
		{"Fig3.3 mul", m3, map[string]int{"mul": 1}, 2, []string{"p1"}},
		{"Facile counter-example", facile, map[string]int{"A": 1, "B": 1, "C": 1}, 0.75, []string{"1", "2", "3", "4"}},
	}
	for _, c := range cases {
		r, err := Bottleneck(c.m, exp(t, c.e))
		if err != nil {
			t.Fatal(err)
		}
		if r.Cycles != c.cycles {
			t.Errorf("%s: cycles %v, want %v", c.name, r.Cycles, c.cycles)
		}
		if want := p(c.m, c.bp...); r.Bottleneck != want {
			t.Errorf("%s: bottleneck %v, want %v", c.name, r.Bottleneck, want)
		}
		if float64(r.Num)/float64(r.Den) != c.cycles || r.Den != r.Bottleneck.Len() {
			t.Errorf("%s: Num/Den = %d/%d with |BP| = %d", c.name, r.Num, r.Den, r.Bottleneck.Len())
		}
		s, err := LP(c.m, exp(t, c.e))
		if err != nil {
			t.Fatal(err)
		}
		if s.Cycles != c.cycles {
			t.Errorf("%s: LP cycles %v, want %v", c.name, s.Cycles, c.cycles)
		}
		if !r.Bottleneck.SubsetOf(s.Tight()) {
			t.Errorf("%s: bottleneck %v not tight in LP schedule (tight %v)", c.name, r.Bottleneck, s.Tight())
		}
	}
}

func TestLPSchedule(t *testing.T) {
	m := fig31(t)
	s, err := LP(m, exp(t, map[string]int{"add": 2, "mul": 1, "store": 1}))
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for k, p := range s.Pressure {
		if p > s.Cycles+1e-9 {
			t.Errorf("port %s load %v exceeds t = %v", s.Ports[k], p, s.Cycles)
		}
		sum += p
	}
	if math.Abs(sum-4) > 1e-9 {
		t.Errorf("total load %v, want 4 µops", sum)
	}
	for _, u := range s.Uops {
		got := 0.0
		for k, v := range u.OnPort {
			if v < -1e-9 || (v > 1e-9 && !u.Ports.Has(k)) {
				t.Errorf("µop %v: %v on port %d", u.Ports, v, k)
			}
			got += v
		}
		if math.Abs(got-u.Mass) > 1e-9 {
			t.Errorf("µop %v: distributed %v of %v", u.Ports, got, u.Mass)
		}
	}
}

func TestUnknownInstruction(t *testing.T) {
	_, err := Bottleneck(fig31(t), portmap.NewExperiment("add", "div"))
	if err == nil || !contains(err.Error(), `"div"`) {
		t.Fatalf("error %v, want one naming \"div\"", err)
	}
	if _, err := LP(fig31(t), portmap.NewExperiment("nop")); err == nil {
		t.Fatal("LP accepted an unknown instruction")
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestEmptyAndZeroUop(t *testing.T) {
	m := fig31(t)
	if err := m.Set("nop"); err != nil {
		t.Fatal(err)
	}
	md := NewModel(m)
	for _, e := range []portmap.Experiment{{}, portmap.NewExperiment("nop", "nop")} {
		r, err := md.InvThroughput(e)
		if err != nil {
			t.Fatal(err)
		}
		if r.Cycles != 0 || r.Num != 0 || r.Bottleneck != 0 {
			t.Errorf("%v: %+v, want 0 cycles and no bottleneck", e, r)
		}
	}
	r, _ := md.WithFrontEnd(FrontEnd{InstructionsPerCycle: 4}).InvThroughput(portmap.NewExperiment("nop", "nop"))
	if r.Cycles != 0.5 || r.Bound != InstructionBound {
		t.Errorf("2 NOPs at 4 IPC: %+v, want 0.5 cycles, instruction bound", r)
	}
}

func TestFrontEnd(t *testing.T) {
	// Thesis Fig. 3.8: 4 add + 2 mov on Skylake: the ports allow 1 cycle, the
	// 4-wide retirement 1.5 cycles.
	m := portmap.MustMapping("SKL", "0", "1", "2", "3", "4", "5", "6", "7")
	m.MustSetUsage("add", "1*p0156").MustSetUsage("mov", "1*p23")
	e := exp(t, map[string]int{"add": 4, "mov": 2})
	md := NewModel(m)
	r, _ := md.InvThroughput(e)
	if r.Cycles != 1 || r.Bound != PortBound {
		t.Fatalf("ports only: %+v", r)
	}
	r, _ = md.WithFrontEnd(FrontEnd{InstructionsPerCycle: 4}).InvThroughput(e)
	if r.Cycles != 1.5 || r.Bound != InstructionBound || r.PortCycles() != 1 {
		t.Fatalf("4 IPC: %+v", r)
	}
	m.MustSetUsage("add2", "2*p0156")
	r, _ = NewModel(m).WithFrontEnd(FrontEnd{UopsPerCycle: 3}).InvThroughput(portmap.NewExperiment("add2", "add2"))
	if r.Cycles != 4.0/3 || r.Bound != UopBound {
		t.Fatalf("3 µops/cycle: %+v", r)
	}
}

// bruteForce is the literal formula (5.1): max over all non-empty Q ⊆ P.
func bruteForce(masks []portmap.PortSet, mass []int64, nports int) (int64, int, portmap.PortSet) {
	bn, bd, bp := int64(0), 1, portmap.PortSet(0)
	for q := uint64(1); q < 1<<nports; q++ {
		var num int64
		for j, mk := range masks {
			if uint64(mk)&^q == 0 {
				num += mass[j]
			}
		}
		den := bits.OnesCount64(q)
		switch {
		case num*int64(bd) > bn*int64(den):
			bn, bd, bp = num, den, portmap.PortSet(q)
		case num*int64(bd) == bn*int64(den) && num > 0:
			bp |= portmap.PortSet(q)
		}
	}
	return bn, bd, bp
}

// massLists returns the µop mass of e under m as parallel lists.
func massLists(t testing.TB, m *portmap.Mapping, e portmap.Experiment) ([]portmap.PortSet, []int64) {
	t.Helper()
	massMap, err := m.UopMass(e)
	if err != nil {
		t.Fatal(err)
	}
	var masks []portmap.PortSet
	var mass []int64
	for mk, w := range massMap {
		masks, mass = append(masks, mk), append(mass, w)
	}
	return masks, mass
}

// randomCase draws a random three-level mapping and experiment.
func randomCase(r *rand.Rand, nports, ninsn, length int) (*portmap.Mapping, portmap.Experiment) {
	ports := make([]string, nports)
	for k := range ports {
		ports[k] = string(rune('A'+k%26)) + string(rune('0'+k/26))
	}
	m := portmap.MustMapping("rand", ports...)
	all := uint64(1)<<nports - 1
	for i := 0; i < ninsn; i++ {
		nu := 1 + r.IntN(3)
		uops := make([]portmap.Uop, nu)
		for j := range uops {
			var s uint64
			for s == 0 {
				// Mostly small port sets, as in real mappings.
				s = r.Uint64() & all
				for s != 0 && bits.OnesCount64(s) > 1+r.IntN(4) {
					s &= s - 1
				}
			}
			uops[j] = portmap.Uop{Ports: portmap.PortSet(s), Count: 1 + r.IntN(3)}
		}
		if err := m.Set("i"+string(rune('a'+i%26))+string(rune('a'+i/26)), uops...); err != nil {
			panic(err)
		}
	}
	names := m.Instructions()
	list := make([]string, length)
	for j := range list {
		list[j] = names[r.IntN(len(names))]
	}
	return m, portmap.NewExperiment(list...)
}

func TestBottleneckMatchesLPAndBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 10000
	if testing.Short() {
		n = 2000
	}
	for c := 0; c < n; c++ {
		nports := 1 + c%16
		m, e := randomCase(r, nports, 1+r.IntN(12), 1+r.IntN(8))
		res, err := Bottleneck(m, e)
		if err != nil {
			t.Fatal(err)
		}
		// A Model also takes the subset tables of subsets.go (Bottleneck
		// does not): the same Result, field by field.
		if got, err := NewModel(m).InvThroughput(e); err != nil || got != res {
			t.Fatalf("case %d (%d ports, %v): Model %+v (%v), Bottleneck %+v", c, nports, e, got, err, res)
		}
		s, err := LP(m, e)
		if err != nil {
			t.Fatalf("case %d: %v", c, err)
		}
		if math.Abs(s.LPValue-res.Cycles) > 1e-9*math.Max(1, res.Cycles) {
			t.Fatalf("case %d (%d ports, %v): LP %v, bottleneck %v\n%v", c, nports, e, s.LPValue, res.Cycles, m)
		}
		if !res.Bottleneck.SubsetOf(s.Tight()) {
			t.Fatalf("case %d: bottleneck %v not tight in the LP (tight %v)", c, res.Bottleneck, s.Tight())
		}
		if nports <= 12 {
			masks, mass := massLists(t, m, e)
			bn, bd, bp := bruteForce(masks, mass, nports)
			if bn*int64(res.Den) != res.Num*int64(bd) || bp != res.Bottleneck {
				t.Fatalf("case %d: brute force %d/%d %v, got %d/%d %v", c, bn, bd, bp, res.Num, res.Den, res.Bottleneck)
			}
		}
	}
}

// TestMethodsAgree checks the union enumeration, the subset-sum transform and
// the LP fallback against each other on experiments with many distinct µops.
func TestMethodsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for c := 0; c < 3000; c++ {
		nports := 2 + r.IntN(14)
		d := 1 + r.IntN(24)
		seen := map[portmap.PortSet]bool{}
		var masks []portmap.PortSet
		var mass []int64
		for len(masks) < d {
			s := portmap.PortSet(r.Uint64() & (1<<nports - 1))
			if s == 0 || seen[s] {
				if len(seen) >= 1<<nports-1 {
					break
				}
				continue
			}
			seen[s] = true
			masks, mass = append(masks, s), append(mass, 1+r.Int64N(20))
		}
		var cover portmap.PortSet
		for _, mk := range masks {
			cover |= mk
		}
		u := portBound(append([]portmap.PortSet(nil), masks...), append([]int64(nil), mass...))
		z := onBottleneck(zetaBound(masks, mass, cover))
		if sr := onBottleneck(searchBound(append([]portmap.PortSet(nil), masks...), append([]int64(nil), mass...), cover)); sr.Num != z.Num || sr.Den != z.Den || sr.Bottleneck != z.Bottleneck {
			t.Fatalf("case %d: search %+v, zeta %+v", c, sr, z)
		}
		if fr, ok := flowBound(masks, mass, cover); ok && (fr.Num != z.Num || fr.Den != z.Den || fr.Bottleneck != z.Bottleneck) {
			t.Fatalf("case %d: flow %+v, zeta %+v", c, fr, z)
		}
		f := lpBound(masks, mass, cover)
		bn, bd, bp := bruteForce(masks, mass, nports)
		if bn*int64(u.Den) != u.Num*int64(bd) || bp != u.Bottleneck {
			t.Fatalf("case %d: brute force %d/%d %v, search %+v", c, bn, bd, bp, u)
		}
		if u.Num != z.Num || u.Den != z.Den || u.Bottleneck != z.Bottleneck || u.Num*int64(f.Den) != f.Num*int64(u.Den) || !u.Bottleneck.SubsetOf(f.Bottleneck) {
			t.Fatalf("case %d: union %+v, zeta %+v, LP %+v", c, u, z, f)
		}
	}
}

func TestPredictParallel(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	m, _ := randomCase(r, 10, 40, 1)
	names := m.Instructions()
	exps := make([]portmap.Experiment, 20000)
	for i := range exps {
		l := make([]string, 5)
		for j := range l {
			l[j] = names[r.IntN(len(names))]
		}
		exps[i] = portmap.NewExperiment(l...)
	}
	got, err := Predict(t.Context(), m, exps)
	if err != nil {
		t.Fatal(err)
	}
	md := NewModel(m)
	for i, e := range exps {
		want, _ := md.Cycles(e)
		if got[i] != want {
			t.Fatalf("experiment %d: parallel %v, serial %v", i, got[i], want)
		}
	}
	exps = append(exps, portmap.NewExperiment("unknown"))
	if _, err := Predict(t.Context(), m, exps); err == nil || !contains(err.Error(), "experiment 20000") {
		t.Fatalf("error %v, want one naming experiment 20000", err)
	}
}

// TestOfMasses checks the exported mass-level entry point, with repeated
// masks and more than 32 of them, against brute force.
func TestOfMasses(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for c := 0; c < 2000; c++ {
		nports := 1 + r.IntN(10)
		n := 1 + r.IntN(40)
		masks := make([]portmap.PortSet, n)
		mass := make([]int64, n)
		for j := range masks {
			for masks[j] == 0 {
				masks[j] = portmap.PortSet(r.Uint64() & (1<<nports - 1))
			}
			if j > 0 && r.IntN(4) == 0 {
				masks[j] = masks[r.IntN(j)]
			}
			mass[j] = int64(r.IntN(5))
		}
		bn, bd, bp := bruteForce(append([]portmap.PortSet(nil), masks...), append([]int64(nil), mass...), nports)
		got := OfMasses(masks, mass)
		if bn*int64(got.Den) != got.Num*int64(bd) || (bn > 0 && bp != got.Bottleneck) {
			t.Fatalf("case %d: brute force %d/%d %v, OfMasses %d/%d %v", c, bn, bd, bp, got.Num, got.Den, got.Bottleneck)
		}
		if got.Cycles != float64(got.Num)/float64(got.Den) {
			t.Fatalf("case %d: Cycles %v for %d/%d", c, got.Cycles, got.Num, got.Den)
		}
	}
}
