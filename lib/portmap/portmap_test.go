package portmap

import (
	"math/rand"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// ---- PortSet ----

func TestPortSet(t *testing.T) {
	s := Ports(0, 1, 5, 6)
	if s != 0b1100011 {
		t.Fatalf("Ports(0,1,5,6) = %b", s)
	}
	if s.Len() != 4 {
		t.Errorf("Len = %d", s.Len())
	}
	for k, want := range map[int]bool{0: true, 1: true, 2: false, 5: true, 6: true, 7: false, -1: false, 64: false, 1000: false} {
		if s.Has(k) != want {
			t.Errorf("Has(%d) = %v, want %v", k, !want, want)
		}
	}
	if got := s.Indices(); !reflect.DeepEqual(got, []int{0, 1, 5, 6}) {
		t.Errorf("Indices = %v", got)
	}
	if got := s.String(); got != "{0,1,5,6}" {
		t.Errorf("String = %q", got)
	}
	if got := PortSet(0).String(); got != "{}" {
		t.Errorf("empty String = %q", got)
	}
	if got := PortSet(0).Indices(); len(got) != 0 || got == nil {
		t.Errorf("empty Indices = %#v, want empty non-nil", got)
	}
	t23 := Ports(2, 3)
	if got := s.Union(t23); got != Ports(0, 1, 2, 3, 5, 6) {
		t.Errorf("Union = %v", got)
	}
	if got := s.Intersect(Ports(1, 2, 5)); got != Ports(1, 5) {
		t.Errorf("Intersect = %v", got)
	}
	if !Ports(1, 5).SubsetOf(s) || s.SubsetOf(Ports(1, 5)) || !PortSet(0).SubsetOf(0) || !s.SubsetOf(s) {
		t.Error("SubsetOf wrong")
	}
	if Ports() != 0 || Ports(3, 3) != Ports(3) {
		t.Error("Ports with no / repeated indices")
	}
	top := Ports(63)
	if top.Len() != 1 || !top.Has(63) || top.Indices()[0] != 63 || top.String() != "{63}" {
		t.Errorf("port 63: %v", top)
	}
	all := ^PortSet(0)
	if all.Len() != 64 || len(all.Indices()) != 64 {
		t.Errorf("all ports: Len %d", all.Len())
	}
	for _, bad := range []int{-1, 64} {
		func() {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(r.(string), "out of range") {
					t.Errorf("Ports(%d): panic %v, want out of range", bad, r)
				}
			}()
			Ports(bad)
		}()
	}
}

// ---- Architecture ----

