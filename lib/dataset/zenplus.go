package dataset

import (
	"fmt"
	"strings"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// ZenPlusLikeName is the data-set name of the simulated Zen+-like machine
// (see ZenPlusLike).
const ZenPlusLikeName = "portlab:zenplus-like"

// Machine is a simulated machine: a port mapping (the ground truth), the
// front end's peak in instructions per cycle, and what its total-µop
// counter counts. It describes what a simulated oracle must do to behave
// like the machine (oracle.Simulated with Counted and a front-end bound;
// portlab infer -simulate NAME sets both up).
type Machine struct {
	Name    string
	Mapping *portmap.Mapping
	// InstructionsPerCycle is the front end's peak (0: none): no
	// experiment e runs faster than |e|/InstructionsPerCycle cycles.
	InstructionsPerCycle float64
	// Counted, when not nil, is what the total-µop counter counts per
	// execution of each instruction, where that is not its number of µops
	// in Mapping: AMD's Zen counter counts macro-ops (thesis §6.3.1).
	Counted map[string]int
	// About says how the machine was built.
	About string
}

// SimulatedMachine returns the machine a name stands for: ZenPlusLikeName,
// or any mapping name or file Mapping reads, as a machine without a
// front-end bound that counts µops.
func SimulatedMachine(name string) (*Machine, error) {
	if name == ZenPlusLikeName {
		return ZenPlusLike(), nil
	}
	if strings.HasPrefix(name, "portlab:") {
		return nil, fmt.Errorf("dataset: unknown machine %q (have %s)", name, ZenPlusLikeName)
	}
	m, err := Mapping(name)
	if err != nil {
		return nil, err
	}
	return &Machine{Name: name, Mapping: m}, nil
}

// String describes the machine in one line.
func (m *Machine) String() string {
	s := fmt.Sprintf("%s: %s on %s", m.Name, portmap.Count(m.Mapping.Len(), "instruction"), portmap.Count(m.Mapping.NumPorts(), "port"))
	if m.InstructionsPerCycle > 0 {
		s += fmt.Sprintf(", peak %g instructions per cycle", m.InstructionsPerCycle)
	}
	if len(m.Counted) > 0 {
		s += fmt.Sprintf(", µop counter counts macro-ops (%d instructions count fewer than their µops)", m.countedFewer())
	}
	return s
}

func (m *Machine) countedFewer() int {
	n := 0
	for insn, c := range m.Counted {
		if c < m.Mapping.NumUops(insn) {
			n++
		}
	}
	return n
}

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

// ZenPlusLike returns a simulated machine built like AMD Zen+ as Ritter's
// thesis (Ch. 6) found it: ten ports (FP pipes 0–3, AGUs 4–5 with 5 also
// the store port, ALUs 6–9, Table 6.2), a front end of at most 5
// instructions per cycle (§6.3.3), and a µop counter that counts
// macro-ops (§6.3.1). The instructions are uops.info schemes named as
// uops.info (iwho) names them:
//
//   - vector forms (AVX/AVX2) with the FP pipes of uops.info's Zen+ port
//     usage, which agrees with Table 6.2 for its representatives: every
//     port set of Table 6.2 and the single pipes 0 and 1;
//   - a 256-bit form has twice the µops of its 128-bit form and counts as
//     two macro-ops; a memory source adds one load µop on [4,5] per 128
//     bits (§6.3.5 patterns, Postulate 6.5), counted in no macro-op;
//   - scalar add, sub, and, or, xor on 32 and 64 bits: one ALU µop
//     [6,7,8,9]; with a memory source one more on [4,5]; with a memory
//     destination one more on [5] and no load µop (§6.3.5); the 8-bit
//     read-modify-write add m8, imm8 has ALU + [4,5] + [5], one more than
//     Postulate 6.5 corrects its single macro-op to (§6.3.5);
//   - cmp with a memory operand: ALU + load;
//   - loads mov r, m: [4,5]; GPR stores mov m, r: [5] + ALU; vector stores
//     vmovapd/vmovaps m128, xmm: [5] + [2] (§6.3.1, Table 6.2).
//
// Left out: what the thesis found outside the port-mapping model on real
// Zen+ (imul, vpmuldq and vmovd, division and square roots, microcoded
// instructions, register moves and nop at 5 per cycle).
func ZenPlusLike() *Machine {
	m := portmap.MustMapping("Zen+-like", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9")
	counted := map[string]int{}
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
	return &Machine{Name: ZenPlusLikeName, Mapping: m, InstructionsPerCycle: 5, Counted: counted,
		About: "built in Go (dataset.ZenPlusLike) from thesis Table 6.2, the §6.3.5 patterns and uops.info's Zen+ FP-pipe usage; macro-op counter, peak 5 IPC"}
}

// Oracle returns a simulated oracle that behaves like the machine: its
// mapping's exact throughput (with relative noise as oracle.Simulate),
// capped by the front end's peak, and its µop counter's counts.
func (m *Machine) Oracle(noise float64, seed uint64) *oracle.Simulated {
	s := oracle.Simulate(m.Mapping, noise, seed)
	if m.InstructionsPerCycle > 0 {
		s.Model = s.Model.WithFrontEnd(throughput.FrontEnd{InstructionsPerCycle: m.InstructionsPerCycle})
	}
	s.Counted = m.Counted
	return s
}

// Predictor returns the machine's exact predictor: its mapping with the
// front end's peak.
func (m *Machine) Predictor() *oracle.MappingPredictor {
	p := oracle.FromMapping(m.Mapping)
	p.Label = m.Name
	p.FrontEnd.InstructionsPerCycle = m.InstructionsPerCycle
	return p
}
