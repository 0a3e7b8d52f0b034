package isa

import (
	"strconv"
	"strings"
)

// ImmediateValue returns the immediate a benchmark uses for an immediate
// operand of width bits (thesis §3.2.1): 2^(width−8) + 42 for width ≥ 8
// (43 for 8 bits, 2^56 + 42 for 64), whose most and least significant bytes
// are both non-zero so that the assembler cannot pick a shorter encoding,
// and which is not 0, ±1 or an extreme value. AArch64 fields narrower than
// a byte (shift amounts) get 2^(width−1) + 1, which is in range (33 for 6
// bits); width 1 gets 1.
func ImmediateValue(width int) uint64 {
	switch {
	case width >= 8 && width <= 64:
		return 1<<(width-8) + 42
	case width > 64:
		return 1<<56 + 42
	case width > 1:
		return 1<<(width-1) + 1
	}
	return 1
}

// Registers and addresses Example uses. The base register of memory
// operands is r14 (x86) or x28 (AArch64), as in the thesis' benchmarks;
// reserved ((DIV)) registers are r13; r15 (the loop counter), rsp and rbp
// are avoided.
var exampleGPR = []int{3, 6, 7, 8, 9, 10, 11, 12} // rbx rsi rdi r8 r9 r10 r11 r12

const (
	exampleX86Mem = "[r14+64]"
	// ah…dh cannot be encoded together with r8…r15.
	exampleX86MemNoREX = "[rbp+64]"
	exampleA64Mem      = "[x28, #64]"
	exampleLabel       = "portlab_target"
)

// Example returns one instruction of form f in the syntax of the GNU
// assembler (x86: Intel syntax, .intel_syntax noprefix), with fixed
// concrete operands: operand i gets register number i+1 of its class (x86
// GPRs rbx, rsi, rdi, r8…; vector registers xmm1… or, when the range
// reaches 31, xmm17… so that EVEX encoding is forced; AArch64 x1…, v1…),
// write masks k1, memory [r14+64] or [x28, #64], immediates
// ImmediateValue(width). The instruction has no dependency-breaking
// intent; it only shows that the form is assemblable. Operand choice for
// real benchmarks (thesis Algorithm 3.1) is the benchmarker's job.
func (f Form) Example() string {
	var parts []string
	for _, o := range f.Operands {
		if o.Implicit {
			continue
		}
		if o.Mask && len(parts) > 0 {
			parts[len(parts)-1] += "{" + f.exampleReg(o, 0) + "}"
			if o.Zeroing {
				parts[len(parts)-1] += "{z}"
			}
			continue
		}
		parts = append(parts, f.exampleOperand(o, len(parts)))
	}
	s := f.Mnemonic
	if f.Prefix != "" {
		s = f.Prefix + " " + s
	}
	if len(parts) > 0 {
		s += " " + strings.Join(parts, ", ")
	}
	return s
}

func (f Form) exampleOperand(o Operand, pos int) string {
	switch o.Kind {
	case KindReg:
		s := f.exampleReg(o, pos)
		if o.List {
			s = "{" + s + "}"
		}
		return s
	case KindMem:
		if f.ISA == AArch64 {
			if o.Addr != "" {
				return exampleAddr(o.Addr, f.ISA)
			}
			return exampleA64Mem
		}
		addr := exampleX86Mem
		if f.usesHighByte() {
			addr = exampleX86MemNoREX
		}
		switch {
		case o.Fixed != "":
			addr = o.Fixed
		case o.Addr != "":
			addr = exampleAddr(o.Addr, f.ISA)
		}
		if o.Ptr != "" {
			addr = o.Ptr + " ptr " + addr
		}
		if o.Broadcast != 0 {
			addr += "{1to" + strconv.Itoa(o.Broadcast) + "}"
		}
		return addr
	case KindImm:
		if o.Fixed != "" {
			if f.ISA == AArch64 && !strings.HasPrefix(o.Fixed, "#") {
				return "#" + o.Fixed
			}
			return o.Fixed
		}
		v := strconv.FormatUint(ImmediateValue(o.Width), 10)
		if f.ISA == AArch64 {
			return "#" + v
		}
		return v
	case KindLabel:
		return exampleLabel
	case KindModifier:
		if sp := strings.IndexByte(o.Fixed, ' '); sp >= 0 && !strings.HasPrefix(o.Fixed[sp+1:], "#") {
			return o.Fixed[:sp] + " #" + o.Fixed[sp+1:]
		}
		return o.Fixed
	}
	return "?"
}

