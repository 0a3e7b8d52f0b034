package design

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

func toyMapping() *portmap.Mapping {
	m := portmap.MustMapping("toy", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]").MustSetUsage("div", "3*[p1]")
	return m
}

func TestDesigns(t *testing.T) {
	insns := []string{"add", "mul", "store", "div"}
	if n := len(Singletons(insns)); n != 4 {
		t.Errorf("%d singletons", n)
	}
	if n := len(Pairs(insns)); n != 6 {
		t.Errorf("%d pairs, want 6", n)
	}
	single := map[string]float64{"add": 0.5, "mul": 1, "store": 1, "div": 3}
	rp, err := RatioPairs(insns, single)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range rp {
		got = append(got, e.String())
	}
	want := []string{"{add ↦ 2, mul ↦ 1}", "{add ↦ 2, store ↦ 1}", "{add ↦ 6, div ↦ 1}", "{div ↦ 1, mul ↦ 3}", "{div ↦ 1, store ↦ 3}"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("ratio pairs\n%v\nwant\n%v", got, want)
	}
	if _, err := RatioPairs([]string{"add", "nop"}, single); err == nil || !strings.Contains(err.Error(), `"nop"`) {
		t.Errorf("missing singleton: %v", err)
	}
	a, b := Random(insns, 5, 100, 7), Random(insns, 5, 100, 7)
	for i := range a {
		if !a[i].Equal(b[i]) || a[i].Len() != 5 {
			t.Fatalf("random experiment %d: %v vs %v", i, a[i], b[i])
		}
	}
}

func TestPMEvo(t *testing.T) {
	insns := []string{"add", "mul", "store", "div", "nop"} // nop is not mapped
	var last oracle.Progress
	set, fails, err := PMEvo(t.Context(), oracle.Simulate(toyMapping(), 0, 1), insns, func(p oracle.Progress) { last = p })
	if err != nil {
		t.Fatal(err)
	}
	// 4 singletons + 6 pairs + 5 ratio pairs measured; nop's singleton and
	// its 4 pairs fail.
	if set.Len() != 15 || len(fails) != 5 {
		t.Fatalf("%d measured, %d failed: %v", set.Len(), len(fails), fails)
	}
	if fails[0].Index != 4 || fails[0].Insn != "nop" || fails[1].Index != 5+3 {
		t.Errorf("failures %v", fails)
	}
	if last.Done != 20 || last.Total != 20 || last.Failed != 5 {
		t.Errorf("last progress %+v", last)
	}
	if c := SingletonCycles(set); c["div"] != 3 || c["add"] != 0.5 || len(c) != 4 {
		t.Errorf("singletons %v", c)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, _, err := PMEvo(ctx, oracle.Simulate(toyMapping(), 0, 1), insns, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestBuild(t *testing.T) {
	ctx := t.Context()
	insns := []string{"add", "mul", "store", "div"}
	o := oracle.Simulate(toyMapping(), 0, 1)
	for spec, n := range map[string]int{"singletons": 4, "pairs": 6, "ratio": 5, "pmevo": 15, "random:5:7": 7, " random:3:2:9 ": 2} {
		exps, err := Build(ctx, spec, insns, o)
		if err != nil || len(exps) != n {
			t.Errorf("%q: %d experiments, %v; want %d", spec, len(exps), err, n)
		}
	}
	a, _ := Build(ctx, "random:5:10", insns, nil)
	b, _ := Build(ctx, "random:5:10:1", insns, nil)
	if a[3].Key() != b[3].Key() {
		t.Error("random without a seed is not seed 1")
	}
	for spec, want := range map[string]string{
		"ratio": "needs an oracle", "random:0:5": "positive whole numbers", "random:5": "want random:LENGTH:COUNT",
		"randomly": "unknown design", "": "unknown design",
	} {
		if _, err := Build(ctx, spec, insns, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", spec, err, want)
		}
	}
}
