package cegis

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/solver/z3"
	"github.com/portlab/portlab/lib/throughput"
)

// TestSubsetEncodingExact holds both encodings of a measurement — over
// the subsets of the experiment's µop slots and with a schedule and a
// port-set witness — to the bottleneck simulator: a mapping fixed in the
// solver satisfies the constraints of "e measured at t cycles" exactly
// when it predicts t for e, for random mappings (three-level ones too),
// random experiments of up to four slots and t either the truth's
// prediction or one beside it.
func TestSubsetEncodingExact(t *testing.T) {
	needZ3(t)
	const ports, insns = 4, 4
	rng := rand.New(rand.NewPCG(3, 5))
	randomSet := func() portmap.PortSet {
		return portmap.Ports(rng.Perm(ports)[:1+rng.IntN(3)]...)
	}
	// Instruction 3 has two µops (slots 3 and 4).
	sp := &space{insns: []string{"a", "b", "c", "d"}, ports: ports, owner: []int{0, 1, 2, 3, 3},
		unitsOf: [][]int{{0}, {1}, {2}, {3, 4}}, enc: Bottleneck, eps: roundingSlack}
	sess, err := z3.Start(t.Context(), z3.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if err := sess.Assert(t.Context(), sp.baseCommands(false)...); err != nil {
		t.Fatal(err)
	}
	ss := newSubsets()
	mappingOf := func(c candidate) *throughput.Model {
		m := portmap.MustMapping("c", "0", "1", "2", "3")
		for i, us := range sp.unitsOf {
			var uops []portmap.Uop
			for _, u := range us {
				uops = append(uops, portmap.Uop{Ports: c[u], Count: 1})
			}
			if err := m.Set(sp.insns[i], uops...); err != nil {
				t.Fatal(err)
			}
		}
		return throughput.NewModel(m)
	}
	checks := map[string]int{}
	for trial := 0; trial < 60; trial++ {
		truth := candidate{randomSet(), randomSet(), randomSet(), randomSet(), randomSet()}
		other := truth
		if trial%2 == 1 {
			other = candidate{randomSet(), randomSet(), randomSet(), randomSet(), randomSet()}
		}
		e := make(exp, insns)
		for e.size() == 0 || len(sp.unitsOfExp(e)) > maxSubsetUnits {
			for i := range e {
				e[i] = rng.IntN(3)
			}
		}
		cycles := mappingOf(truth).Evaluate(terms(e)).Cycles
		if trial%3 == 2 {
			cycles += 0.25 * float64(1+rng.IntN(3))
		}
		want := math.Abs(mappingOf(other).Evaluate(terms(e)).Cycles-cycles) < 1e-6
		for _, units := range []int{maxSubsetUnits, 0} {
			sp.subsetUnits = units
			var base []string
			cmds := sp.measurementCommands(ss, trial*2+min(units, 1), e, cycles, &base)
			if err := sess.Assert(context.Background(), base...); err != nil {
				t.Fatal(err)
			}
			if err := sess.Push(t.Context()); err != nil {
				t.Fatal(err)
			}
			if err := sess.Assert(t.Context(), cmds...); err != nil {
				t.Fatal(err)
			}
			var fix []string
			for u, s := range other {
				for k := 0; k < ports; k++ {
					lit := mvar(u, k)
					if s&(1<<k) == 0 {
						lit = "(not " + lit + ")"
					}
					fix = append(fix, lit)
				}
			}
			st, err := sess.Check(t.Context(), fix...)
			if err != nil {
				t.Fatal(err)
			}
			if got := st == z3.Sat; got != want {
				t.Errorf("subset units %d: %v measured %.4g cycles, mapping %v predicts %.4g: consistent %v, want %v",
					units, e, cycles, other, mappingOf(other).Evaluate(terms(e)).Cycles, got, want)
			}
			checks[fmt.Sprint(want)]++
			if err := sess.Pop(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checks["true"] == 0 || checks["false"] == 0 {
		t.Errorf("checks %v: want both outcomes", checks)
	}
}