func TestArchitecture(t *testing.T) {
	a, err := NewArchitecture("toy", []string{"p1", "p2", "p3"}, []string{"add", "mul"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Name() != "toy" || a.NumPorts() != 3 || a.NumInstructions() != 2 || a.PortName(1) != "p2" || a.InstructionName(1) != "mul" {
		t.Errorf("accessors: %q %d %d", a.Name(), a.NumPorts(), a.NumInstructions())
	}
	if k, ok := a.Port("p3"); !ok || k != 2 {
		t.Errorf("Port(p3) = %d, %v", k, ok)
	}
	if _, ok := a.Port("p4"); ok {
		t.Error("Port(p4) found")
	}
	if i, ok := a.Instruction("mul"); !ok || i != 1 {
		t.Errorf("Instruction(mul) = %d, %v", i, ok)
	}
	if a.AllPorts() != Ports(0, 1, 2) {
		t.Errorf("AllPorts = %v", a.AllPorts())
	}
	s, err := a.PortSet("p3", "p1")
	if err != nil || s != Ports(0, 2) {
		t.Errorf("PortSet = %v, %v", s, err)
	}
	_, err = a.PortSet("p1", "p9")
	errContains(t, err, `"p9"`, "p1, p2, p3")
	if got := a.PortNames(Ports(0, 2, 40)); !reflect.DeepEqual(got, []string{"p1", "p3"}) {
		t.Errorf("PortNames = %q", got)
	}
	// The accessors return copies.
	a.Ports()[0] = "X"
	a.Instructions()[0] = "X"
	if a.PortName(0) != "p1" || a.InstructionName(0) != "add" {
		t.Error("Ports/Instructions expose internal slices")
	}
	// NewArchitecture copies its arguments.
	ports := []string{"a", "b"}
	b, _ := NewArchitecture("b", ports, nil)
	ports[0] = "z"
	if b.PortName(0) != "a" {
		t.Error("NewArchitecture keeps the caller's slice")
	}

	many := make([]string, 64)
	for i := range many {
		many[i] = "p" + string(rune('A'+i/26)) + string(rune('a'+i%26))
	}
	a64, err := NewArchitecture("wide", many, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a64.AllPorts() != ^PortSet(0) {
		t.Errorf("AllPorts with 64 ports = %v", a64.AllPorts())
	}
	_, err = NewArchitecture("wide", append(many, "more"), nil)
	errContains(t, err, "65 ports", "64")

	for _, c := range []struct {
		ports, insns []string
		want         []string
	}{
		{nil, nil, []string{"no ports"}},
		{[]string{"a", "b", "a"}, nil, []string{"duplicate port", `"a"`}},
		{[]string{"a", ""}, nil, []string{"port 1", `""`}},
		{[]string{" a"}, nil, []string{`" a"`}},
		{[]string{"a"}, []string{"x", "y", "x"}, []string{"duplicate instruction", `"x"`}},
		{[]string{"a"}, []string{"x", ""}, []string{"instruction 1", "empty"}},
	} {
		_, err := NewArchitecture("bad", c.ports, c.insns)
		errContains(t, err, c.want...)
	}

	// Index / Indexed.
	e := NewExperiment("mul", "add", "add")
	ix, err := a.Index(e)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ix.Terms, []Term{{0, 2}, {1, 1}}) || ix.Arch != a {
		t.Errorf("Index = %+v", ix)
	}
	if !ix.Experiment().Equal(e) {
		t.Errorf("Indexed.Experiment = %v", ix.Experiment())
	}
	_, err = a.Index(NewExperiment("add", "div"))
	errContains(t, err, `"div"`, `"toy"`)
}

// ---- Experiment ----

func TestNewExperimentCanonical(t *testing.T) {
	e := NewExperiment("mul", "add", "store", "add")
	if got := e.String(); got != "{add ↦ 2, mul ↦ 1, store ↦ 1}" {
		t.Errorf("String = %q", got)
	}
	if got := e.Key(); got != `"add"*2 "mul" "store"` {
		t.Errorf("Key = %q", got)
	}
	if e.Len() != 4 || e.Distinct() != 3 {
		t.Errorf("Len %d Distinct %d", e.Len(), e.Distinct())
	}
	if e.Count("add") != 2 || e.Count("mul") != 1 || e.Count("div") != 0 || e.Count("") != 0 || e.Count("zzz") != 0 {
		t.Error("Count wrong")
	}
	if got := e.List(); !reflect.DeepEqual(got, []string{"add", "add", "mul", "store"}) {
		t.Errorf("List = %q", got)
	}
	if got := e.Items(); !reflect.DeepEqual(got, []Item{{"add", 2}, {"mul", 1}, {"store", 1}}) {
		t.Errorf("Items = %v", got)
	}
	// Items returns a copy.
	e.Items()[0].Count = 100
	if e.Count("add") != 2 {
		t.Error("Items exposes the internal slice")
	}

	// Order independence: every permutation gives the same experiment.
	rng := rand.New(rand.NewSource(1))
	list := []string{"a", "b", "b", "c", "c", "c", "d"}
	ref := NewExperiment(list...)
	for i := 0; i < 100; i++ {
		rng.Shuffle(len(list), func(a, b int) { list[a], list[b] = list[b], list[a] })
		p := NewExperiment(list...)
		if !p.Equal(ref) || p.Key() != ref.Key() || p.String() != ref.String() {
			t.Fatalf("permutation %q gives %v, want %v", list, p, ref)
		}
	}
	// NewExperiment does not modify its argument.
	in := []string{"z", "a"}
	NewExperiment(in...)
	if in[0] != "z" {
		t.Error("NewExperiment sorted its argument in place")
	}

	var zero Experiment
	if zero.Len() != 0 || zero.Key() != "" || zero.String() != "{}" || !zero.Equal(NewExperiment()) || len(zero.List()) != 0 {
		t.Errorf("zero experiment: %v %q", zero, zero.Key())
	}
	// Names that could confuse a naive key: spaces, quotes, '*'.
	x := NewExperiment(`a b`)
	y := NewExperiment("a", "b")
	z := NewExperiment(`a"*2`)
	w := NewExperiment("a", "a")
	for _, p := range [][2]Experiment{{x, y}, {z, w}} {
		if p[0].Key() == p[1].Key() {
			t.Errorf("distinct experiments %v and %v share key %q", p[0], p[1], p[0].Key())
		}
	}
}

func TestExperimentOf(t *testing.T) {
	e, err := ExperimentOf(map[string]int{"mul": 1, "add": 2, "nop": 0})
	if err != nil {
		t.Fatal(err)
	}
	if !e.Equal(NewExperiment("add", "mul", "add")) || e.Count("nop") != 0 || e.Distinct() != 2 {
		t.Errorf("ExperimentOf = %v (zero count must be dropped)", e)
	}
	e0, err := ExperimentOf(map[string]int{"a": 0})
	if err != nil || !e0.Equal(Experiment{}) || e0.Key() != "" {
		t.Errorf("all-zero experiment = %v, %v", e0, err)
	}
	_, err = ExperimentOf(map[string]int{"add": -1})
	errContains(t, err, `"add"`, "negative count -1")
	_, err = ExperimentOf(map[string]int{"": 1})
	errContains(t, err, "empty instruction name")

	ei, err := ExperimentOfItems(Item{"b", 1}, Item{"a", 2}, Item{"b", 3}, Item{"c", 0})
	if err != nil {
		t.Fatal(err)
	}
	if got := ei.String(); got != "{a ↦ 2, b ↦ 4}" {
		t.Errorf("ExperimentOfItems = %q", got)
	}
	items := []Item{{"z", 1}, {"a", 1}}
	if _, err := ExperimentOfItems(items...); err != nil {
		t.Fatal(err)
	}
	if items[0].Insn != "z" {
		t.Error("ExperimentOfItems modified its argument")
	}
	_, err = ExperimentOfItems(Item{"a", 1}, Item{"x", -2})
	errContains(t, err, `"x"`, "negative count -2")
	_, err = ExperimentOfItems(Item{"", 1})
	errContains(t, err, "empty instruction name")
}

// TestExperimentKeyMultiset checks Key equality ⇔ multiset equality on random
// experiments over a small alphabet, against a reference count map.
func TestExperimentKeyMultiset(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	names := []string{"add", "mul", "sub", "st", "a d"}
	type ex struct {
		e Experiment
		m map[string]int
	}
	var all []ex
	for i := 0; i < 300; i++ {
		n := rng.Intn(5)
		list := make([]string, n)
		m := map[string]int{}
		for j := range list {
			list[j] = names[rng.Intn(len(names))]
			m[list[j]]++
		}
		all = append(all, ex{NewExperiment(list...), m})
	}
	for _, a := range all {
		for _, b := range all {
			same := reflect.DeepEqual(a.m, b.m)
			if (a.e.Key() == b.e.Key()) != same || a.e.Equal(b.e) != same {
				t.Fatalf("%v vs %v: keys %q %q, Equal %v, multiset equal %v", a.e, b.e, a.e.Key(), b.e.Key(), a.e.Equal(b.e), same)
			}
		}
		for n, c := range a.m {
			if a.e.Count(n) != c {
				t.Fatalf("%v: Count(%q) = %d, want %d", a.e, n, a.e.Count(n), c)
			}
		}
	}
}

func TestExperimentWithPlusScale(t *testing.T) {
	e := NewExperiment("add", "mul")
	f := e.With("add", 2)
	if f.String() != "{add ↦ 3, mul ↦ 1}" {
		t.Errorf("With(add,2) = %v", f)
	}
	if e.String() != "{add ↦ 1, mul ↦ 1}" {
		t.Errorf("With modified its receiver: %v", e)
	}
	if g := e.With("sub", 1); g.String() != "{add ↦ 1, mul ↦ 1, sub ↦ 1}" {
		t.Errorf("With(sub,1) = %v", g)
	}
	if g := e.With("aaa", 2); g.String() != "{aaa ↦ 2, add ↦ 1, mul ↦ 1}" || g.Items()[0].Insn != "aaa" {
		t.Errorf("With(aaa,2) = %v (must stay sorted)", g)
	}
	if g := e.With("mul", -1); g.String() != "{add ↦ 1}" || g.Distinct() != 1 {
		t.Errorf("With(mul,-1) = %v (zero counts dropped)", g)
	}
	if g := e.With("mul", -5); !g.Equal(NewExperiment("add")) {
		t.Errorf("With(mul,-5) = %v, count must not go below zero", g)
	}
	if g := e.With("sub", -1); !g.Equal(e) {
		t.Errorf("With(sub,-1) = %v", g)
	}
	if g := e.With("sub", 0); !g.Equal(e) || g.Distinct() != 2 {
		t.Errorf("With(sub,0) = %v", g)
	}

	p := e.Plus(NewExperiment("mul", "store"))
	if p.String() != "{add ↦ 1, mul ↦ 2, store ↦ 1}" {
		t.Errorf("Plus = %v", p)
	}
	if !e.Plus(Experiment{}).Equal(e) || !(Experiment{}).Plus(e).Equal(e) {
		t.Error("Plus with empty")
	}
	if !e.Plus(p).Equal(p.Plus(e)) {
		t.Error("Plus not commutative")
	}
	if e.String() != "{add ↦ 1, mul ↦ 1}" {
		t.Errorf("Plus modified its receiver: %v", e)
	}

	s := p.Scale(3)
	if s.String() != "{add ↦ 3, mul ↦ 6, store ↦ 3}" || s.Len() != 12 {
		t.Errorf("Scale(3) = %v", s)
	}
	if p.Count("mul") != 2 {
		t.Error("Scale modified its receiver")
	}
	if z := p.Scale(0); !z.Equal(Experiment{}) || z.Key() != "" {
		t.Errorf("Scale(0) = %v", z)
	}
	if !p.Scale(2).Equal(p.Plus(p)) {
		t.Error("Scale(2) != Plus(self)")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Scale(-1) did not panic")
			}
		}()
		p.Scale(-1)
	}()
}

