package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Seed is the seed of the generated blocks.
const Seed = 20261127

// Gen is a generated block: Intel-syntax lines.
type Gen struct {
	Name, Kind string
	Lines      []string
	Note       string
}

// The registers of generated blocks: destinations are written, sources
// and memory bases never are, so that instructions of a mix depend on
// nothing in the block (but a read-write destination on itself, one
// iteration before).
var (
	gprDst = []string{"rax", "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11"}
	gprSrc = []string{"r12", "r13", "r14", "r15"}
	vecDst = []string{"0", "1", "2", "3", "4", "5", "6", "7"}
	vecSrc = []string{"8", "9", "10", "11", "12", "13", "14", "15"}
	bases  = []string{"rdi", "rsi"}
)

// A template's placeholders: D a destination GPR (64-bit), E its 32-bit
// name, S and T source GPRs, X a vector destination number, Y and Z vector
// sources, M a memory operand [base+disp].
var (
	// chainTemplates are instructions whose destination is also an input,
	// for chains: D and X are the same register on every line.
	chainTemplates = []string{
		"add D, S", "imul D, S", "lea D, [D+S*2+8]", "shl D, 3", "rol D, 5", "xor D, S",
		"popcnt D, D", "bswap D", "crc32 D, S", "adc D, S", "neg D", "inc D",
		"addsd xmmX, xmmY", "mulsd xmmX, xmmY", "divsd xmmX, xmmY", "sqrtsd xmmX, xmmX",
		"vaddps ymmX, ymmX, ymmY", "vmulpd ymmX, ymmX, ymmY", "vfmadd231ps ymmX, ymmY, ymmZ",
		"vfmadd231sd xmmX, xmmY, xmmZ", "vpaddd ymmX, ymmX, ymmY", "vpmulld ymmX, ymmX, ymmY",
		"vpshufb ymmX, ymmX, ymmY", "vdivps xmmX, xmmX, xmmY", "vpermps ymmX, ymmY, ymmX",
		"vpxor xmmX, xmmX, xmmY",
	}
	// pairChains are chains through two instructions or through memory,
	// each a whole block ("|" separates lines).
	pairChains = []string{
		"cvtsi2sd xmm0, rax|cvttsd2si rax, xmm0",
		"movq xmm0, rax|movq rax, xmm0",
		"vmovd xmm0, eax|vmovd eax, xmm0",
		"mov rax, [rdi]|add rax, 1|mov [rdi], rax",
		"add qword ptr [rdi], 1",
		"mov rax, [rax]",
		"mov rax, [rdi+rax*8]",
		"add rax, [rdi]",
		"vaddps ymm0, ymm0, [rdi]",
		"mov [rdi], rax|mov rax, [rdi]",
		"vmovups [rdi], ymm0|vmovups ymm0, [rdi]|vaddps ymm0, ymm0, ymm8",
		"imul rax, rax|add rax, r12",
		"mulsd xmm0, xmm8|addsd xmm0, xmm9",
		"vfmadd231ps ymm0, ymm8, ymm9|vfmadd231ps ymm1, ymm8, ymm9",
		"vfmadd231ps ymm0, ymm8, ymm9|vfmadd231ps ymm1, ymm8, ymm9|vfmadd231ps ymm2, ymm8, ymm9|vfmadd231ps ymm3, ymm8, ymm9",
		"div r12",
		"mul r12",
	}
	// mixTemplates are register-only instructions for independent mixes.
	mixTemplates = []string{
		"add D, S", "sub D, S", "and D, S", "or D, S", "xor D, S", "cmp D, S", "test D, S",
		"mov D, S", "mov E, 1234", "lea D, [S+T]", "lea D, [S+T*4+16]", "imul D, S, 7", "imul D, S",
		"shl D, 3", "shr D, 5", "sar D, 1", "rol D, 13", "ror D, 7", "not D", "neg D", "inc D", "dec D",
		"popcnt D, S", "lzcnt D, S", "tzcnt D, S", "andn D, S, T", "shlx D, S, T", "sarx D, S, T",
		"rorx D, S, 9", "bsf D, S", "movzx E, Sb", "movsx D, Sd", "bt D, S", "setne Db", "cmovne D, S",
		"vaddps ymmX, ymmY, ymmZ", "vmulps ymmX, ymmY, ymmZ", "vaddpd xmmX, xmmY, xmmZ",
		"vsubps ymmX, ymmY, ymmZ", "vmaxps ymmX, ymmY, ymmZ", "vminpd ymmX, ymmY, ymmZ",
		"vfmadd213ps ymmX, ymmY, ymmZ", "vandps ymmX, ymmY, ymmZ", "vxorps xmmX, xmmY, xmmZ",
		"vpaddd ymmX, ymmY, ymmZ", "vpaddq xmmX, xmmY, xmmZ", "vpsubb ymmX, ymmY, ymmZ",
		"vpand ymmX, ymmY, ymmZ", "vpor xmmX, xmmY, xmmZ", "vpxor ymmX, ymmY, ymmZ",
		"vpmulld ymmX, ymmY, ymmZ", "vpmullw xmmX, xmmY, xmmZ", "vpmaddwd ymmX, ymmY, ymmZ",
		"vpshufb ymmX, ymmY, ymmZ", "vpshufd ymmX, ymmY, 27", "vshufps ymmX, ymmY, ymmZ, 68",
		"vpermilps ymmX, ymmY, 177", "vperm2f128 ymmX, ymmY, ymmZ, 33", "vpunpcklbw xmmX, xmmY, xmmZ",
		"vpsllq ymmX, ymmY, 3", "vpsrld xmmX, xmmY, 7", "vpcmpeqd ymmX, ymmY, ymmZ", "vpcmpgtb xmmX, xmmY, xmmZ",
		"vblendps ymmX, ymmY, ymmZ, 5", "vcvtdq2ps ymmX, ymmY", "vcvttps2dq xmmX, xmmY", "vroundps ymmX, ymmY, 1",
		"vsqrtps xmmX, xmmY", "vdivpd xmmX, xmmY, xmmZ", "vrcpps ymmX, ymmY", "vmovaps ymmX, ymmY",
		"vpbroadcastd ymmX, xmmY", "vextracti128 xmmX, ymmY, 1", "vinserti128 ymmX, ymmY, xmmZ, 1",
		"vpmovzxbw ymmX, xmmY", "vpabsd ymmX, ymmY", "vpminsd xmmX, xmmY, xmmZ", "vptest ymmY, ymmZ",
		"vmovmskps E, ymmY", "vpmovmskb E, ymmY", "vmovd E, xmmY", "vcvtsi2sd xmmX, xmmY, S",
		"addps xmmX, xmmY", "mulsd xmmX, xmmY", "pxor xmmX, xmmY", "paddd xmmX, xmmY", "pshufd xmmX, xmmY, 78",
	}
	// memTemplates are instructions with a memory operand.
	memTemplates = []string{
		"mov D, qword ptr M", "mov E, dword ptr M", "movzx E, byte ptr M", "movsx D, word ptr M",
		"add D, qword ptr M", "sub E, dword ptr M", "and D, qword ptr M", "cmp D, qword ptr M",
		"imul D, qword ptr M", "mov qword ptr M, S", "mov dword ptr M, 7", "add qword ptr M, S",
		"inc dword ptr M", "lea D, M",
		"vmovups ymmX, ymmword ptr M", "vmovups ymmword ptr M, ymmY", "vmovaps xmmword ptr M, xmmY",
		"vaddps ymmX, ymmY, ymmword ptr M", "vmulpd ymmX, ymmY, ymmword ptr M", "vfmadd231ps ymmX, ymmY, ymmword ptr M",
		"vbroadcastss ymmX, dword ptr M", "vpaddd xmmX, xmmY, xmmword ptr M", "vpmovzxbd ymmX, qword ptr M",
		"movsd xmmX, qword ptr M", "movsd qword ptr M, xmmY", "addsd xmmX, qword ptr M", "movdqu xmmX, xmmword ptr M",
		"vmovss xmmX, dword ptr M", "vcvtsi2sd xmmX, xmmY, qword ptr M", "push S", "pop D",
	}
)

