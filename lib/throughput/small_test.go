package throughput

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/portlab/portlab/lib/portmap"
)

// fastMethods are the methods of the fast path (small.go) on kinds ks;
// ok is false if a method does not apply to ks.
var fastMethods = []struct {
	name string
	run  func(ks *kinds) (bp uint32, ok bool)
}{
	{"solve", func(ks *kinds) (uint32, bool) { return ks.solve() }},
	{"enumAll", func(ks *kinds) (uint32, bool) {
		if ks.d > maxAllKinds {
			return 0, false
		}
		return ks.enumAll(bits.OnesCount32(ks.cover)), true
	}},
	{"enumFolded", func(ks *kinds) (uint32, bool) {
		var fd folded
		if ks.fold(&fd); fd.m > maxEnumKinds || fd.total >= 1<<23 {
			return 0, false
		}
		return fd.enumFolded(bits.OnesCount32(ks.cover)), true
	}},
	{"flow", func(ks *kinds) (uint32, bool) {
		var fd folded
		ks.fold(&fd)
		return fd.flow(bits.OnesCount32(ks.cover)), true
	}},
}

// randomKinds draws d µop kinds on nports ports. Masses are small, often
// zero and often equal, port sets often single ports or repeated, so that
// ties between several maximizers are common.
func randomKinds(r *rand.Rand, nports, d int) ([]portmap.PortSet, []int64) {
	masks := make([]portmap.PortSet, d)
	mass := make([]int64, d)
	for j := range masks {
		for masks[j] == 0 {
			switch s := portmap.PortSet(r.Uint64() & (1<<nports - 1)); r.IntN(4) {
			case 0:
				masks[j] = 1 << r.IntN(nports)
			case 1:
				masks[j] = s
			default: // 1 to 4 ports, as in real mappings
				for s.Len() > 1+r.IntN(4) {
					s &= s - 1
				}
				masks[j] = s
			}
		}
		if j > 0 && r.IntN(6) == 0 {
			masks[j] = masks[r.IntN(j)]
		}
		switch r.IntN(4) {
		case 0:
			mass[j] = int64(r.IntN(3))
		case 1:
			mass[j] = int64(1 + r.IntN(100))
		default:
			mass[j] = int64(1 + r.IntN(6))
		}
	}
	return masks, mass
}

// TestFastPathVsBruteForce checks every method of the fast path against the
// literal formula on random kinds over 1 to 16 ports, many with several
// maximizers, and on the same kinds shifted to high port numbers (the
// compressed cover).
func TestFastPathVsBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	n := 12000
	if testing.Short() {
		n = 2000
	}
	var ties int
	runs := make([]int, len(fastMethods))
	for c := 0; c < n; c++ {
		nports := 1 + c%16
		d := 1 + r.IntN(8)
		if r.IntN(4) == 0 {
			d = 1 + r.IntN(maxKinds)
		}
		if nports > 12 {
			d = min(d, 10) // keep the brute force fast
		}
		masks, mass := randomKinds(r, nports, d)
		if h := nports / 2; c%3 == 1 && h > 0 {
			// Two copies of the same kinds on disjoint ports: every
			// maximizer has a twin.
			masks, mass = randomKinds(r, h, min(d, 16, 2*h))
			for j := range masks {
				masks = append(masks, masks[j]<<h)
				mass = append(mass, mass[j])
			}
			d = len(masks)
		}
		bn, bd, bp := bruteForce(masks, mass, nports)
		if bn > 0 && bp.Len() > bd {
			ties++
		}
		shift := 0
		if c%3 == 0 {
			shift = r.IntN(64 - nports + 1)
		}
		var ks kinds
		shifted := make([]portmap.PortSet, d)
		for j := range masks {
			shifted[j] = masks[j] << shift
		}
		if !ks.gather(shifted, mass) {
			t.Fatalf("case %d: %d kinds on %d ports do not fit the fast path", c, d, nports)
		}
		for i, m := range fastMethods {
			got, ok := m.run(&ks)
			if !ok {
				continue
			}
			runs[i]++
			if ks.total == 0 {
				got = 0
			}
			num, den := ks.tally(got)
			b := portmap.PortSet(got)
			if ks.expand != 0 {
				b = expand(uint(got), ks.expand)
			}
			b >>= shift
			if bn == 0 {
				if num != 0 {
					t.Fatalf("case %d %s: %v %v: bound %d/%d, want 0", c, m.name, masks, mass, num, den)
				}
				continue
			}
			if num*int64(bd) != bn*int64(den) || b != bp || den != bp.Len() {
				t.Fatalf("case %d %s: %v %v on %d ports: %d/%d on %v, brute force %d/%d on %v",
					c, m.name, masks, mass, nports, num, den, b, bn, bd, bp)
			}
		}
	}
	t.Logf("%d cases, %d with several maximizers; method runs %v", n, ties, runs)
	if ties < n/4 {
		t.Errorf("only %d of %d cases have several maximizers", ties, n)
	}
	for i, k := range runs {
		if k < n/10 {
			t.Errorf("%s ran on only %d cases", fastMethods[i].name, k)
		}
	}
}

