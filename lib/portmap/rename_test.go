package portmap

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"
	"time"
)

// fig39 is the mapping of thesis Fig. 3.9: Fig. 3.1 under the renaming
// p1 ↦ p3, p2 ↦ p1, p3 ↦ p2.
func fig39() *Mapping {
	m := MustMapping("fig3.9", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p3]")
	m.MustSetUsage("add", "1*[p3,p1]")
	m.MustSetUsage("sub", "1*[p1,p3]")
	m.MustSetUsage("store", "1*[p2]")
	return m
}

// checkPerm fails unless perm renames a into b: a.Renamed(perm) with b's port
// names has b's decompositions.
func checkPerm(t testing.TB, a, b *Mapping, perm []int) {
	t.Helper()
	r, err := a.Renamed(perm, b.Ports())
	if err != nil {
		t.Fatalf("Renamed(%v): %v", perm, err)
	}
	for _, n := range a.Instructions() {
		ru, _ := r.Uops(n)
		bu, _ := b.Uops(n)
		if !reflect.DeepEqual(ru, bu) {
			t.Fatalf("perm %v maps %s to %v, b has %v", perm, n, ru, bu)
		}
	}
}

func TestEquivalentByRenamingFig39(t *testing.T) {
	a, b := fig31(), fig39()
	perm, ok := EquivalentByRenaming(a, b)
	if !ok {
		t.Fatal("Fig. 3.9 mappings are equivalent by renaming")
	}
	// p1 (0) ↦ p3 (2), p2 (1) ↦ p1 (0), p3 (2) ↦ p2 (1); unique, since no
	// port of Fig. 3.1 can be swapped with another.
	if !reflect.DeepEqual(perm, []int{2, 0, 1}) {
		t.Errorf("perm = %v, want [2 0 1]", perm)
	}
	checkPerm(t, a, b, perm)
	// And back: the inverse permutation.
	inv, ok := EquivalentByRenaming(b, a)
	if !ok || !reflect.DeepEqual(inv, []int{1, 2, 0}) {
		t.Errorf("reverse = %v, %v; want [1 2 0]", inv, ok)
	}
	// Renamed produces Fig. 3.9 from Fig. 3.1 with the thesis's renaming.
	r, err := a.Renamed([]int{2, 0, 1}, a.Ports())
	if err != nil {
		t.Fatal(err)
	}
	r2 := fig39()
	for _, n := range a.Instructions() {
		if r.Usage(n) != r2.Usage(n) {
			t.Errorf("Renamed %s = %q, want %q", n, r.Usage(n), r2.Usage(n))
		}
	}
	// A mapping is equivalent to itself by the identity.
	if p, ok := EquivalentByRenaming(a, a); !ok || !reflect.DeepEqual(p, []int{0, 1, 2}) {
		t.Errorf("self = %v, %v", p, ok)
	}

	// Changing one µop breaks the equivalence.
	for _, c := range []struct{ insn, usage string }{
		{"store", "1*[p1]"},      // store now conflicts with add/sub
		{"add", "1*[p2,p3]"},     // add and sub differ
		{"mul", "2*[p3]"},        // count
		{"mul", "1*[p3]+1*[p2]"}, // one more µop
		{"sub", "1*[p1,p2,p3]"},
		{"store", "0"},
	} {
		v := fig39()
		v.MustSetUsage(c.insn, c.usage)
		if p, ok := EquivalentByRenaming(a, v); ok {
			t.Errorf("%s ↦ %s: equivalent by %v", c.insn, c.usage, p)
		}
		if _, ok := EquivalentByRenaming(v, a); ok {
			t.Errorf("%s ↦ %s: equivalent (reversed)", c.insn, c.usage)
		}
	}
}

