package cegis

import (
	"math/big"
	"testing"

	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// TestShortDirection is a bug the three-level sweep found: the relaxed
// (rational) findOtherMapping answered with a vertex of huge denominators,
// the exact integer experiment had billions of instructions per
// instruction, clamped to portmap.MaxCount that turned its direction
// 2:1 into 1:1, and the measurement told the two mappings apart no more
// (three stalls, an UndecidedError, on 3 of 22 three-level points). A
// short experiment along the rational direction does tell them apart.
func TestShortDirection(t *testing.T) {
	m1 := portmap.MustMapping("m1", "0", "1").MustSetUsage("a", "1*p0").MustSetUsage("b", "1*p01")
	m2 := portmap.MustMapping("m2", "0", "1").MustSetUsage("a", "1*p01").MustSetUsage("b", "1*p0")
	md1, md2 := throughput.NewModel(m1), throughput.NewModel(m2)
	d := new(big.Int).Lsh(big.NewInt(3), 33) // 3·2^33
	a := new(big.Rat).SetFrac(new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 34), big.NewInt(1)), d)
	b := new(big.Rat).SetFrac(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 33), big.NewInt(1)), d)
	rats := []*big.Rat{a, b}
	r := &run{sp: &space{eps: 0.02}}
	apart := func(e exp) bool {
		ts := terms(e)
		diff := md1.Evaluate(ts).Cycles - md2.Evaluate(ts).Cycles
		return diff*diff > (separation*r.sp.eps*float64(e.size()))*(separation*r.sp.eps*float64(e.size()))
	}
	if exact := integral(rats); exact[0] != portmap.MaxCount || exact[1] != portmap.MaxCount || apart(exact) {
		t.Fatalf("the exact experiment %v: want both counts clamped and the mappings not told apart (the bug's setting)", exact)
	}
	e, ok := r.shortDirection(md1, md2, rats)
	if !ok || !apart(e) || e.size() > 4 {
		t.Errorf("short experiment %v (%v): want one of a few instructions that tells the mappings apart", e, ok)
	}
	// Mappings that no experiment tells apart: none.
	if e, ok := r.shortDirection(md1, md1, rats); ok {
		t.Errorf("a mapping told apart from itself by %v", e)
	}
}
