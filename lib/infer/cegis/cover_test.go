package cegis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/solver/z3"
	"github.com/portlab/portlab/lib/throughput"
)

// coverSpace returns a two-level space of n instructions on the given
// ports with tolerance eps.
func coverSpace(ports, n int, eps float64) *space {
	sp := &space{ports: ports, enc: Bottleneck, eps: eps + roundingSlack}
	for i := 0; i < n; i++ {
		sp.insns = append(sp.insns, fmt.Sprintf("i%d", i))
		sp.owner = append(sp.owner, i)
		sp.unitsOf = append(sp.unitsOf, []int{i})
	}
	return sp
}

// randomCandidate returns port sets of 1 to 3 random ports for n units.
func randomCandidate(rng *rand.Rand, ports, n int) candidate {
	c := make(candidate, n)
	for u := range c {
		c[u] = portmap.Ports(rng.Perm(ports)[:1+rng.IntN(min(3, ports))]...)
	}
	return c
}

func candidateModel(sp *space, c candidate) *throughput.Model {
	r := &run{sp: sp}
	for k := 0; k < sp.ports; k++ {
		r.portIDs = append(r.portIDs, fmt.Sprint(k))
	}
	return r.model(c)
}

// bruteDistinguish looks for an experiment of 1 to maxSize instructions
// on which the two candidates differ by more than 2ε·|e|.
func bruteDistinguish(sp *space, m1, m2 candidate, maxSize int) (exp, bool) {
	md1, md2 := candidateModel(sp, m1), candidateModel(sp, m2)
	e := make(exp, len(sp.insns))
	var walk func(i, left int) bool
	walk = func(i, left int) bool {
		if i == len(e) {
			if e.size() == 0 {
				return false
			}
			ts := terms(e)
			d := math.Abs(md1.Evaluate(ts).Cycles - md2.Evaluate(ts).Cycles)
			return d > separation*sp.eps*float64(e.size())+1e-9
		}
		for c := 0; c <= left; c++ {
			e[i] = c
			if walk(i+1, left-c) {
				return true
			}
		}
		e[i] = 0
		return false
	}
	if walk(0, maxSize) {
		return e, true
	}
	return nil, false
}

// TestCoverDistinguishComplete holds the union-count decision to a
// search of every experiment of up to eight instructions with the
// bottleneck simulator (the experiments coverExperiment builds have at
// most as many instructions as ports): two random mappings of four
// instructions on four ports are told apart by the union counts exactly
// when some experiment tells them apart, and the experiment returned
// does, for ε = 0 and ε = 0.02.
func TestCoverDistinguishComplete(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	outcomes := map[bool]int{}
	for _, eps := range []float64{0, 0.02} {
		sp := coverSpace(4, 4, eps)
		for trial := 0; trial < 150; trial++ {
			m1 := randomCandidate(rng, 4, 4)
			m2 := randomCandidate(rng, 4, 4)
			if trial%5 == 0 {
				// A renaming of m1: never told apart.
				perm := rng.Perm(4)
				for u, s := range m1 {
					var r portmap.PortSet
					for k := 0; k < 4; k++ {
						if s&(1<<k) != 0 {
							r |= 1 << perm[k]
						}
					}
					m2[u] = r
				}
			}
			e, got := sp.coverDistinguish(m1, m2)
			be, want := bruteDistinguish(sp, m1, m2, 8)
			outcomes[want]++
			if got != want {
				t.Fatalf("ε %g: %v and %v: union counts tell apart %v (%v), experiments up to 8 %v (%v)", eps, m1, m2, got, e, want, be)
			}
			if !got {
				continue
			}
			ts := terms(e)
			d := math.Abs(candidateModel(sp, m1).Evaluate(ts).Cycles - candidateModel(sp, m2).Evaluate(ts).Cycles)
			if d <= separation*sp.eps*float64(e.size()) {
				t.Errorf("ε %g: %v and %v: experiment %v differs by %g only", eps, m1, m2, e, d)
			}
		}
	}
	if outcomes[true] == 0 || outcomes[false] == 0 {
		t.Errorf("outcomes %v: want both", outcomes)
	}
}

