package dataset_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/portmap"
)

// TestZenPlusLike checks the simulated Zen+-like machine against what the
// thesis measured on Zen+ (§6.3; notes §7 item 6): the store-µop argument,
// the 5-IPC peak mix, the compare port counts 1/2/3, 256-bit doubling and
// load µops, and the macro-op counter; every instruction is a valid
// uops.info scheme.
func TestZenPlusLike(t *testing.T) {
	m, err := dataset.SimulatedMachine(dataset.ZenPlusLikeName)
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
	if !strings.Contains(m.String(), "peak 5 instructions per cycle") {
		t.Errorf("String: %s", m)
	}
	same, err := dataset.Mapping(dataset.ZenPlusLikeName)
	if err != nil || same.Len() != m.Mapping.Len() {
		t.Errorf("Mapping(%q): %v", dataset.ZenPlusLikeName, err)
	}
	if _, err := dataset.SimulatedMachine("portlab:nonesuch"); err == nil || !strings.Contains(err.Error(), dataset.ZenPlusLikeName) {
		t.Errorf("unknown machine: %v", err)
	}
	t.Log(m)
}
