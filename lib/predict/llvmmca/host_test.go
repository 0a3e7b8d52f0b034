package llvmmca

import (
	"slices"
	"testing"

	"github.com/portlab/portlab/lib/isa"
)

func TestCPUCandidates(t *testing.T) {
	for _, c := range []struct {
		h    isa.HostInfo
		want string
	}{
		{isa.HostInfo{Vendor: "AuthenticAMD", Family: 0x17, Model: 0x08}, "znver1"}, // Zen+
		{isa.HostInfo{Vendor: "AuthenticAMD", Family: 0x17, Model: 0x31}, "znver2"}, // Zen 2
		{isa.HostInfo{Vendor: "AuthenticAMD", Family: 0x19, Model: 0x01}, "znver3"}, // Zen 3 (EPYC 7003)
		{isa.HostInfo{Vendor: "AuthenticAMD", Family: 0x19, Model: 0x11}, "znver4"}, // Zen 4 (EPYC 9004)
		{isa.HostInfo{Vendor: "AuthenticAMD", Family: 0x1a, Model: 0x02}, "znver5"}, // Zen 5
		{isa.HostInfo{Vendor: "GenuineIntel", Family: 6, Model: 0x6a}, "icelake-server"},
		{isa.HostInfo{Vendor: "GenuineIntel", Family: 6, Model: 0x55}, "cascadelake"},
		{isa.HostInfo{ISA: isa.AArch64, Vendor: "0x41", Family: 8, Model: 0xd08}, "cortex-a72"},
	} {
		if got := CPUCandidates(c.h); len(got) == 0 || got[0] != c.want {
			t.Errorf("%+v: %v, want %s first", c.h, got, c.want)
		}
	}
	if got := CPUCandidates(isa.HostInfo{Vendor: "HygonGenuine", Family: 0x18}); got != nil {
		t.Errorf("unknown vendor: %v", got)
	}
}

// TestHostCPU asks the installed llvm-mca for this machine's CPU: one of
// the candidates for the host, which llvm-mca then accepts.
func TestHostCPU(t *testing.T) {
	needLLVMMCA(t)
	cpu, err := New("").HostCPU(t.Context())
	h, herr := isa.HostSupport()
	if herr != nil {
		t.Skip(herr)
	}
	cands := CPUCandidates(h)
	if len(cands) == 0 {
		if err == nil {
			t.Fatalf("no candidates for %+v, but HostCPU said %q", h, cpu)
		}
		t.Skipf("no llvm-mca CPU known for this host: %v", err)
	}
	if err != nil || !slices.Contains(cands, cpu) {
		t.Fatalf("HostCPU = %q, %v; candidates %v", cpu, err, cands)
	}
	t.Logf("host %s family %#x model %#x → -mcpu %s", h.Vendor, h.Family, h.Model, cpu)
}