// ---- Mapping ----

func TestMappingSetNormalizes(t *testing.T) {
	m := MustMapping("toy", "0", "1", "2", "3")
	// Equal port sets are merged and µops are sorted by port set.
	err := m.Set("x", Uop{Ports: Ports(2, 3), Count: 1}, Uop{Ports: Ports(0), Count: 2}, Uop{Ports: Ports(3, 2), Count: 3})
	if err != nil {
		t.Fatal(err)
	}
	u, ok := m.Uops("x")
	if !ok || !reflect.DeepEqual(u, []Uop{{Ports(0), 2}, {Ports(2, 3), 4}}) {
		t.Errorf("Uops = %v, %v", u, ok)
	}
	if m.Usage("x") != "2*p0+4*p23" || m.NumUops("x") != 6 {
		t.Errorf("Usage = %q, NumUops = %d", m.Usage("x"), m.NumUops("x"))
	}
	// Set with no µops: mapped, with an empty (non-nil) decomposition.
	if err := m.Set("nop"); err != nil {
		t.Fatal(err)
	}
	if u, ok := m.Uops("nop"); !ok || u == nil || len(u) != 0 || !m.Has("nop") || m.Usage("nop") != "0" || m.NumUops("nop") != 0 {
		t.Errorf("nop: %v %v %q", u, ok, m.Usage("nop"))
	}
	// Set replaces.
	if err := m.Set("x", Uop{Ports: Ports(1), Count: 1}); err != nil {
		t.Fatal(err)
	}
	if m.Usage("x") != "1*p1" {
		t.Errorf("after replace: %q", m.Usage("x"))
	}
	if got := m.Instructions(); !reflect.DeepEqual(got, []string{"x", "nop"}) || m.Len() != 2 {
		t.Errorf("Instructions = %q (insertion order)", got)
	}

	// Errors.
	errContains(t, m.Set("", Uop{Ports(0), 1}), "empty instruction name")
	errContains(t, m.Set("y", Uop{Ports(0), 1}, Uop{0, 1}), `"y"`, "µop 1 has no ports")
	errContains(t, m.Set("y", Uop{Ports(4), 1}), `"y"`, "[4]", "outside")
	errContains(t, m.Set("y", Uop{Ports(0), 0}), `"y"`, "count 0")
	errContains(t, m.Set("y", Uop{Ports(0), -1}), `"y"`, "count -1")
	if m.Has("y") || m.Len() != 2 {
		t.Error("a failed Set added the instruction")
	}
	if _, ok := m.Arch().Instruction("y"); ok {
		t.Error("a failed Set extended the architecture")
	}
	errContains(t, m.SetPorts("y", "0", "7"), `"y"`, `"7"`)
	errContains(t, m.SetUsage("y", "1*p07"), `"y"`, `"7"`)
	errContains(t, m.SetUsage("y", "0*p0"), `"y"`, "count 0")
	func() {
		defer func() {
			if recover() == nil {
				t.Error("MustSetUsage with a bad usage did not panic")
			}
		}()
		m.MustSetUsage("y", "1*p9")
	}()
	if _, err := NewMapping("bad", "a", "a"); err == nil {
		t.Error("NewMapping with duplicate ports succeeded")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("MustMapping with no ports did not panic")
			}
		}()
		MustMapping("bad")
	}()
}