func TestEquivalentByRenamingDifferentShapes(t *testing.T) {
	a := fig31()
	// Different instruction sets with the same size.
	b := fig39()
	b.Delete("store")
	b.MustSetUsage("load", "1*[p2]")
	if _, ok := EquivalentByRenaming(a, b); ok {
		t.Error("different instruction names")
	}
	if _, ok := EquivalentByRenaming(b, a); ok {
		t.Error("different instruction names (reversed)")
	}
	// A subset / superset.
	c := fig39()
	c.Delete("store")
	if _, ok := EquivalentByRenaming(a, c); ok {
		t.Error("subset")
	}
	if _, ok := EquivalentByRenaming(c, a); ok {
		t.Error("superset")
	}
	// Different port counts.
	d := MustMapping("d", "p1", "p2", "p3", "p4")
	for _, n := range a.Instructions() {
		d.MustSetUsage(n, a.Usage(n))
	}
	if _, ok := EquivalentByRenaming(a, d); ok {
		t.Error("different port counts")
	}
	// Empty mappings over the same number of ports are equivalent.
	if p, ok := EquivalentByRenaming(MustMapping("x", "a", "b"), MustMapping("y", "c", "d")); !ok || len(p) != 2 {
		t.Errorf("empty: %v %v", p, ok)
	}
	// Unmapped instructions of the architecture do not matter.
	e := fig31()
	e.MustSetUsage("tmp", "1*[p1]")
	e.Delete("tmp")
	if _, ok := EquivalentByRenaming(e, fig39()); !ok {
		t.Error("a deleted instruction breaks equivalence")
	}
	// Instruction order does not matter.
	f := MustMapping("f", "p1", "p2", "p3")
	for _, n := range []string{"store", "sub", "mul", "add"} {
		f.MustSetUsage(n, fig39().Usage(n))
	}
	if p, ok := EquivalentByRenaming(a, f); !ok || !reflect.DeepEqual(p, []int{2, 0, 1}) {
		t.Errorf("reordered: %v %v", p, ok)
	}
}

func randomMapping(rng *rand.Rand, k, n int) *Mapping {
	ports := make([]string, k)
	for i := range ports {
		ports[i] = fmt.Sprintf("P%d", i)
	}
	m := MustMapping("rand", ports...)
	all := int64(1)<<uint(k) - 1
	for i := 0; i < n; i++ {
		nu := rng.Intn(4)
		uops := make([]Uop, nu)
		for j := range uops {
			uops[j] = Uop{Ports: PortSet(rng.Int63n(all) + 1), Count: 1 + rng.Intn(3)}
		}
		if err := m.Set(fmt.Sprintf("i%d", i), uops...); err != nil {
			panic(err)
		}
	}
	return m
}

func TestEquivalentByRenamingRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	cases := 0
	for k := 1; k <= 10; k++ {
		for rep := 0; rep < 25; rep++ {
			m := randomMapping(rng, k, 3+rng.Intn(12))
			perm := rng.Perm(k)
			r, err := m.Renamed(perm, nil)
			if err != nil {
				t.Fatal(err)
			}
			// Names move with the ports.
			for old, nw := range perm {
				if r.Ports()[nw] != m.Ports()[old] {
					t.Fatalf("Renamed(%v): ports %q from %q", perm, r.Ports(), m.Ports())
				}
			}
			start := time.Now()
			got, ok := EquivalentByRenaming(m, r)
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("k=%d: EquivalentByRenaming took %v", k, d)
			}
			if !ok {
				t.Fatalf("k=%d: renaming %v not recognized:\n%s\n%s", k, perm, m, r)
			}
			checkPerm(t, m, r, got)
			// With the original names kept in place.
			r2, err := m.Renamed(perm, m.Ports())
			if err != nil {
				t.Fatal(err)
			}
			if got, ok := EquivalentByRenaming(m, r2); !ok {
				t.Fatalf("k=%d: renaming %v (names kept) not recognized", k, perm)
			} else {
				checkPerm(t, m, r2, got)
			}
			// A random change of one µop is detected unless it happens to
			// give an equivalent mapping (then the perm must be valid).
			if names := r.Instructions(); len(names) > 0 {
				v := r.Clone()
				n := names[rng.Intn(len(names))]
				u, _ := v.Uops(n)
				u = append([]Uop(nil), u...)
				if len(u) > 0 && rng.Intn(2) == 0 {
					u[0].Count++
				} else {
					u = append(u, Uop{Ports: PortSet(1) << uint(rng.Intn(k)), Count: 1})
				}
				if err := v.Set(n, u...); err != nil {
					t.Fatal(err)
				}
				if got, ok := EquivalentByRenaming(m, v); ok {
					t.Fatalf("k=%d: changed %s (µop count grew) still equivalent by %v", k, n, got)
				}
			}
			cases++
		}
	}
	if cases < 200 {
		t.Errorf("only %d cases", cases)
	}
}

