package portmap_test

import (
	"fmt"

	"github.com/portlab/portlab/lib/portmap"
)

// The two-level running example of Ritter's thesis (Fig. 3.1): mul runs on
// p1, add and sub on p1 or p2, store on p3. Each instruction is one µop.
func ExampleNewMapping() {
	m, err := portmap.NewMapping("fig3.1", "p1", "p2", "p3")
	if err != nil {
		panic(err)
	}
	for _, s := range []struct{ insn, usage string }{
		{"mul", "1*p1"},
		{"add", "1*p12"},
		{"sub", "1*[p1,p2]"},
		{"store", "1*p3"},
	} {
		if err := m.SetUsage(s.insn, s.usage); err != nil {
			panic(err)
		}
	}
	fmt.Print(m)
	fmt.Println("two-level:", m.IsTwoLevel(), "volume:", m.Volume())
	// Output:
	// mapping fig3.1: 4 instructions, ports p1 p2 p3
	//   mul: 1*p1
	//   add: 1*p12
	//   sub: 1*p12
	//   store: 1*p3
	// two-level: true volume: 6
}

func ExampleParseUsage() {
	skl, _ := portmap.NewArchitecture("SKL", []string{"0", "1", "2", "3", "4", "5", "6", "7"}, nil)
	uops, err := portmap.ParseUsage("1*p0156+2*p23", skl)
	if err != nil {
		panic(err)
	}
	for _, u := range uops {
		fmt.Println(u.Count, "µop(s) on ports", skl.PortNames(u.Ports))
	}
	fmt.Println(portmap.FormatUsage(uops, skl))

	zen, _ := portmap.NewArchitecture("ZEN+", []string{"FP0", "FP1", "FP2", "FP3"}, nil)
	uops, _ = portmap.ParseUsage("1*FP23", zen)
	fmt.Println(zen.PortNames(uops[0].Ports), portmap.FormatUsage(uops, zen))

	_, err = portmap.ParseUsage("1*p09", skl)
	fmt.Println(err)
	// Output:
	// 1 µop(s) on ports [0 1 5 6]
	// 2 µop(s) on ports [2 3]
	// 1*p0156+2*p23
	// [FP2 FP3] 1*FP23
	// port usage "1*p09": unknown port "9" (ports are 0, 1, 2, 3, 4, 5, 6, 7)
}

func ExampleNewExperiment() {
	e := portmap.NewExperiment("mul", "add", "store", "add")
	fmt.Println(e)
	fmt.Println(e.Key())
	fmt.Println(e.Len(), e.Distinct())
	// Order does not matter: the same multiset has the same key.
	f := portmap.NewExperiment("add", "store", "add", "mul")
	fmt.Println(f.Key() == e.Key(), f.Equal(e))
	fmt.Println(e.With("add", -2).Plus(portmap.NewExperiment("sub")))
	// Output:
	// {add ↦ 2, mul ↦ 1, store ↦ 1}
	// "add"*2 "mul" "store"
	// 4 3
	// true true
	// {mul ↦ 1, store ↦ 1, sub ↦ 1}
}

// Thesis Fig. 3.9: the Fig. 3.1 mapping and its renaming p1 ↦ p3, p2 ↦ p1,
// p3 ↦ p2 predict the same throughput for every experiment.
func ExampleEquivalentByRenaming() {
	a := portmap.MustMapping("fig3.1", "p1", "p2", "p3").
		MustSetUsage("mul", "1*p1").MustSetUsage("add", "1*p12").
		MustSetUsage("sub", "1*p12").MustSetUsage("store", "1*p3")
	b := portmap.MustMapping("fig3.9", "p1", "p2", "p3").
		MustSetUsage("mul", "1*p3").MustSetUsage("add", "1*p13").
		MustSetUsage("sub", "1*p13").MustSetUsage("store", "1*p2")
	perm, ok := portmap.EquivalentByRenaming(a, b)
	fmt.Println(ok, perm)
	for k, q := range perm {
		fmt.Printf("%s ↦ %s\n", a.Ports()[k], b.Ports()[q])
	}
	// Moving store to p1 gives a mapping that is not a renaming of a.
	b.MustSetUsage("store", "1*p1")
	_, ok = portmap.EquivalentByRenaming(a, b)
	fmt.Println(ok)
	// Output:
	// true [2 0 1]
	// p1 ↦ p3
	// p2 ↦ p1
	// p3 ↦ p2
	// false
}

func ExampleMapping_SetPorts() {
	m := portmap.MustMapping("toy", "ALU0", "ALU1", "LD")
	if err := m.SetPorts("add", "ALU0", "ALU1"); err != nil {
		panic(err)
	}
	if err := m.SetPorts("load", "LD"); err != nil {
		panic(err)
	}
	fmt.Println(m.Usage("add"), m.Usage("load"), m.IsTwoLevel())
	err := m.SetPorts("store", "ST") // no port ST
	fmt.Println(err != nil, m.Has("store"), m.Len())
	// Output:
	// 1*ALU01 1*[LD] true
	// true false 2
}

// A design split into three parts: disjoint, balanced, and the same
// whatever order the experiments come in.
func ExampleShard_Select() {
	exps := []portmap.Experiment{
		portmap.NewExperiment("add"), portmap.NewExperiment("mul"), portmap.NewExperiment("div"),
		portmap.NewExperiment("add", "mul"), portmap.NewExperiment("add", "div"), portmap.NewExperiment("mul", "div"),
		portmap.NewExperiment("add"), // a repeat counts once
	}
	for i := range 3 {
		s, err := portmap.ParseShard(fmt.Sprintf("%d/3", i))
		if err != nil {
			panic(err)
		}
		fmt.Println(s, s.Select(exps))
	}
	_, err := portmap.ParseShard("3/3")
	fmt.Println(err)
	// Output:
	// 0/3 [{add ↦ 1} {div ↦ 1}]
	// 1/3 [{add ↦ 1, div ↦ 1} {div ↦ 1, mul ↦ 1}]
	// 2/3 [{add ↦ 1, mul ↦ 1} {mul ↦ 1}]
	// shard "3/3": the part must be in 0..2
}