// TestCoverQueryAgrees fixes the free mapping in the solver and asks the
// Boolean distinguishing question and the real-valued one
// (otherCommands, relaxed) against a second mapping: both are
// satisfiable exactly when the union counts tell the two apart, for
// random mappings of five instructions on five ports, in each direction.
func TestCoverQueryAgrees(t *testing.T) {
	needZ3(t)
	const ports, n = 5, 5
	rng := rand.New(rand.NewPCG(17, 19))
	sess, err := z3.Start(t.Context(), z3.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	sp := coverSpace(ports, n, 0.02)
	if err := sess.Assert(t.Context(), sp.baseCommands(false)...); err != nil {
		t.Fatal(err)
	}
	ss := newSubsets()
	outcomes := map[bool]int{}
	for trial := 0; trial < 24; trial++ {
		m1 := randomCandidate(rng, ports, n)
		m2 := randomCandidate(rng, ports, n)
		switch trial % 3 {
		case 0: // a renaming of m1: never told apart
			perm := rng.Perm(ports)
			for u, s := range m1 {
				m2[u] = 0
				for k := 0; k < ports; k++ {
					if s&(1<<k) != 0 {
						m2[u] |= 1 << perm[k]
					}
				}
			}
		case 1: // one port set changed
			copy(m2, m1)
			m2[rng.IntN(n)] = portmap.Ports(rng.IntN(ports))
		}
		var fix []string
		for u, s := range m2 {
			for k := 0; k < ports; k++ {
				lit := mvar(u, k)
				if s&(1<<k) == 0 {
					lit = "(not " + lit + ")"
				}
				fix = append(fix, lit)
			}
		}
		_, want := sp.coverDistinguish(m1, m2)
		outcomes[want]++
		var base []string
		for _, q := range []struct {
			name string
			cmds []string
		}{
			{"boolean", sp.coverCommands(m1)},
			{"real", sp.otherCommands(ss, m1, 0, true, &base)},
		} {
			if err := sess.Assert(t.Context(), base...); err != nil {
				t.Fatal(err)
			}
			if err := sess.Push(t.Context()); err != nil {
				t.Fatal(err)
			}
			if err := sess.Assert(t.Context(), q.cmds...); err != nil {
				t.Fatal(err)
			}
			got := false
			for _, dir := range []string{"(not down)", "(not up)"} {
				st, err := sess.Check(t.Context(), append(fix, dir)...)
				if err != nil {
					t.Fatal(err)
				}
				got = got || st == z3.Sat
			}
			if got != want {
				t.Errorf("%s query: %v against %v: satisfiable %v, union counts tell apart %v", q.name, m2, m1, got, want)
			}
			if err := sess.Pop(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
	}
	if outcomes[true] == 0 || outcomes[false] == 0 {
		t.Errorf("outcomes %v: want both", outcomes)
	}
}

// TestCoverLeast checks the port counts that tell mappings apart against
// the tolerance: with ε = 0 any larger union does, with ε = 0.02 on 12
// ports 6 and 7 ports differ by 1/42 < 0.04 and 6 and 12 by 1/12 > 0.04.
func TestCoverLeast(t *testing.T) {
	sp := coverSpace(12, 1, 0)
	for a := 1; a < 12; a++ {
		if got := sp.coverLeast(a); got != a+1 {
			t.Errorf("ε 0: coverLeast(%d) = %d, want %d", a, got, a+1)
		}
	}
	if got := sp.coverLeast(12); got != 0 {
		t.Errorf("ε 0: coverLeast(12) = %d, want 0", got)
	}
	sp = coverSpace(12, 1, 0.02)
	// 1/6 − 1/b > 0.04 ⇔ b > 7.89.
	if got := sp.coverLeast(6); got != 8 {
		t.Errorf("ε 0.02: coverLeast(6) = %d, want 8", got)
	}
	// 1/11 − 1/12 < 0.04: no b.
	if got := sp.coverLeast(11); got != 0 {
		t.Errorf("ε 0.02: coverLeast(11) = %d, want 0", got)
	}
}

// TestInferRenamingExact infers random two-level truths of eight
// instructions on seven ports from exact measurements with ε = 0, once
// with the Boolean form of the unbounded question and once without: a
// complete result is then the truth up to a renaming of the ports (the
// union counts of all instruction sets determine a two-level mapping up
// to renaming).
func TestInferRenamingExact(t *testing.T) {
	needZ3(t)
	for seed := uint64(1); seed <= 2; seed++ {
		truth := randomTwoLevel(7, 8, seed)
		for _, noCover := range []bool{false, true} {
			cfg := DefaultConfig()
			cfg.Epsilon, cfg.Validation, cfg.NoCover = 0, 0, noCover
			res, err := Infer(t.Context(), oracle.Simulate(truth, 0, 1), truth.Instructions(), 7, cfg)
			if err != nil {
				t.Fatalf("truth %d, no cover %v: %v", seed, noCover, err)
			}
			if _, ok := portmap.EquivalentByRenaming(res.Mapping, truth); !ok || !res.Complete {
				t.Errorf("truth %d, no cover %v: complete %v, inferred\n%v\nnot a renaming of\n%v", seed, noCover, res.Complete, res.Mapping, truth)
			}
		}
	}
}