// TestFastPathLimits checks the hand-over to the general path: masses too
// large for the scaled arithmetic, more than 32 kinds or 16 ports, and an
// empty port set.
func TestFastPathLimits(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for c := 0; c < 300; c++ {
		nports := 1 + r.IntN(16)
		d := 1 + r.IntN(40)
		masks, mass := randomKinds(r, nports, d)
		switch c % 3 {
		case 0: // 16 ports need lcm(1..16) = 720720 units per µop
			for j := range mass {
				mass[j] *= 1000
			}
		case 1:
			for j := range mass {
				mass[j] = mass[j] << 20
			}
		}
		var ks kinds
		if ks.gather(masks, mass) {
			if _, ok := ks.solve(); !ok && ks.total <= (1<<31-1)/lcmTable[bits.OnesCount32(ks.cover)] {
				t.Fatalf("case %d: fast path refused %v %v", c, masks, mass)
			}
		}
		got := OfMasses(append([]portmap.PortSet(nil), masks...), append([]int64(nil), mass...))
		bn, bd, bp := bruteForce(masks, mass, nports)
		if got.Num*int64(bd) != bn*int64(got.Den) || (bn > 0 && got.Bottleneck != bp) {
			t.Fatalf("case %d: %v %v: OfMasses %d/%d on %v, brute force %d/%d on %v", c, masks, mass, got.Num, got.Den, got.Bottleneck, bn, bd, bp)
		}
	}
	// 17 ports cannot be compressed to 16.
	masks := make([]portmap.PortSet, 17)
	mass := make([]int64, 17)
	for j := range masks {
		masks[j], mass[j] = 1<<(3*j), 1
	}
	var ks kinds
	if ks.gather(masks, mass) {
		t.Fatal("17 ports gathered")
	}
	if r := OfMasses(masks, mass); r.Num != 17 || r.Den != 17 || r.Bottleneck.Len() != 17 {
		t.Fatalf("17 single ports: %+v", r)
	}
	if ks = (kinds{}); ks.gather([]portmap.PortSet{0, 1}, []int64{1, 1}) {
		t.Fatal("empty port set gathered")
	}
}

// randomExperiment draws an experiment of 1 to n draws from m's
// instructions, each adding 1 or 2 to a count.
func randomExperiment(t testing.TB, r *rand.Rand, m *portmap.Mapping, n int) portmap.Experiment {
	t.Helper()
	names := m.Instructions()
	counts := map[string]int{}
	for range 1 + r.IntN(n) {
		counts[names[r.IntN(len(names))]] += 1 + r.IntN(2)
	}
	e, err := portmap.ExperimentOf(counts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestEvaluateFastPath checks Model.Evaluate on the fast path (without the
// subset tables of subsets.go) against the same Model without its
// fast-path tables (the general gathering of µops), field by field, and
// against the general methods, on random three-level mappings with up to 16
// ports and experiments of 1 to 16 instructions.
func TestEvaluateFastPath(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	n := 3000
	if testing.Short() {
		n = 500
	}
	for c := 0; c < n; c++ {
		nports := 1 + r.IntN(16)
		m, _ := randomCase(r, nports, 1+r.IntN(30), 1)
		md := NewModel(m)
		if md.fast == nil {
			t.Fatalf("case %d: no fast path for %d ports", c, nports)
		}
		md.sub = nil // the subset tables have their own tests
		slow := *md
		slow.fast = nil
		e := randomExperiment(t, r, m, 16)
		x, err := md.Index(e)
		if err != nil {
			t.Fatal(err)
		}
		fe := FrontEnd{}
		if c%2 == 0 {
			fe = FrontEnd{InstructionsPerCycle: 4, UopsPerCycle: 6}
		}
		got := md.WithFrontEnd(fe).Evaluate(x.Terms)
		want := slow.WithFrontEnd(fe).Evaluate(x.Terms)
		if got != want {
			t.Fatalf("case %d %v: fast %+v, general gather %+v", c, e, got, want)
		}
		// The general methods (components, union enumeration, flow.go).
		masks, mass := massLists(t, m, e)
		if g := generalBound(masks, mass); g.Num != got.Num || g.Den != got.Den || g.Bottleneck != got.Bottleneck {
			t.Fatalf("case %d %v: fast %+v, general methods %+v", c, e, got, g)
		}
	}
}
