package measure

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/isa"
)

// knownLatency is the latency in cycles of the forms of
// TestLatencyDesignKnownAnswers on a family of cores: add r64, r64 and
// imul r64, r64 take 1 and 3 cycles on every x86-64 core of the last
// decade (Agner Fog, Instruction tables; uops.info), vaddps xmm takes 4
// on Intel's Skylake and Ice Lake cores and 3 on AMD's Zen 1 to Zen 4
// (uops.info; AMD Software Optimization Guides for families 17h and
// 19h), 2 on Zen 5 (AMD's Zen 5 optimization guide, family 1Ah: the FP
// adders' latency went down to 2).
func knownLatency(h isa.HostInfo) (vaddps float64, ok bool) {
	switch {
	case h.Vendor == "AuthenticAMD" && (h.Family == 0x17 || h.Family == 0x19):
		return 3, true
	case h.Vendor == "AuthenticAMD" && h.Family == 0x1a:
		return 2, true
	case h.Vendor == "GenuineIntel" && h.Family == 6:
		switch h.Model {
		case 0x4e, 0x5e, 0x8e, 0x9e, 0x55, 0x6a, 0x6c, 0x7d, 0x7e, 0x8c:
			// Skylake, Kaby/Coffee Lake, Skylake-SP/Cascade Lake, Ice
			// Lake-SP, Ice Lake, Tiger Lake.
			return 4, true
		}
	}
	return 0, false
}

// TestLatencyDesignKnownAnswers measures the latency design of three
// forms through a campaign and checks the operand pairs whose latency is
// known for the detected family; a second run answers everything from the
// journal.
func TestLatencyDesignKnownAnswers(t *testing.T) {
	host, err := isa.HostSupport()
	if err != nil {
		t.Fatal(err)
	}
	vaddps, ok := knownLatency(host)
	if !ok {
		t.Skipf("no known latencies for %s family %#x model %#x", host.Vendor, host.Family, host.Model)
	}
	forms := []string{"add RW:GPR:64, R:GPR:64", "imul RW:GPR:64, R:GPR:64", "vaddps W:XMM0..15, R:XMM0..15, R:XMM0..15", "mov qword ptr W:MEM(64), R:GPR:64"}
	exps, none := design.Latency(forms)
	if len(exps) != 6 || len(none) != 1 || none[0].Experiment.Items()[0].Insn != forms[3] {
		t.Fatalf("design: %v, without a chain %v; want 2 pairs each of the register forms and the store without", exps, none)
	}
	want := map[string]float64{
		design.LatencyName(forms[0], 0, 0): 1, design.LatencyName(forms[0], 1, 0): 1,
		design.LatencyName(forms[1], 0, 0): 3, design.LatencyName(forms[1], 1, 0): 3,
		design.LatencyName(forms[2], 1, 0): vaddps, design.LatencyName(forms[2], 2, 0): vaddps,
	}
	h, err := NewHardware(testCPU(t))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.Kernels = LatencyKernel
	path := filepath.Join(t.TempDir(), "latency.jsonl")
	camp, err := OpenCampaign(path, h)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	out, err := camp.Run(ctx, exps, nil)
	camp.Close()
	if err != nil || len(out.Failures) > 0 || out.Set.Len() != len(exps) {
		t.Fatalf("campaign: %v, failures %v", err, out.Failures)
	}
	for _, m := range out.Set.Measurements {
		name := m.Experiment.Items()[0].Insn
		// The fastest of the agreeing passes; a latency is whole cycles.
		if math.Abs(m.Cycles-want[name]) > 0.1*want[name] {
			t.Errorf("%s: %.3f cycles, want %v ± 10 %% (%s family %#x)", name, m.Cycles, want[name], host.Vendor, host.Family)
		} else {
			t.Logf("%s: %.3f cycles (contention %.2f)", name, m.Cycles, m.Contention)
		}
	}
	lat := design.Latencies(out.Set)
	if l := lat[forms[2]]; l.Cycles != int(vaddps) || len(l.Operands) != 2 || l.Operands[1].From != 2 {
		t.Errorf("vaddps: %+v, want %v cycles from operands 1 and 2", l, vaddps)
	}
	camp, err = OpenCampaign(path, h)
	if err != nil {
		t.Fatal(err)
	}
	defer camp.Close()
	if out, err = camp.Run(ctx, exps, nil); err != nil || out.Resumed != len(exps) || camp.Measured() != 0 {
		t.Errorf("rerun: %v, %d resumed, %d measured; want all %d from the journal", err, out.Resumed, camp.Measured(), len(exps))
	}
}