func TestNormalizeUops(t *testing.T) {
	in := []Uop{{Ports(3), 1}, {Ports(1), 1}, {Ports(3), 2}, {Ports(1, 2), 1}}
	orig := append([]Uop(nil), in...)
	out, err := NormalizeUops(in, Ports(0, 1, 2, 3))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out, []Uop{{Ports(1), 1}, {Ports(1, 2), 1}, {Ports(3), 3}}) {
		t.Errorf("NormalizeUops = %v", out)
	}
	if !reflect.DeepEqual(in, orig) {
		t.Errorf("NormalizeUops modified its input: %v", in)
	}
	out, err = NormalizeUops(nil, 1)
	if err != nil || out == nil || len(out) != 0 {
		t.Errorf("NormalizeUops(nil) = %#v, %v", out, err)
	}
}

func TestMappingSetPortsAndTwoLevel(t *testing.T) {
	m := fig31()
	if !m.IsTwoLevel() {
		t.Error("Fig. 3.1 is two-level")
	}
	if m.Len() != 4 || m.NumPorts() != 3 || m.Name() != "fig3.1" {
		t.Errorf("Len %d NumPorts %d", m.Len(), m.NumPorts())
	}
	if err := m.SetPorts("load", "p3", "p2", "p3"); err != nil {
		t.Fatal(err)
	}
	if u, _ := m.Uops("load"); !reflect.DeepEqual(u, []Uop{{Ports(1, 2), 1}}) || m.Usage("load") != "1*p23" {
		t.Errorf("load = %v %q", u, m.Usage("load"))
	}
	if !m.IsTwoLevel() {
		t.Error("SetPorts keeps it two-level")
	}
	m.MustSetUsage("mul", "2*[p1]")
	if m.IsTwoLevel() {
		t.Error("count 2 is not two-level")
	}
	m.MustSetUsage("mul", "1*[p1]+1*[p3]")
	if m.IsTwoLevel() {
		t.Error("two µops is not two-level")
	}
	m.MustSetUsage("mul", "1*[p1]")
	m.MustSetUsage("nop", "0")
	if m.IsTwoLevel() {
		t.Error("no µops is not two-level")
	}
	m.Delete("nop")
	if !m.IsTwoLevel() {
		t.Error("after deleting nop it is two-level again")
	}
	if !MustMapping("e", "a").IsTwoLevel() {
		t.Error("empty mapping is two-level")
	}
}