// usesHighByte reports whether an explicit operand of f may be ah…dh.
func (f Form) usesHighByte() bool {
	high := func(r string) bool { return r == "ah" || r == "bh" || r == "ch" || r == "dh" }
	for _, o := range f.Operands {
		if o.Implicit || o.Kind != KindReg {
			continue
		}
		if high(o.Fixed) || len(o.Regs) > 0 && high(o.Regs[0]) {
			return true
		}
	}
	return false
}

// exampleReg picks the register for a register operand at position pos.
func (f Form) exampleReg(o Operand, pos int) string {
	if o.Fixed != "" {
		return o.Fixed
	}
	if len(o.Regs) > 0 {
		return o.Regs[pos%len(o.Regs)]
	}
	if f.ISA == AArch64 {
		n := strconv.Itoa(1 + pos)
		switch o.Class {
		case GPR:
			if o.Width == 32 {
				return "w" + n
			}
			return "x" + n
		case FPR:
			return map[int]string{8: "b", 16: "h", 32: "s", 64: "d", 128: "q"}[o.Width] + n
		case Vec:
			return "v" + n + "." + o.Arrangement
		}
		return "?"
	}
	switch o.Class {
	case GPR:
		n := exampleGPR[pos%len(exampleGPR)]
		if o.Reserved {
			n = 13
		}
		return accGPR(n, o.Width)
	case XMM, YMM, ZMM:
		rg := o.effRange()
		n := rg.Lo + 1 + pos
		if rg.Hi >= 16 {
			n = 17 + pos
		}
		if n > rg.Hi {
			n = rg.Hi
		}
		return strings.ToLower(o.Class.String()) + strconv.Itoa(n)
	case K:
		rg := o.effRange()
		n := 1
		if !o.Mask {
			n = 2 + pos
		}
		if n > rg.Hi {
			n = rg.Hi
		}
		if n < rg.Lo {
			n = rg.Lo
		}
		return "k" + strconv.Itoa(n)
	case FPMM:
		return "mm" + strconv.Itoa(1+pos%7)
	case Segment:
		return "fs"
	}
	return "?"
}

// exampleAddr instantiates a PMEvo address template.
func exampleAddr(addr, isa string) string {
	base, index, disp := "r14", "r13", "64"
	if isa == AArch64 {
		base, index, disp = "x28", "x27", "#64"
	}
	r := strings.NewReplacer("((MEM:64))", base, "((DIV:64))", index, "((MIMM:16))", disp,
		"((IMM:8))", strconv.FormatUint(ImmediateValue(8), 10))
	s := r.Replace(addr)
	if isa == X86 {
		s = strings.ReplaceAll(s, " ", "")
	}
	return s
}

// UopsInfoVariant returns the uops.info name of the encoding variant an x86
// form stands for when the scheme alone does not decide it, and false
// otherwise. This matters for lea: uops.info keeps all address shapes
// under one scheme ("lea W:GPR:64, MEM(0)") with one variant per shape
// (LEA_B_D8_R64, LEA_B_IS_D8_R64…), and three-component addresses run on
// fewer ports. For a lea form with a PMEvo address (from ParsePMEvo) it
// returns the variant's name, to be matched against the variants' URLs
// ("uops.info/html-instr/LEA_B_IS_D8_R64.html"): B for a base register,
// I or IS for an index without or with scale, D8 or D32 for an 8- or
// 32-bit displacement (PMEvo's 16-bit one needs 32).
func UopsInfoVariant(f Form) (string, bool) {
	if f.ISA != X86 || f.Mnemonic != "lea" {
		return "", false
	}
	ex := f.Explicit()
	if len(ex) != 2 || ex[1].Kind != KindMem || ex[1].Addr == "" || ex[0].Kind != KindReg {
		return "", false
	}
	a := ex[1].Addr
	var parts []string
	if strings.Contains(a, "((MEM:") {
		parts = append(parts, "B")
	}
	if strings.Contains(a, "*((DIV:") {
		parts = append(parts, "IS")
	} else if strings.Contains(a, "((DIV:") {
		parts = append(parts, "I")
	}
	switch {
	case strings.Contains(a, "((IMM:8))"):
		parts = append(parts, "D8")
	case strings.Contains(a, "((MIMM:") || strings.Contains(a, "((IMM:"):
		parts = append(parts, "D32")
	}
	return "LEA_" + strings.Join(parts, "_") + "_R" + strconv.Itoa(ex[0].Width), true
}
