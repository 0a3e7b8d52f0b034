package isa

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func readCPUInfo(t *testing.T, file, isa string) HostInfo {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, err := ParseCPUInfo(f, isa)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestParseCPUInfo(t *testing.T) {
	zen := readCPUInfo(t, "cpuinfo_zen5.txt", X86)
	if zen.Vendor != "AuthenticAMD" || zen.Family != 26 || zen.Model != 2 || zen.ModelName != "AMD EPYC" || zen.Stepping != 1 || zen.Microcode != "0x1000065" {
		t.Errorf("Zen 5: %+v", zen)
	}
	skl := readCPUInfo(t, "cpuinfo_skl.txt", X86)
	if skl.Vendor != "GenuineIntel" || skl.Family != 6 || skl.Model != 94 || !strings.Contains(skl.ModelName, "i7-6700") || skl.Stepping != 3 || skl.Microcode != "" {
		t.Errorf("Skylake: %+v", skl)
	}
	a72 := readCPUInfo(t, "cpuinfo_a72.txt", AArch64)
	if a72.Vendor != "0x41" || a72.Family != 8 || a72.Model != 0xd08 || a72.Stepping != 3 || !a72.Flags["asimd"] || !a72.Flags["crc32"] {
		t.Errorf("A72: %+v", a72)
	}
	if _, err := ParseCPUInfo(strings.NewReader("\n\n"), X86); err == nil {
		t.Error("empty cpuinfo accepted")
	}
	if _, err := ParseCPUInfo(strings.NewReader("processor : 0\n"), "mips"); err == nil {
		t.Error("unknown ISA accepted")
	}
}

func TestSupports(t *testing.T) {
	zen := readCPUInfo(t, "cpuinfo_zen5.txt", X86)
	skl := readCPUInfo(t, "cpuinfo_skl.txt", X86)
	a72 := readCPUInfo(t, "cpuinfo_a72.txt", AArch64)
	for _, c := range []struct {
		isa, scheme, ext string
		zen, skl, a72    bool
	}{
		{X86, "add RW:GPR:64, R:GPR:64", "BASE", true, true, false},
		{X86, "vaddps W:YMM0..15, R:YMM0..15, R:YMM0..15", "AVX", true, true, false},
		{X86, "vaddps W:ZMM0..31, R:ZMM0..31, R:ZMM0..31", "AVX512F", true, false, false},
		{X86, "vaddps W:YMM0..31, R:YMM0..31, R:YMM0..31", "AVX512F+AVX512VL", true, false, false},
		{X86, "pdep W:GPR:64, R:GPR:64, R:GPR:64", "BMI2", true, true, false},
		{X86, "sha256rnds2 RW:XMM0..15, R:XMM0..15, R:xmm0", "SHA", true, false, false},
		{X86, "add RW:GPR:64, R:GPR:64", "", true, true, false}, // extension of the curated form
		{X86, "vpaddd W:ZMM0..31, R:ZMM0..31, R:ZMM0..31", "", true, false, false},
		{X86, "rcl RW:GPR:64, R:cl", "", false, false, false},           // not curated: unknown
		{X86, "add RW:GPR:64, R:GPR:64", "NOSUCH", false, false, false}, // unknown extension
		{AArch64, "add W:GPR:64, R:GPR:64, R:GPR:64", "BASE", false, false, true},
		{AArch64, "fadd W:VEC.4s, R:VEC.4s, R:VEC.4s", "ASIMD", false, false, true},
		{AArch64, "sdot RW:VEC.4s, R:VEC.16b, R:VEC.16b", "DOTPROD", false, false, false},
		{AArch64, "aese RW:VEC.16b, R:VEC.16b", "AES", false, false, false},
	} {
		f := MustParseSchemeISA(c.isa, c.scheme)
		f.Extension = c.ext
		for _, h := range []struct {
			name string
			info HostInfo
			want bool
		}{{"Zen 5", zen, c.zen}, {"Skylake", skl, c.skl}, {"A72", a72, c.a72}} {
			if got := h.info.Supports(f); got != h.want {
				t.Errorf("%s supports %s (%s): %v, want %v", h.name, c.scheme, c.ext, got, h.want)
			}
		}
	}
	ok, skipped := RunnableForms(X86Forms(), skl)
	if len(ok)+len(skipped) != len(X86Forms()) {
		t.Fatal("RunnableForms lost forms")
	}
	for _, f := range ok {
		if strings.Contains(f.Extension, "AVX512") {
			t.Errorf("Skylake client would run %s", f)
		}
	}
	t.Logf("Skylake client: %d x86 forms runnable, %d not", len(ok), len(skipped))
	_, skipped = RunnableForms(X86Forms(), zen)
	if len(skipped) != 0 {
		t.Errorf("Zen 5 cannot run %d forms, e.g. %s", len(skipped), skipped[0])
	}
	ok, skipped = RunnableForms(AArch64Forms(), a72)
	t.Logf("Cortex-A72: %d AArch64 forms runnable, %d not (%s…)", len(ok), len(skipped), skipped[0])
}

// The host check on this machine: which curated forms it can run.
func TestHostSupport(t *testing.T) {
	h, err := HostSupport()
	if err != nil {
		if runtime.GOOS != "linux" {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	forms := X86Forms()
	if h.ISA == AArch64 {
		forms = AArch64Forms()
	}
	ok, skipped := RunnableForms(forms, h)
	t.Logf("host: %s family %d model %d %q: %d of %d curated %s forms runnable", h.Vendor, h.Family, h.Model, h.ModelName, len(ok), len(forms), h.ISA)
	exts := map[string]bool{}
	for _, f := range skipped {
		exts[f.Extension] = true
	}
	if len(exts) > 0 {
		var names []string
		for e := range exts {
			names = append(names, e)
		}
		t.Logf("host lacks: %s", strings.Join(names, ", "))
	}
	if h.ISA == X86 && (len(ok) == 0 || !h.Supports(forms[0])) {
		t.Errorf("host cannot run %s", forms[0])
	}
}