func TestMappingVolumeDistinct(t *testing.T) {
	m := MustMapping("skl", "0", "1", "2", "3", "4", "5", "6", "7")
	m.MustSetUsage("add", "1*p0156")
	m.MustSetUsage("st", "1*p23+1*p237+1*p4")
	m.MustSetUsage("vdiv", "3*p0+1*p0156")
	if v := m.Volume(); v != 4+2+3+1+3+4 {
		t.Errorf("Volume = %d", v)
	}
	if d := m.DistinctUops(); d != 5 { // p0156, p23, p237, p4, p0
		t.Errorf("DistinctUops = %d", d)
	}
	m.Delete("vdiv")
	if m.Volume() != 10 || m.DistinctUops() != 4 {
		t.Errorf("after Delete: Volume %d, Distinct %d", m.Volume(), m.DistinctUops())
	}
	if MustMapping("e", "a").Volume() != 0 || MustMapping("e", "a").DistinctUops() != 0 {
		t.Error("empty mapping")
	}
}

func TestUopMass(t *testing.T) {
	m := MustMapping("toy", "0", "1", "2", "3")
	m.MustSetUsage("add", "1*p01")
	m.MustSetUsage("st", "1*p2+1*p23")
	m.MustSetUsage("mul", "2*p0")
	m.MustSetUsage("nop", "0")
	e, _ := ExperimentOf(map[string]int{"add": 3, "st": 2, "mul": 1, "nop": 7})
	mass, err := m.UopMass(e)
	if err != nil {
		t.Fatal(err)
	}
	want := map[PortSet]int64{Ports(0, 1): 3, Ports(2): 2, Ports(2, 3): 2, Ports(0): 2}
	if !reflect.DeepEqual(mass, want) {
		t.Errorf("UopMass = %v, want %v", mass, want)
	}
	if mass, err := m.UopMass(Experiment{}); err != nil || len(mass) != 0 {
		t.Errorf("UopMass(empty) = %v, %v", mass, err)
	}
	_, err = m.UopMass(NewExperiment("add", "div"))
	if err == nil {
		t.Fatal("no error for unknown instruction")
	}
	if ue, ok := err.(*UnknownInstructionError); !ok || ue.Insn != "div" || ue.Mapping != "toy" {
		t.Errorf("error %v (%T)", err, err)
	}
	errContains(t, err, `"div"`, `"toy"`)
	// Deleted instructions are unknown.
	m.Delete("add")
	if _, err := m.UopMass(NewExperiment("add")); err == nil {
		t.Error("UopMass of a deleted instruction succeeded")
	}
}

