package isa

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
)

// HostInfo describes a processor as Linux reports it in /proc/cpuinfo (the
// first processor listed).
type HostInfo struct {
	ISA       string // X86 or AArch64
	Vendor    string // "AuthenticAMD", "GenuineIntel"; AArch64: the implementer code "0x41"
	Family    int    // x86 CPU family (26 for AMD Zen 5, 6 for Intel cores); AArch64: architecture (8)
	Model     int    // x86 model; AArch64: the part number (0xd08 for Cortex-A72)
	ModelName string // "AMD EPYC 9B45", "Intel(R) Xeon(R) Platinum 8375C"; may be empty
	// Stepping is the x86 stepping (AArch64: the revision); Microcode the
	// microcode revision as Linux prints it ("0xa0011d1"), empty where it
	// is not shown (many virtual machines hide it).
	Stepping  int
	Microcode string
	// Flags holds the feature flags ("avx2", "avx512f", "bmi2"; AArch64
	// "asimd", "crc32", "aes"), as Linux names them.
	Flags map[string]bool
}

// HostSupport reads /proc/cpuinfo and returns the description of the host
// processor. It returns an error on systems without /proc/cpuinfo (only
// Linux is supported) and if the file names no processor.
func HostSupport() (HostInfo, error) {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return HostInfo{}, fmt.Errorf("isa: host check needs Linux: %w", err)
	}
	defer f.Close()
	isa := X86
	if runtime.GOARCH == "arm64" {
		isa = AArch64
	}
	return ParseCPUInfo(f, isa)
}

// ParseCPUInfo reads the /proc/cpuinfo format of Linux for the ISA (X86 or
// AArch64) from r, for example a copy taken on another machine. Only the
// first processor's block is used.
func ParseCPUInfo(r io.Reader, isa string) (HostInfo, error) {
	h := HostInfo{ISA: isa, Flags: map[string]bool{}}
	if isa != X86 && isa != AArch64 {
		return h, fmt.Errorf("isa: unknown ISA %q", isa)
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	seen := false
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			if seen && len(h.Flags) > 0 {
				break // end of the first processor's block
			}
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch key {
		case "processor":
			seen = true
		case "vendor_id":
			h.Vendor = val
		case "CPU implementer":
			h.Vendor = val
		case "cpu family":
			h.Family, _ = strconv.Atoi(val)
		case "CPU architecture":
			h.Family, _ = strconv.Atoi(val)
		case "model":
			h.Model, _ = strconv.Atoi(val)
		case "CPU part":
			v, _ := strconv.ParseInt(strings.TrimPrefix(val, "0x"), 16, 32)
			h.Model = int(v)
		case "model name":
			h.ModelName = val
		case "stepping", "CPU revision":
			h.Stepping, _ = strconv.Atoi(val)
		case "microcode":
			h.Microcode = val
		case "flags", "Features":
			for _, fl := range strings.Fields(val) {
				h.Flags[fl] = true
			}
		}
	}
	if err := sc.Err(); err != nil {
		return h, fmt.Errorf("isa: reading cpuinfo: %w", err)
	}
	if !seen && len(h.Flags) == 0 {
		return h, fmt.Errorf("isa: cpuinfo lists no processor")
	}
	return h, nil
}