// Generate returns the generated blocks for seed:
//
//   - chain: each chain template alone and 2, 4 and 8 times in a row on
//     one register, and each pair chain (latency-bound);
//   - chain+mix: a chain of 2 or 4 with 4 or 8 independent instructions;
//   - mix: 220 blocks of 3 to 12 independent register instructions
//     (port-bound; a read-write destination is used once per block);
//   - mem: 200 blocks of 2 to 10 instructions, at least one with a memory
//     operand at a distinct 64-byte-aligned offset from rdi or rsi.
func Generate(seed uint64) []Gen {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	var gs []Gen
	addGen := func(kind, note string, lines []string) {
		gs = append(gs, Gen{Name: fmt.Sprintf("gen_%s_%03d", strings.ReplaceAll(kind, "+", "_"), len(gs)), Kind: kind, Lines: lines, Note: note})
	}
	for _, t := range chainTemplates {
		for _, n := range []int{1, 2, 4, 8} {
			line := fill(t, "rax", "r12", "r13", "0", "8", "9", 0)
			lines := make([]string, n)
			for i := range lines {
				lines[i] = line
			}
			addGen("chain", fmt.Sprintf("%d× %s", n, line), lines)
		}
	}
	for _, p := range pairChains {
		lines := strings.Split(p, "|")
		addGen("chain", strings.Join(lines, "; "), lines)
	}
	for _, t := range chainTemplates {
		for _, n := range []int{2, 4} {
			line := fill(t, "rax", "r12", "r13", "0", "8", "9", 0)
			lines := make([]string, 0, 3*n)
			mix := mixLines(rng, 2*n, map[string]bool{"rax": true, "0": true})
			for i := range n {
				lines = append(lines, line, mix[2*i], mix[2*i+1])
			}
			addGen("chain+mix", fmt.Sprintf("%d× %s with %d independent", n, line, 2*n), lines)
		}
	}
	for range 220 {
		n := 3 + rng.IntN(10)
		lines := mixLines(rng, n, nil)
		addGen("mix", fmt.Sprintf("%d independent", n), lines)
	}
	for range 200 {
		n := 2 + rng.IntN(9)
		nmem := 1 + rng.IntN(n)
		mem := mixLines(rng, n-nmem, nil)
		offs := rng.Perm(64)
		used := map[string]bool{}
		for _, l := range mem {
			for _, r := range append(gprDst, vecDst...) {
				if strings.Contains(l, " "+r) || strings.Contains(l, "mm"+r+",") {
					used[r] = true
				}
			}
		}
		var lines []string
		for i := range nmem {
			t := memTemplates[rng.IntN(len(memTemplates))]
			d := pickFree(rng, gprDst, used)
			x := pickFree(rng, vecDst, used)
			m := fmt.Sprintf("[%s+%d]", bases[rng.IntN(len(bases))], 64*offs[i])
			lines = append(lines, strings.ReplaceAll(fill(t, d, gprSrc[rng.IntN(4)], gprSrc[rng.IntN(4)], x, vecSrc[rng.IntN(8)], vecSrc[rng.IntN(8)], 0), "M", m))
		}
		lines = append(lines, mem...)
		rng.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
		addGen("mem", fmt.Sprintf("%d instructions, %d with memory", n, nmem), lines)
	}
	return gs
}