func TestMappingCloneDelete(t *testing.T) {
	m := fig31()
	c := m.Clone()
	sameMapping(t, m, c)
	if c.Arch() != m.Arch() {
		t.Error("Clone must share the architecture")
	}
	// Changing the clone does not change the original and vice versa.
	c.MustSetUsage("add", "2*[p3]")
	c.Delete("mul")
	c.MustSetUsage("div", "1*[p1]")
	if m.Usage("add") != "1*p12" {
		t.Errorf("original add changed: %q", m.Usage("add"))
	}
	if !m.Has("mul") || m.Has("div") || m.Len() != 4 {
		t.Errorf("original changed: %v", m.Instructions())
	}
	m.MustSetUsage("sub", "1*[p3]")
	if u, _ := c.Uops("sub"); !reflect.DeepEqual(u, []Uop{{Ports(0, 1), 1}}) {
		t.Errorf("clone's sub changed with the original: %v", u)
	}

	// Delete.
	m.Delete("mul")
	m.Delete("mul")     // twice is fine
	m.Delete("unknown") // unknown is a no-op
	if m.Has("mul") || m.Len() != 3 || m.Usage("mul") != "" || m.NumUops("mul") != 0 {
		t.Errorf("after Delete: %v", m.Instructions())
	}
	if _, ok := m.Uops("mul"); ok {
		t.Error("Uops of a deleted instruction")
	}
	if got := m.Instructions(); !reflect.DeepEqual(got, []string{"add", "sub", "store"}) {
		t.Errorf("Instructions = %q", got)
	}
	i, _ := m.Arch().Instruction("mul")
	if m.MappedAt(i) || m.UopsAt(i) != nil || m.MappedAt(-1) || m.MappedAt(100) || m.UopsAt(-1) != nil || m.UopsAt(100) != nil {
		t.Error("MappedAt/UopsAt of a deleted or invalid index")
	}
	// Re-adding reuses the index.
	m.MustSetUsage("mul", "1*[p2]")
	if j, _ := m.Arch().Instruction("mul"); j != i || !m.MappedAt(i) {
		t.Errorf("re-added mul at %d, was %d", j, i)
	}
}