func TestEquivalentByRenamingRealSKL(t *testing.T) {
	m := readSKLUopsInfo(t)
	rng := rand.New(rand.NewSource(4))
	for rep := 0; rep < 5; rep++ {
		perm := rng.Perm(m.NumPorts())
		r, err := m.Renamed(perm, nil)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		got, ok := EquivalentByRenaming(m, r)
		if !ok {
			t.Fatalf("renaming %v of the SKL mapping not recognized", perm)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("took %v", d)
		}
		checkPerm(t, m, r, got)
		// Port 8 (the divider) is alone in its class, so it must go where
		// perm sends it.
		if got[8] != perm[8] {
			t.Errorf("divider port sent to %d, want %d", got[8], perm[8])
		}
	}
	// Changing one instruction breaks it.
	r, _ := m.Renamed(rng.Perm(m.NumPorts()), nil)
	const add = "ADD_byte_ptr_[((MEM:64))_+_((MIMM:16))],_((IMM:8))"
	u, _ := r.Uops(add)
	r.Set(add, u[1:]...)
	if _, ok := EquivalentByRenaming(m, r); ok {
		t.Error("changed SKL mapping still equivalent")
	}
}

// TestEquivalentByRenamingSymmetric: highly symmetric mappings, where the
// colour refinement cannot tell ports apart, are still decided (correctly
// and in reasonable time) by the backtracking.
func TestEquivalentByRenamingSymmetric(t *testing.T) {
	// Two triangles vs a hexagon: every port is in two 2-port µops of the
	// same instruction, so all ports get the same colour.
	cycle := func(name string, edges [][2]int, k int) *Mapping {
		ports := make([]string, k)
		for i := range ports {
			ports[i] = fmt.Sprint(i)
		}
		m := MustMapping(name, ports...)
		var u []Uop
		for _, e := range edges {
			u = append(u, Uop{Ports: Ports(e[0], e[1]), Count: 1})
		}
		if err := m.Set("i", u...); err != nil {
			t.Fatal(err)
		}
		return m
	}
	ring := func(k int, offs ...int) [][2]int {
		var out [][2]int
		for _, o := range offs {
			n := k / len(offs)
			for i := 0; i < n; i++ {
				out = append(out, [2]int{o + i, o + (i+1)%n})
			}
		}
		return out
	}
	for _, k := range []int{6, 8} {
		one := cycle("one", ring(k, 0), k)
		two := cycle("two", ring(k, 0, k/2), k)
		start := time.Now()
		if _, ok := EquivalentByRenaming(one, two); ok {
			t.Errorf("k=%d: one cycle equivalent to two", k)
		}
		if p, ok := EquivalentByRenaming(one, one); !ok {
			t.Errorf("k=%d: cycle not equivalent to itself", k)
		} else {
			checkPerm(t, one, one, p)
		}
		rng := rand.New(rand.NewSource(int64(k)))
		r, _ := two.Renamed(rng.Perm(k), nil)
		if p, ok := EquivalentByRenaming(two, r); !ok {
			t.Errorf("k=%d: renamed two-cycle not recognized", k)
		} else {
			checkPerm(t, two, r, p)
		}
		t.Logf("k=%d: %v", k, time.Since(start))
	}
}

func TestRenamedErrors(t *testing.T) {
	m := fig31()
	for _, c := range []struct {
		perm  []int
		names []string
		want  string
	}{
		{[]int{0, 1}, nil, "2 entries"},
		{[]int{0, 1, 1}, nil, "not a permutation"},
		{[]int{0, 1, 3}, nil, "not a permutation"},
		{[]int{0, -1, 2}, nil, "not a permutation"},
		{[]int{0, 1, 2}, []string{"a", "a", "b"}, "duplicate port"},
	} {
		_, err := m.Renamed(c.perm, c.names)
		errContains(t, err, c.want)
	}
	// The original is unchanged by Renamed.
	if _, err := m.Renamed([]int{1, 2, 0}, nil); err != nil {
		t.Fatal(err)
	}
	sameMapping(t, m, fig31())
}