// mixLines returns n independent register instructions, no two writing
// the same register and none writing one in used.
func mixLines(rng *rand.Rand, n int, used map[string]bool) []string {
	u := map[string]bool{}
	for k, v := range used {
		u[k] = v
	}
	lines := make([]string, n)
	for i := range lines {
		t := mixTemplates[rng.IntN(len(mixTemplates))]
		d := pickFree(rng, gprDst, u)
		x := pickFree(rng, vecDst, u)
		if strings.Contains(t, "D") || strings.Contains(t, "E") {
			u[d] = true
		}
		if strings.Contains(t, "X") {
			u[x] = true
		}
		lines[i] = fill(t, d, gprSrc[rng.IntN(4)], gprSrc[rng.IntN(4)], x, vecSrc[rng.IntN(8)], vecSrc[rng.IntN(8)], 0)
	}
	return lines
}

// pickFree picks a register of pool not in used, or any when all are.
func pickFree(rng *rand.Rand, pool []string, used map[string]bool) string {
	var free []string
	for _, r := range pool {
		if !used[r] {
			free = append(free, r)
		}
	}
	if len(free) == 0 {
		free = pool
	}
	return free[rng.IntN(len(free))]
}

// fill replaces a template's placeholders.
func fill(t, d, s, s2, x, y, z string, _ int) string {
	r := strings.NewReplacer(
		"Db", low8(d), "Sb", low8(s), "Sd", low32(s), "D", d, "E", low32(d), "S", s, "T", s2,
		"X", x, "Y", y, "Z", z)
	// Mnemonics contain capital-free text only; the replacer acts on the
	// operands, which follow the first space.
	mn, ops, ok := strings.Cut(t, " ")
	if !ok {
		return t
	}
	return mn + " " + r.Replace(ops)
}

func low32(r string) string {
	switch r {
	case "rax", "rbx", "rcx", "rdx":
		return "e" + r[1:]
	}
	return r + "d"
}

func low8(r string) string {
	switch r {
	case "rax", "rbx", "rcx", "rdx":
		return r[1:2] + "l"
	}
	return r + "b"
}

// Assembly returns the generated blocks as a GNU as source in Intel
// syntax, each block under its label.
func Assembly(gs []Gen) string {
	var b strings.Builder
	b.WriteString("\t.intel_syntax noprefix\n\t.text\n")
	for _, g := range gs {
		fmt.Fprintf(&b, "%s:\n", g.Name)
		for _, l := range g.Lines {
			fmt.Fprintf(&b, "\t%s\n", l)
		}
	}
	return b.String()
}