// TestMappingCopyOnWriteArch: adding an instruction to one mapping must not
// change another mapping (or an experiment set) that shares the old
// Architecture.
func TestMappingCopyOnWriteArch(t *testing.T) {
	m := fig31()
	old := m.Arch()
	oldInsns := old.Instructions()
	c := m.Clone()
	if err := c.SetPorts("load", "p2", "p3"); err != nil {
		t.Fatal(err)
	}
	if c.Arch() == old {
		t.Fatal("adding an instruction must give the clone a new Architecture")
	}
	if !reflect.DeepEqual(old.Instructions(), oldInsns) || old.NumInstructions() != 4 {
		t.Errorf("old architecture changed: %q", old.Instructions())
	}
	if _, ok := old.Instruction("load"); ok {
		t.Error("old architecture knows load")
	}
	if m.Has("load") || m.Arch() != old || m.Len() != 4 {
		t.Error("the original mapping sees the clone's new instruction")
	}
	// Both add a different instruction: each sees only its own, at the same
	// index.
	if err := m.SetPorts("div", "p1"); err != nil {
		t.Fatal(err)
	}
	if c.Has("div") || m.Has("load") {
		t.Error("instructions leak between mappings sharing an architecture")
	}
	il, _ := c.Arch().Instruction("load")
	id, _ := m.Arch().Instruction("div")
	if il != 4 || id != 4 || c.Arch().InstructionName(4) != "load" || m.Arch().InstructionName(4) != "div" {
		t.Errorf("indices: load %d div %d", il, id)
	}
	// Setting an instruction the architecture already has keeps it.
	a := m.Arch()
	m.MustSetUsage("add", "1*[p3]")
	if m.Arch() != a {
		t.Error("Set of a known instruction replaced the architecture")
	}
	// Same for a mapping made with NewMappingFor: unmapped instructions of
	// the architecture are not listed, setting one keeps the architecture.
	arch, _ := NewArchitecture("a", []string{"x", "y"}, []string{"i1", "i2", "i3"})
	n := NewMappingFor(arch)
	if n.Len() != 0 || n.Has("i1") || len(n.Instructions()) != 0 {
		t.Error("NewMappingFor maps instructions")
	}
	if err := n.SetPorts("i2", "y"); err != nil {
		t.Fatal(err)
	}
	if n.Arch() != arch || !reflect.DeepEqual(n.Instructions(), []string{"i2"}) || !n.MappedAt(1) || n.MappedAt(0) {
		t.Errorf("NewMappingFor: %q", n.Instructions())
	}
	n2 := NewMappingFor(arch)
	if err := n2.SetPorts("i4", "x"); err != nil {
		t.Fatal(err)
	}
	if arch.NumInstructions() != 3 || n.Arch().NumInstructions() != 3 {
		t.Error("shared architecture grew")
	}
}

func TestMappingValidateAndString(t *testing.T) {
	m := fig31()
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	want := "mapping fig3.1: 4 instructions, ports p1 p2 p3\n" +
		"  mul: 1*p1\n  add: 1*p12\n  sub: 1*p12\n  store: 1*p3\n"
	if got := m.String(); got != want {
		t.Errorf("String =\n%s\nwant\n%s", got, want)
	}
	// A mapping corrupted from inside the package fails Validate with the
	// instruction named.
	bad := m.Clone()
	i, _ := bad.Arch().Instruction("sub")
	bad.uops[i] = []Uop{{Ports: 0, Count: 1}}
	errContains(t, bad.Validate(), `"sub"`, "no ports")
	bad.uops[i] = []Uop{{Ports: Ports(0), Count: 0}}
	errContains(t, bad.Validate(), `"sub"`, "count 0")
	bad.uops[i] = []Uop{{Ports: Ports(5), Count: 1}}
	errContains(t, bad.Validate(), `"sub"`, "outside")
	// Unmapped entries are not checked.
	bad.Delete("sub")
	if err := bad.Validate(); err != nil {
		t.Error(err)
	}
}

// TestMappingAccessorsCopy: Ports returns a copy.
func TestMappingAccessorsCopy(t *testing.T) {
	m := fig31()
	p := m.Ports()
	p[0] = "zz"
	if m.Ports()[0] != "p1" {
		t.Error("Ports exposes internal slice")
	}
	names := m.Instructions()
	sort.Strings(names)
	if m.Instructions()[0] != "mul" {
		t.Error("Instructions exposes internal slice")
	}
	if !strings.Contains(m.String(), "mul") {
		t.Error("String")
	}
}
