package isa

import (
	"fmt"
	"strings"
)

// Register describes one architectural register.
type Register struct {
	Name  string
	Class Class
	Width int // bits
	// Number is the register's number in its file: 0…15 for rax…r15 (in
	// encoding order rax, rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8…), 4…7 for
	// ah, ch, dh, bh; 0…31 for xmm/ymm/zmm and for the AArch64 registers.
	Number int
	// Alias names the widest register that overlaps this one, the
	// representative of its alias class: "rax" for al, ah, ax and eax;
	// "zmm3" for xmm3 and ymm3; "v3" for b3…q3; itself otherwise. Two
	// registers depend on each other exactly when their aliases are equal.
	Alias string
}

var x86GPRs = [16][4]string{ // 64, 32, 16, 8 bit
	{"rax", "eax", "ax", "al"}, {"rcx", "ecx", "cx", "cl"}, {"rdx", "edx", "dx", "dl"}, {"rbx", "ebx", "bx", "bl"},
	{"rsp", "esp", "sp", "spl"}, {"rbp", "ebp", "bp", "bpl"}, {"rsi", "esi", "si", "sil"}, {"rdi", "edi", "di", "dil"},
	{"r8", "r8d", "r8w", "r8b"}, {"r9", "r9d", "r9w", "r9b"}, {"r10", "r10d", "r10w", "r10b"}, {"r11", "r11d", "r11w", "r11b"},
	{"r12", "r12d", "r12w", "r12b"}, {"r13", "r13d", "r13w", "r13b"}, {"r14", "r14d", "r14w", "r14b"}, {"r15", "r15d", "r15w", "r15b"},
}

var (
	registers   = map[string]map[string]Register{X86: {}, AArch64: {}}
	regsByClass = map[string]map[[2]int][]string{X86: {}, AArch64: {}} // by (class, width), in number order
)

func addReg(isa string, r Register, listed bool) {
	registers[isa][r.Name] = r
	if listed {
		k := [2]int{int(r.Class), r.Width}
		regsByClass[isa][k] = append(regsByClass[isa][k], r.Name)
	}
}

func init() {
	for n, names := range x86GPRs {
		for i, w := range []int{64, 32, 16, 8} {
			addReg(X86, Register{names[i], GPR, w, n, names[0]}, true)
		}
	}
	for i, h := range []string{"ah", "ch", "dh", "bh"} {
		addReg(X86, Register{h, GPR, 8, 4 + i, x86GPRs[i][0]}, false)
	}
	for n := 0; n < 32; n++ {
		z := fmt.Sprintf("zmm%d", n)
		addReg(X86, Register{fmt.Sprintf("xmm%d", n), XMM, 128, n, z}, true)
		addReg(X86, Register{fmt.Sprintf("ymm%d", n), YMM, 256, n, z}, true)
		addReg(X86, Register{z, ZMM, 512, n, z}, true)
	}
	for n := 0; n < 8; n++ {
		k := fmt.Sprintf("k%d", n)
		addReg(X86, Register{k, K, 64, n, k}, true)
		m := fmt.Sprintf("mm%d", n)
		addReg(X86, Register{m, FPMM, 64, n, m}, true)
	}
	for n, s := range []string{"es", "cs", "ss", "ds", "fs", "gs"} {
		addReg(X86, Register{s, Segment, 16, n, s}, true)
	}
	addReg(X86, Register{"flags", Flags, 64, 0, "flags"}, false)

	for n := 0; n < 31; n++ {
		x := fmt.Sprintf("x%d", n)
		addReg(AArch64, Register{x, GPR, 64, n, x}, true)
		addReg(AArch64, Register{fmt.Sprintf("w%d", n), GPR, 32, n, x}, true)
	}
	addReg(AArch64, Register{"sp", GPR, 64, 31, "sp"}, false)
	addReg(AArch64, Register{"wsp", GPR, 32, 31, "sp"}, false)
	addReg(AArch64, Register{"xzr", GPR, 64, 31, "xzr"}, false)
	addReg(AArch64, Register{"wzr", GPR, 32, 31, "xzr"}, false)
	for n := 0; n < 32; n++ {
		v := fmt.Sprintf("v%d", n)
		for _, p := range []struct {
			letter string
			width  int
		}{{"b", 8}, {"h", 16}, {"s", 32}, {"d", 64}, {"q", 128}} {
			addReg(AArch64, Register{fmt.Sprintf("%s%d", p.letter, n), FPR, p.width, n, v}, true)
		}
		addReg(AArch64, Register{v, Vec, 128, n, v}, true)
	}
	addReg(AArch64, Register{"nzcv", Flags, 32, 0, "nzcv"}, false)
}

// LookupRegister returns the register of the ISA (X86 or AArch64) named
// name (lower case: "eax", "xmm17", "k1", "w3", "v2", "d5"). For AArch64
// vector registers give the bare name ("v2"), without arrangement.
func LookupRegister(isa, name string) (Register, bool) {
	r, ok := registers[isa][name]
	return r, ok
}

// RegisterNames returns, in number order, the registers of class c and
// width bits of the ISA that a scheme's class operand stands for: for x86
// GPRs all sixteen (including rsp; the 8-bit list holds al…r15b, not
// ah…bh), for AArch64 GPRs x0…x30 or w0…w30 (not sp or xzr). It returns nil
// for an unknown class or width.
func RegisterNames(isa string, c Class, width int) []string {
	return append([]string(nil), regsByClass[isa][[2]int{int(c), width}]...)
}

// Candidates returns the registers operand i of f may be instantiated with:
// the fixed register, the explicit set, or the class members within the
// operand's range. It returns nil when operand i is not a register operand.
func (f Form) Candidates(i int) []string {
	o := f.Operands[i]
	if o.Kind != KindReg {
		return nil
	}
	if o.Fixed != "" {
		return []string{o.Fixed}
	}
	if len(o.Regs) > 0 {
		return append([]string(nil), o.Regs...)
	}
	width := o.Width
	if o.Class == Vec {
		width = 128
	}
	all := RegisterNames(f.ISA, o.Class, width)
	if !o.Class.ranged() {
		return all
	}
	rg := o.effRange()
	var out []string
	for _, name := range all {
		if r := registers[f.ISA][name]; r.Number >= rg.Lo && r.Number <= rg.Hi {
			out = append(out, name)
		}
	}
	return out
}

// vecArrangements maps AArch64 arrangement specifiers to the width of the
// register part they use.
var vecArrangements = map[string]int{
	"16b": 128, "8h": 128, "4s": 128, "2d": 128, "1q": 128,
	"8b": 64, "4h": 64, "2s": 64, "1d": 64,
}

// elementWidth maps AArch64 element letters (in "s[1]") to bits.
var elementWidth = map[string]int{"b": 8, "h": 16, "s": 32, "d": 64, "q": 128}

// arrangementWidth returns the bits an AArch64 arrangement ("4s") or
// indexed element ("s[1]") covers, or 0 if it is malformed.
func arrangementWidth(arr string) int {
	if w, ok := vecArrangements[arr]; ok {
		return w
	}
	i := strings.IndexByte(arr, '[')
	if i != 1 || !strings.HasSuffix(arr, "]") {
		return 0
	}
	idx := arr[2 : len(arr)-1]
	if idx == "" || strings.Trim(idx, "0123456789") != "" || len(idx) > 2 {
		return 0
	}
	return elementWidth[arr[:1]]
}
