package machine_test

import (
	"context"
	"maps"
	"math"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// TestZenPlusLikeAsBefore checks that the description
// machines/zenplus-like.json is the machine the Go code built before: the
// same mapping (forms in the same order, the same µops), the same peak,
// the same count of the µop counter for every form, and so the same
// simulated measurements (cycles and µops counted, with and without noise)
// and predictions of random experiments.
func TestZenPlusLikeAsBefore(t *testing.T) {
	m, err := machine.Lookup(machine.ZenPlusLikeName)
	if err != nil {
		t.Fatal(err)
	}
	wantMapping, wantIPC, wantCounted := formerZenPlusLike()
	if m.Mapping.Name() != wantMapping.Name() || strings.Join(m.Mapping.Ports(), " ") != strings.Join(wantMapping.Ports(), " ") {
		t.Errorf("mapping %q on %v, want %q on %v", m.Mapping.Name(), m.Mapping.Ports(), wantMapping.Name(), wantMapping.Ports())
	}
	insns := m.Mapping.Instructions()
	if strings.Join(insns, "\n") != strings.Join(wantMapping.Instructions(), "\n") {
		t.Fatalf("forms differ: %d, want %d", len(insns), wantMapping.Len())
	}
	for _, insn := range insns {
		if m.Mapping.Usage(insn) != wantMapping.Usage(insn) {
			t.Errorf("%s: %s, want %s", insn, m.Mapping.Usage(insn), wantMapping.Usage(insn))
		}
	}
	if m.InstructionsPerCycle != wantIPC || m.UopsPerCycle != 0 {
		t.Errorf("front end %+v, want %g instructions per cycle", m.FrontEnd, wantIPC)
	}
	if got := m.Counted(); !maps.Equal(got, wantCounted) {
		for _, insn := range insns {
			if got[insn] != wantCounted[insn] {
				t.Errorf("%s counts %d, want %d", insn, got[insn], wantCounted[insn])
			}
		}
		t.Fatalf("counted differ")
	}

	exps := design.Random(insns, 5, 2000, 7)
	for _, noise := range []float64{0, 0.02} {
		before := oracle.Simulate(wantMapping, noise, 3)
		before.Model = before.Model.WithFrontEnd(throughput.FrontEnd{InstructionsPerCycle: wantIPC})
		before.Counted = wantCounted
		got, _, err := oracle.MeasureAll(context.Background(), m.Oracle(noise, 3), exps, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := oracle.MeasureAll(context.Background(), before, exps, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Measurements) != len(exps) || len(want.Measurements) != len(exps) {
			t.Fatalf("measured %d and %d of %d", len(got.Measurements), len(want.Measurements), len(exps))
		}
		for i := range exps {
			g, w := got.Measurements[i], want.Measurements[i]
			if g.Cycles != w.Cycles || g.Uops != w.Uops {
				t.Fatalf("noise %g, %v: %v cycles, %v counted; before %v and %v", noise, exps[i], g.Cycles, g.Uops, w.Cycles, w.Uops)
			}
		}
	}
	p := oracle.FromMapping(wantMapping)
	p.FrontEnd.InstructionsPerCycle = wantIPC
	got, err := m.Predictor().Predict(context.Background(), exps)
	if err != nil {
		t.Fatal(err)
	}
	want, err := p.Predict(context.Background(), exps)
	if err != nil {
		t.Fatal(err)
	}
	for i := range exps {
		if got[i] != want[i] {
			t.Fatalf("%v: predicted %v, before %v", exps[i], got[i], want[i])
		}
	}
	if m.Predictor().Name() != machine.ZenPlusLikeName {
		t.Errorf("predictor name %q", m.Predictor().Name())
	}
}

// TestZenPlusLike checks the simulated Zen+-like machine against what the
// thesis measured on Zen+ (§6.3): the store-µop argument, the 5-IPC peak
// mix, the compare port counts 1/2/3, 256-bit doubling and load µops, and
// the macro-op counter; every instruction is a valid uops.info scheme.
func TestZenPlusLike(t *testing.T) {
	m, err := machine.Lookup(machine.ZenPlusLikeName)
	if err != nil {
		t.Fatal(err)
	}
	if m.Mapping.NumPorts() != 10 || m.InstructionsPerCycle != 5 {
		t.Fatalf("%v", m)
	}
	for _, insn := range m.Mapping.Instructions() {
		if _, err := isa.ParseScheme(insn); err != nil {
			t.Errorf("%q: %v", insn, err)
		}
	}
	o := m.Oracle(0, 1)
	const (
		add     = "add RW:GPR:32, R:GPR:32"
		movSt   = "mov dword ptr W:MEM(32), R:GPR:32"
		vmovSt  = "vmovapd xmmword ptr W:MEM(128), R:XMM0..15"
		load    = "mov W:GPR:32, dword ptr R:MEM(32)"
		bcast   = "vbroadcastss W:XMM0..15, R:XMM0..15"
		round   = "vroundps W:XMM0..15, R:XMM0..15, IMM(8)"
		addMem  = "add RW:GPR:32, dword ptr R:MEM(32)"
		eqqYmmM = "vpcmpeqq W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"
	)
	cases := []struct {
		e            portmap.Experiment
		cycles, uops float64
	}{
		{portmap.NewExperiment().With(movSt, 1).With(add, 4), 1.25, 5}, // the store has an ALU µop
		{portmap.NewExperiment().With(vmovSt, 1).With(add, 4), 1.0, 5}, // this one has none
		{portmap.NewExperiment(movSt, vmovSt), 2.0, 2},                 // they share the store port
		{portmap.NewExperiment().With(load, 2).With(bcast, 2).With(round, 1), 1.0, 5},
		{portmap.NewExperiment().With(add, 5), 1.25, 5}, // 4 ALUs
		{portmap.NewExperiment("vpcmpgtq W:XMM0..15, R:XMM0..15, R:XMM0..15"), 1, 1},
		{portmap.NewExperiment("vpcmpeqq W:XMM0..15, R:XMM0..15, R:XMM0..15"), 0.5, 1},
		{portmap.NewExperiment("vpcmpgtb W:XMM0..15, R:XMM0..15, R:XMM0..15"), 1.0 / 3, 1},
		{portmap.NewExperiment(addMem), 0.5, 1},                                                                                                          // counts 1 macro-op for 2 µops
		{portmap.NewExperiment(eqqYmmM), 1, 2},                                                                                                           // 2×[0,3] + 2×[4,5], 2 macro-ops
		{portmap.NewExperiment(add, "vpor W:XMM0..15, R:XMM0..15, R:XMM0..15", load, bcast, round, "vpaddd W:XMM0..15, R:XMM0..15, R:XMM0..15"), 1.2, 6}, // 6 instructions at 5 IPC
	}
	for _, c := range cases {
		got, err := o.Measure(context.Background(), c.e)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.Cycles-c.cycles) > 1e-9 || got.Uops != c.uops {
			t.Errorf("%v: %v cycles, %v counted, want %v and %v", c.e, got.Cycles, got.Uops, c.cycles, c.uops)
		}
	}
	if m.Mapping.NumUops(eqqYmmM) != 4 || m.Mapping.NumUops("add byte ptr RW:MEM(8), IMM(8)") != 3 {
		t.Errorf("µops: %s; %s", m.Mapping.Usage(eqqYmmM), m.Mapping.Usage("add byte ptr RW:MEM(8), IMM(8)"))
	}
	const want = "portlab:zenplus-like: 162 instructions on 10 ports, peak 5 instructions per cycle, µop counter counts macro-ops (87 instructions count fewer than their µops)"
	if m.String() != want {
		t.Errorf("String:\n%s\nwant\n%s", m, want)
	}
	if strings.Join(m.LoadPorts, ",") != "4,5" || strings.Join(m.StorePorts, ",") != "5" {
		t.Errorf("load ports %v, store ports %v", m.LoadPorts, m.StorePorts)
	}
}

// TestUncountedUops checks the macro-op correction on the thesis's cases
// (Postulate 6.5).
func TestUncountedUops(t *testing.T) {
	for insn, want := range map[string]int{
		"add RW:GPR:32, dword ptr R:MEM(32)":                      1,
		"vpcmpeqq W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)": 2,
		"vpcmpeqq W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)": 1,
		"mov W:GPR:32, dword ptr R:MEM(32)":                       0, // loading move
		"mov dword ptr W:MEM(32), R:GPR:32":                       1,
		"lea W:GPR:64, MEM(0)":                                    0,
		"add RW:GPR:32, R:GPR:32":                                 0,
		"vmovaps W:YMM0..15, ymmword ptr R:MEM(256)":              0,
		"add byte ptr RW:MEM(8), IMM(8)":                          1,
	} {
		if got, err := machine.UncountedUops(insn); err != nil || got != want {
			t.Errorf("%s: %d, %v; want %d", insn, got, err, want)
		}
	}
	if _, err := machine.UncountedUops("no such thing ("); err == nil || !strings.Contains(err.Error(), "x86 scheme") {
		t.Errorf("bad scheme: %v", err)
	}
}
