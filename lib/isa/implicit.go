package isa

import "strings"

// x86 condition-code suffixes of cmovcc, setcc and jcc.
var x86Conds = map[string]bool{
	"o": true, "no": true, "b": true, "nb": true, "c": true, "nc": true, "nae": true, "ae": true,
	"e": true, "z": true, "ne": true, "nz": true, "be": true, "na": true, "a": true, "nbe": true,
	"s": true, "ns": true, "p": true, "pe": true, "np": true, "po": true, "l": true, "nge": true,
	"ge": true, "nl": true, "le": true, "ng": true, "g": true, "nle": true,
}

// Mnemonics whose flags effect is known, by access to the flags register.
// Instructions that leave some flags unchanged (inc, shifts by a count that
// may be zero) count as writing them: renaming makes the partial update a
// merge on some cores, which the benchmarker cannot avoid anyway.
var (
	x86FlagsW = words(`add sub and or xor cmp test neg inc dec shl sal shr sar rol ror shld shrd
		imul mul div idiv bsf bsr bt bts btr btc popcnt lzcnt tzcnt andn bextr blsi blsmsk blsr bzhi
		comiss comisd ucomiss ucomisd vcomiss vcomisd vucomiss vucomisd ptest vptest vtestps vtestpd
		kortestb kortestw kortestd kortestq ktestb ktestw ktestd ktestq xadd cmpxchg sahf stc clc
		pcmpestri pcmpistri vpcmpestri vpcmpistri`)
	x86FlagsR  = words(`lahf`)
	x86FlagsRW = words(`adc sbb adcx adox rcl rcr cmc`)

	a64FlagsW  = words(`adds subs ands bics cmp cmn tst negs fcmp fcmpe`)
	a64FlagsR  = words(`csel csinc csinv csneg cset csetm cinc cinv cneg fcsel adc sbc ngc`)
	a64FlagsRW = words(`ccmp ccmn fccmp fccmpe adcs sbcs ngcs`)
)

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// x86Cond reports whether mnemonic is prefix + a condition code.
func x86Cond(mnemonic, prefix string) bool {
	return strings.HasPrefix(mnemonic, prefix) && x86Conds[mnemonic[len(prefix):]]
}

func implicitReg(isa, name string, a Access) Operand {
	r := registers[isa][name]
	return Operand{Kind: KindReg, Class: r.Class, Width: r.Width, Access: a, Implicit: true, Fixed: name}
}

// accGPR returns the x86 accumulator-family register of number n (0 rax,
// 2 rdx) with the given width.
func accGPR(n, width int) string {
	switch width {
	case 64:
		return x86GPRs[n][0]
	case 32:
		return x86GPRs[n][1]
	case 16:
		return x86GPRs[n][2]
	}
	return x86GPRs[n][3]
}

// implicitOperands returns the implicit operands this package knows for
// f's mnemonic and explicit operands: the flags register and the
// hardwired rax/rdx of one-operand multiply and divide, mulx and the sign
// extensions cbw…cqo. The list is not exhaustive (string instructions,
// vzeroupper, cpuid… get none).
func implicitOperands(f Form) []Operand {
	var ops []Operand
	explicit := f.Explicit()
	flag := func(a Access) {
		name := "flags"
		if f.ISA == AArch64 {
			name = "nzcv"
		}
		ops = append(ops, implicitReg(f.ISA, name, a))
	}
	m := f.Mnemonic
	if f.ISA == AArch64 {
		switch {
		case a64FlagsW[m]:
			flag(W)
		case a64FlagsR[m]:
			flag(R)
		case a64FlagsRW[m]:
			flag(RW)
		}
		return ops
	}

	width := 0
	if len(explicit) > 0 {
		width = explicit[0].Width
		if explicit[0].Kind == KindMem {
			width = ptrWidth[explicit[0].Ptr]
		}
	}
	switch {
	case (m == "mul" || m == "imul") && len(explicit) == 1:
		if width == 8 {
			ops = append(ops, implicitReg(X86, "al", R), implicitReg(X86, "ax", W))
		} else {
			ops = append(ops, implicitReg(X86, accGPR(0, width), RW), implicitReg(X86, accGPR(2, width), W))
		}
	case (m == "div" || m == "idiv") && len(explicit) == 1:
		if width == 8 {
			ops = append(ops, implicitReg(X86, "ax", RW))
		} else {
			ops = append(ops, implicitReg(X86, accGPR(0, width), RW), implicitReg(X86, accGPR(2, width), RW))
		}
	case m == "mulx" && len(explicit) == 3:
		ops = append(ops, implicitReg(X86, accGPR(2, explicit[0].Width), R))
	case m == "cbw":
		ops = append(ops, implicitReg(X86, "al", R), implicitReg(X86, "ax", W))
	case m == "cwde":
		ops = append(ops, implicitReg(X86, "ax", R), implicitReg(X86, "eax", W))
	case m == "cdqe":
		ops = append(ops, implicitReg(X86, "eax", R), implicitReg(X86, "rax", W))
	case m == "cwd":
		ops = append(ops, implicitReg(X86, "ax", R), implicitReg(X86, "dx", W))
	case m == "cdq":
		ops = append(ops, implicitReg(X86, "eax", R), implicitReg(X86, "edx", W))
	case m == "cqo":
		ops = append(ops, implicitReg(X86, "rax", R), implicitReg(X86, "rdx", W))
	}
	switch {
	case x86FlagsW[m]:
		flag(W)
	case x86FlagsR[m] || x86Cond(m, "cmov") || x86Cond(m, "set") || x86Cond(m, "j"):
		flag(R)
	case x86FlagsRW[m]:
		flag(RW)
	}
	if m == "sahf" {
		ops = append(ops, implicitReg(X86, "ah", R))
	}
	if m == "lahf" {
		ops = append(ops, implicitReg(X86, "ah", W))
	}
	return ops
}
