package llvmmca

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"

	"github.com/portlab/portlab/lib/isa"
)

// CPUCandidates returns llvm-mca -mcpu names for the processor h, the
// closest model first (the newest of its family, then older ones of the
// same microarchitecture line), or nil when portlab knows none.
func CPUCandidates(h isa.HostInfo) []string {
	switch {
	case h.Vendor == "AuthenticAMD" && h.Family == 0x17 && h.Model < 0x30:
		return []string{"znver1"} // Zen, Zen+
	case h.Vendor == "AuthenticAMD" && h.Family == 0x17:
		return []string{"znver2", "znver1"}
	case h.Vendor == "AuthenticAMD" && h.Family == 0x19 &&
		(h.Model >= 0x10 && h.Model <= 0x1f || h.Model >= 0x60 && h.Model <= 0x7f || h.Model >= 0xa0 && h.Model <= 0xaf):
		return []string{"znver4", "znver3", "znver2"} // Zen 4
	case h.Vendor == "AuthenticAMD" && h.Family == 0x19:
		return []string{"znver3", "znver2"}
	case h.Vendor == "AuthenticAMD" && h.Family == 0x1a:
		return []string{"znver5", "znver4", "znver3"}
	case h.Vendor == "GenuineIntel" && h.Family == 6:
		switch h.Model {
		case 0x4e, 0x5e, 0x8e, 0x9e, 0xa5, 0xa6:
			return []string{"skylake"}
		case 0x55:
			return []string{"cascadelake", "skylake-avx512"}
		case 0x6a, 0x6c:
			return []string{"icelake-server", "skylake-avx512"}
		case 0x7d, 0x7e:
			return []string{"icelake-client", "skylake"}
		case 0x8c, 0x8d:
			return []string{"tigerlake", "icelake-client"}
		case 0x8f, 0xcf:
			return []string{"sapphirerapids", "icelake-server"}
		case 0x97, 0x9a, 0xb7, 0xba, 0xbf:
			return []string{"alderlake", "skylake"}
		case 0xad, 0xae:
			return []string{"graniterapids", "sapphirerapids", "icelake-server"}
		}
	case h.ISA == isa.AArch64 && h.Vendor == "0x41":
		switch h.Model {
		case 0xd08:
			return []string{"cortex-a72"}
		case 0xd0c:
			return []string{"neoverse-n1"}
		case 0xd40:
			return []string{"neoverse-v1"}
		case 0xd4f:
			return []string{"neoverse-v2", "neoverse-v1"}
		}
	}
	return nil
}

// HostCPU returns the llvm-mca -mcpu for this machine: the first of
// CPUCandidates(host) that the llvm-mca found by the predictor (Binary or
// Find) knows.
func (p *Predictor) HostCPU(ctx context.Context) (string, error) {
	h, err := isa.HostSupport()
	if err != nil {
		return "", err
	}
	cands := CPUCandidates(h)
	if len(cands) == 0 {
		return "", fmt.Errorf("llvm-mca: no -mcpu known for this host (%s family %#x model %#x, %q); name one with -mcpu", h.Vendor, h.Family, h.Model, h.ModelName)
	}
	bin, err := p.binary()
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, bin, "-mtriple="+triple(h.ISA), "-mcpu=help")
	cmd.Stdin = strings.NewReader("")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Run() // prints the list, whatever its exit status
	known := map[string]bool{}
	for _, line := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[1] == "-" {
			known[f[0]] = true
		}
	}
	for _, c := range cands {
		if known[c] {
			return c, nil
		}
	}
	return "", fmt.Errorf("llvm-mca: %s knows none of %s for this host (%s family %#x model %#x); name a CPU with -mcpu", bin, strings.Join(cands, ", "), h.Vendor, h.Family, h.Model)
}
