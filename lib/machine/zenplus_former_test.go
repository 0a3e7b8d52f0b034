package machine_test

import (
	"fmt"
	"strings"

	"github.com/portlab/portlab/lib/portmap"
)

// Port sets of the Zen+-like machine, named as in thesis Table 6.2: FP
// pipes 0–3, AGUs 4 and 5 (5 also stores), ALUs 6–9.
const (
	zpALU   = "[6,7,8,9]"
	zpLoad  = "[4,5]"
	zpStore = "[5]"
)

// zpVector are the vector forms of the Zen+-like machine: the port set of
// the 128-bit register form (FP pipes; from uops.info's Zen+ port usage,
// which measures the FP pipes, and which agrees with thesis Table 6.2 for
// the representatives), then the 128-bit register, 256-bit register,
// 128-bit and 256-bit memory-source forms (empty: none).
var zpVector = [][5]string{
	{"[0,1,2,3]", "vpor W:XMM0..15, R:XMM0..15, R:XMM0..15", "vpor W:YMM0..15, R:YMM0..15, R:YMM0..15", "vpor W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vpor W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[0,1,2,3]", "vpand W:XMM0..15, R:XMM0..15, R:XMM0..15", "vpand W:YMM0..15, R:YMM0..15, R:YMM0..15", "vpand W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vpand W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[0,1,2,3]", "vpxor W:XMM0..15, R:XMM0..15, R:XMM0..15", "vpxor W:YMM0..15, R:YMM0..15, R:YMM0..15", "vpxor W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vpxor W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[0,1,2,3]", "vandps W:XMM0..15, R:XMM0..15, R:XMM0..15", "vandps W:YMM0..15, R:YMM0..15, R:YMM0..15", "vandps W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vandps W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[0,1,3]", "vpaddd W:XMM0..15, R:XMM0..15, R:XMM0..15", "vpaddd W:YMM0..15, R:YMM0..15, R:YMM0..15", "vpaddd W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vpaddd W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[0,1,3]", "vpaddq W:XMM0..15, R:XMM0..15, R:XMM0..15", "vpaddq W:YMM0..15, R:YMM0..15, R:YMM0..15", "vpaddq W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vpaddq W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[0,1,3]", "vpaddb W:XMM0..15, R:XMM0..15, R:XMM0..15", "vpaddb W:YMM0..15, R:YMM0..15, R:YMM0..15", "vpaddb W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vpaddb W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[0,1,3]", "vpsubd W:XMM0..15, R:XMM0..15, R:XMM0..15", "vpsubd W:YMM0..15, R:YMM0..15, R:YMM0..15", "vpsubd W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vpsubd W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[0,1,3]", "vpcmpeqd W:XMM0..15, R:XMM0..15, R:XMM0..15", "vpcmpeqd W:YMM0..15, R:YMM0..15, R:YMM0..15", "vpcmpeqd W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vpcmpeqd W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[0,1,3]", "vpcmpeqb W:XMM0..15, R:XMM0..15, R:XMM0..15", "vpcmpeqb W:YMM0..15, R:YMM0..15, R:YMM0..15", "vpcmpeqb W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vpcmpeqb W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[0,1,3]", "vpcmpgtb W:XMM0..15, R:XMM0..15, R:XMM0..15", "vpcmpgtb W:YMM0..15, R:YMM0..15, R:YMM0..15", "vpcmpgtb W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vpcmpgtb W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[0,1]", "vminps W:XMM0..15, R:XMM0..15, R:XMM0..15", "vminps W:YMM0..15, R:YMM0..15, R:YMM0..15", "vminps W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vminps W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[0,1]", "vmaxps W:XMM0..15, R:XMM0..15, R:XMM0..15", "vmaxps W:YMM0..15, R:YMM0..15, R:YMM0..15", "vmaxps W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vmaxps W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[0,1]", "vmulps W:XMM0..15, R:XMM0..15, R:XMM0..15", "vmulps W:YMM0..15, R:YMM0..15, R:YMM0..15", "vmulps W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vmulps W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[1,2]", "vbroadcastss W:XMM0..15, R:XMM0..15", "vbroadcastss W:YMM0..15, R:XMM0..15", "", ""},
	{"[1,2]", "vpshufb W:XMM0..15, R:XMM0..15, R:XMM0..15", "vpshufb W:YMM0..15, R:YMM0..15, R:YMM0..15", "vpshufb W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vpshufb W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[1,2]", "vpunpcklbw W:XMM0..15, R:XMM0..15, R:XMM0..15", "vpunpcklbw W:YMM0..15, R:YMM0..15, R:YMM0..15", "vpunpcklbw W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vpunpcklbw W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[1,2]", "vunpcklps W:XMM0..15, R:XMM0..15, R:XMM0..15", "vunpcklps W:YMM0..15, R:YMM0..15, R:YMM0..15", "vunpcklps W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vunpcklps W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[0,3]", "vpaddsw W:XMM0..15, R:XMM0..15, R:XMM0..15", "vpaddsw W:YMM0..15, R:YMM0..15, R:YMM0..15", "vpaddsw W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vpaddsw W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[0,3]", "vpsubsw W:XMM0..15, R:XMM0..15, R:XMM0..15", "vpsubsw W:YMM0..15, R:YMM0..15, R:YMM0..15", "vpsubsw W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vpsubsw W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[0,3]", "vpavgb W:XMM0..15, R:XMM0..15, R:XMM0..15", "vpavgb W:YMM0..15, R:YMM0..15, R:YMM0..15", "vpavgb W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vpavgb W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[0,3]", "vpcmpeqq W:XMM0..15, R:XMM0..15, R:XMM0..15", "vpcmpeqq W:YMM0..15, R:YMM0..15, R:YMM0..15", "vpcmpeqq W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vpcmpeqq W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[0,3]", "vpabsd W:XMM0..15, R:XMM0..15", "vpabsd W:YMM0..15, R:YMM0..15", "vpabsd W:XMM0..15, xmmword ptr R:MEM(128)", "vpabsd W:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[2,3]", "vaddps W:XMM0..15, R:XMM0..15, R:XMM0..15", "vaddps W:YMM0..15, R:YMM0..15, R:YMM0..15", "vaddps W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vaddps W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[2,3]", "vsubps W:XMM0..15, R:XMM0..15, R:XMM0..15", "vsubps W:YMM0..15, R:YMM0..15, R:YMM0..15", "vsubps W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vsubps W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[2]", "vpslld W:XMM0..15, R:XMM0..15, R:XMM0..15", "", "vpslld W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", ""},
	{"[2]", "vpsllq W:XMM0..15, R:XMM0..15, R:XMM0..15", "", "vpsllq W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", ""},
	{"[2]", "vpsrld W:XMM0..15, R:XMM0..15, R:XMM0..15", "", "vpsrld W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", ""},
	{"[3]", "vroundps W:XMM0..15, R:XMM0..15, IMM(8)", "", "vroundps W:XMM0..15, xmmword ptr R:MEM(128), IMM(8)", ""},
	{"[3]", "vcvtdq2ps W:XMM0..15, R:XMM0..15", "vcvtdq2ps W:YMM0..15, R:YMM0..15", "vcvtdq2ps W:XMM0..15, xmmword ptr R:MEM(128)", "vcvtdq2ps W:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[0]", "vpcmpgtq W:XMM0..15, R:XMM0..15, R:XMM0..15", "vpcmpgtq W:YMM0..15, R:YMM0..15, R:YMM0..15", "vpcmpgtq W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vpcmpgtq W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[0]", "vpmullw W:XMM0..15, R:XMM0..15, R:XMM0..15", "vpmullw W:YMM0..15, R:YMM0..15, R:YMM0..15", "vpmullw W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vpmullw W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
	{"[1]", "vpermilps W:XMM0..15, R:XMM0..15, R:XMM0..15", "vpermilps W:YMM0..15, R:YMM0..15, R:YMM0..15", "vpermilps W:XMM0..15, R:XMM0..15, xmmword ptr R:MEM(128)", "vpermilps W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)"},
}

// zpScalar are the scalar ALU operations of the Zen+-like machine.
var zpScalar = []string{"add", "sub", "and", "or", "xor"}

// formerZenPlusLike builds the Zen+-like machine as the Go code did before
// it became the description machines/zenplus-like.json: its mapping, its
// front end's peak and what its µop counter counted per form. It is kept
// as the reference the description must reproduce exactly
// (TestZenPlusLikeAsBefore).
func formerZenPlusLike() (m *portmap.Mapping, ipc float64, counted map[string]int) {
	m = portmap.MustMapping("Zen+-like", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9")
	counted = map[string]int{}
	set := func(insn string, macroOps int, usage string) {
		m.MustSetUsage(insn, usage)
		counted[insn] = macroOps
	}
	for _, v := range zpVector {
		q := v[0]
		set(v[1], 1, "1*"+q)
		if v[2] != "" {
			set(v[2], 2, "2*"+q)
		}
		if v[3] != "" {
			set(v[3], 1, "1*"+q+"+1*"+zpLoad)
		}
		if v[4] != "" {
			set(v[4], 2, "2*"+q+"+2*"+zpLoad)
		}
	}
	for _, op := range zpScalar {
		for _, w := range []struct{ gpr, ptr string }{{"GPR:32", "dword ptr R"}, {"GPR:64", "qword ptr R"}} {
			bits := strings.TrimPrefix(w.gpr, "GPR:")
			mem := strings.TrimSuffix(w.ptr, " R") + " %s:MEM(" + bits + ")"
			set(fmt.Sprintf("%s RW:%s, R:%s", op, w.gpr, w.gpr), 1, "1*"+zpALU)
			set(fmt.Sprintf("%s RW:%s, %s", op, w.gpr, fmt.Sprintf(mem, "R")), 1, "1*"+zpALU+"+1*"+zpLoad)
			set(fmt.Sprintf("%s %s, R:%s", op, fmt.Sprintf(mem, "RW"), w.gpr), 1, "1*"+zpALU+"+1*"+zpStore)
		}
	}
	set("add byte ptr RW:MEM(8), IMM(8)", 1, "1*"+zpALU+"+1*"+zpLoad+"+1*"+zpStore)
	set("cmp R:GPR:32, R:GPR:32", 1, "1*"+zpALU)
	set("cmp R:GPR:32, dword ptr R:MEM(32)", 1, "1*"+zpALU+"+1*"+zpLoad)
	set("cmp dword ptr R:MEM(32), R:GPR:32", 1, "1*"+zpALU+"+1*"+zpLoad)
	set("mov W:GPR:32, dword ptr R:MEM(32)", 1, "1*"+zpLoad)
	set("mov W:GPR:64, qword ptr R:MEM(64)", 1, "1*"+zpLoad)
	set("mov dword ptr W:MEM(32), R:GPR:32", 1, "1*"+zpStore+"+1*"+zpALU)
	set("mov qword ptr W:MEM(64), R:GPR:64", 1, "1*"+zpStore+"+1*"+zpALU)
	set("vmovapd xmmword ptr W:MEM(128), R:XMM0..15", 1, "1*"+zpStore+"+1*[2]")
	set("vmovaps xmmword ptr W:MEM(128), R:XMM0..15", 1, "1*"+zpStore+"+1*[2]")
	return m, 5, counted
}