// extensionFlags maps extension names (as in Form.Extension; for x86 those
// of XED and uops.info, for AArch64 the architecture's) to the Linux
// cpuinfo flags they need. An empty list means always available.
var extensionFlags = map[string]map[string][]string{
	X86: {
		"BASE": nil, "I86": nil, "I186": nil, "I386": nil, "LONGMODE": {"lm"}, "CMOV": {"cmov"},
		"PAUSE": nil, "FAT_NOP": nil, "LAHF": {"lahf_lm"},
		"MMX": {"mmx"}, "SSE": {"sse"}, "SSE2": {"sse2"}, "SSE3": {"pni"}, "SSSE3": {"ssse3"},
		"SSE4": {"sse4_1"}, "SSE41": {"sse4_1"}, "SSE42": {"sse4_2"}, "SSE4a": {"sse4a"},
		"POPCNT": {"popcnt"}, "LZCNT": {"abm"}, "BMI1": {"bmi1"}, "BMI2": {"bmi2"}, "ADOX_ADCX": {"adx"},
		"MOVBE": {"movbe"}, "TBM": {"tbm"}, "F16C": {"f16c"}, "FMA": {"fma"}, "FMA4": {"fma4"},
		"AVX": {"avx"}, "AVX2": {"avx2"}, "AVX_VNNI": {"avx_vnni"},
		"AES": {"aes"}, "AVXAES": {"aes", "avx"}, "PCLMULQDQ": {"pclmulqdq"}, "VAES": {"vaes"},
		"VPCLMULQDQ": {"vpclmulqdq"}, "GFNI": {"gfni"}, "SHA": {"sha_ni"},
		"RDRAND": {"rdrand"}, "RDSEED": {"rdseed"}, "CLZERO": {"clzero"}, "RTM": {"rtm"},
		"MONITORX": {"mwaitx"}, "PKU": {"pku"}, "3DNOW_PREFETCH": {"3dnowprefetch"}, "FXSAVE": {"fxsr"},
		"AVX512F": {"avx512f"}, "AVX512BW": {"avx512bw"}, "AVX512DQ": {"avx512dq"},
		"AVX512CD": {"avx512cd"}, "AVX512VL": {"avx512vl"}, "AVX512_VBMI": {"avx512vbmi"},
		"AVX512_VBMI2": {"avx512_vbmi2"}, "AVX512_VNNI": {"avx512_vnni"},
		"AVX512_BITALG": {"avx512_bitalg"}, "AVX512_VPOPCNTDQ": {"avx512_vpopcntdq"},
		"AVX512_IFMA": {"avx512ifma"}, "AVX512_BF16": {"avx512_bf16"}, "AVX512_FP16": {"avx512_fp16"},
		"AVX512_VP2INTERSECT": {"avx512_vp2intersect"},
	},
	AArch64: {
		"BASE": nil, "FP": {"fp"}, "ASIMD": {"asimd"}, "CRC32": {"crc32"}, "AES": {"aes"},
		"SHA1": {"sha1"}, "SHA2": {"sha2"}, "DOTPROD": {"asimddp"}, "LSE": {"atomics"},
		"FP16": {"fphp", "asimdhp"}, "I8MM": {"i8mm"}, "BF16": {"bf16"}, "SVE": {"sve"}, "SVE2": {"sve2"},
	},
}

// RequiredFlags returns the cpuinfo flags the extension ext of the ISA needs
// ("AVX512F+AVX512VL" needs avx512f and avx512vl), and false if an
// extension in it is unknown.
func RequiredFlags(isa, ext string) ([]string, bool) {
	if ext == "" {
		return nil, false
	}
	var flags []string
	for _, e := range strings.Split(ext, "+") {
		fl, ok := extensionFlags[isa][e]
		if !ok {
			return nil, false
		}
		flags = append(flags, fl...)
	}
	sort.Strings(flags)
	return flags, true
}

// Supports reports whether the host can run form f: f is of the host's ISA
// and the host has every flag f's Extension needs. A form without an
// Extension (one parsed from data) takes the extension of the curated form
// with the same Key, if there is one; set Extension from the data (the
// uops.info extract has it per variant) for the others. Forms with an
// unknown extension are not supported: the check cannot vouch for them.
func (h HostInfo) Supports(f Form) bool {
	if f.ISA != h.ISA {
		return false
	}
	ext := f.Extension
	if ext == "" {
		ext = curatedExtension(f)
	}
	flags, ok := RequiredFlags(f.ISA, ext)
	if !ok {
		return false
	}
	for _, fl := range flags {
		if !h.Flags[fl] {
			return false
		}
	}
	return true
}

// RunnableForms splits forms into those the host h can run and those it
// cannot (see HostInfo.Supports), keeping their order.
func RunnableForms(forms []Form, h HostInfo) (ok, skipped []Form) {
	for _, f := range forms {
		if h.Supports(f) {
			ok = append(ok, f)
		} else {
			skipped = append(skipped, f)
		}
	}
	return ok, skipped
}
