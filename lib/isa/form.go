package isa

import (
	"strconv"
	"strings"
)

// The instruction set architectures a Form can belong to.
const (
	X86     = "x86-64"
	AArch64 = "aarch64"
)

// Kind is what an operand is: a register, a memory reference, an immediate,
// a branch target or (AArch64) a shift, extend or condition specifier.
type Kind int

// The operand kinds. The flags register is a register (Class Flags).
const (
	KindReg Kind = iota + 1
	KindMem
	KindImm
	KindLabel
	KindModifier
)

var kindNames = [...]string{KindReg: "Reg", KindMem: "Mem", KindImm: "Imm", KindLabel: "Label", KindModifier: "Modifier"}

func (k Kind) String() string {
	if k == 0 {
		return "none"
	}
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Class is the register class of a register operand.
type Class int

// The register classes. GPR is shared by both ISAs (x86 rax…r15 and their
// 32-, 16- and 8-bit parts; AArch64 x0…x30 and w0…w30); the width picks the
// part. XMM, YMM and ZMM are the x86 vector registers, K the AVX-512 mask
// registers k0…k7, FPMM the MMX registers, Segment the segment registers.
// FPR is an AArch64 scalar SIMD&FP register (b, h, s, d, q by width 8…128)
// and Vec an AArch64 vector register with an arrangement (v0.4s). Flags is
// the x86 RFLAGS or the AArch64 NZCV register, which only occurs as an
// implicit operand.
const (
	GPR Class = iota + 1
	XMM
	YMM
	ZMM
	K
	FPMM
	Segment
	Flags
	FPR
	Vec
)

var classNames = [...]string{GPR: "GPR", XMM: "XMM", YMM: "YMM", ZMM: "ZMM", K: "K", FPMM: "FPMM",
	Segment: "SEGMENT", Flags: "FLAGS", FPR: "FPR", Vec: "VEC"}

func (c Class) String() string {
	if c == 0 {
		return "none"
	}
	if c > 0 && int(c) < len(classNames) {
		return classNames[c]
	}
	return "Class(" + strconv.Itoa(int(c)) + ")"
}

// ranged reports whether registers of class c are written with a number
// range in schemes (XMM0..15).
func (c Class) ranged() bool { return c == XMM || c == YMM || c == ZMM || c == K }

// Access says whether an operand is read, written or both. Immediates,
// labels and modifiers are read (but the scheme syntax does not say so); an
// address-only memory operand (the MEM(0) of lea) is neither: Access 0.
type Access int

// The access modes.
const (
	R  Access = 1
	W  Access = 2
	RW Access = R | W
)

func (a Access) String() string {
	switch a {
	case R:
		return "R"
	case W:
		return "W"
	case RW:
		return "RW"
	case 0:
		return ""
	}
	return "Access(" + strconv.Itoa(int(a)) + ")"
}

// Reads reports whether a includes reading.
func (a Access) Reads() bool { return a&R != 0 }

// Writes reports whether a includes writing.
func (a Access) Writes() bool { return a&W != 0 }

// RegRange is an inclusive range of register numbers, e.g. XMM0..15 (VEX)
// versus XMM0..31 (EVEX), or K1..7 (usable as a write mask) versus K0..7.
type RegRange struct {
	Lo, Hi int
}

// Operand is one operand of an instruction form. Which fields matter
// depends on Kind:
//
//   - KindReg: Class and Width (bits); either Fixed (one hardwired register,
//     "cl"), Regs (an explicit set, "al,bl,…"), or the whole class — for
//     XMM/YMM/ZMM/K limited to Range. Vec registers carry an Arrangement
//     ("4s", or an element with lane index "s[1]"); List marks the AArch64
//     register list "{v1.16b}". Mask marks an AVX-512 write mask: the K
//     register that masks the operand just before it, with Zeroing for
//     {z}. Reserved marks PMEvo's ((DIV:64)) operands: registers the
//     benchmarker reserves for a small positive constant (divisor, bit
//     index, address index).
//   - KindMem: Width (bits accessed; 0 for lea's address-only operand),
//     Ptr (the x86 size keyword: "qword" for "qword ptr"), Fixed for a
//     hardwired address ("[rsi]", "es:[rdi]"), Addr for PMEvo's address
//     template ("[((MEM:64)) + ((MIMM:16))]"), Broadcast N for the AVX-512
//     embedded broadcast {1toN}, and Mask/Zeroing on a following K operand.
//   - KindImm: Width, or Fixed for a constant ("0x0", "#0", "8").
//   - KindLabel: a branch target ("SYM").
//   - KindModifier: Fixed text such as "lsl 3", "sxtw", "eq" (AArch64).
//
// Implicit operands are not written in assembly (the flags an add writes,
// the rdx:rax of mul); they follow the explicit operands in Form.Operands.
type Operand struct {
	Kind        Kind
	Class       Class
	Width       int
	Access      Access
	Implicit    bool
	Fixed       string
	Regs        []string
	Range       RegRange
	Arrangement string
	List        bool
	Mask        bool
	Zeroing     bool
	Reserved    bool
	Ptr         string
	Addr        string
	Broadcast   int
}

// Form is an instruction form (thesis: instruction scheme): a mnemonic with
// typed operands, standing for all instructions that differ only in the
// choice of registers, addresses and immediate values. Mnemonic is lower
// case; Prefix is an x86 prefix written before it ("lock", "rep"). Operands
// lists the explicit operands in assembly order (Intel syntax: destination
// first), then the implicit ones. Extension names the ISA extension that
// must be present to run the form ("BASE", "AVX2", "AVX512F+AVX512VL",
// "ASIMD"); it is empty when unknown, e.g. for forms parsed from data.
// Category is the group of the curated lists ("gpr-alu", "avx512-fp").
//
// Forms are values; the methods never modify their receiver. Use Key to
// index maps by form.
type Form struct {
	ISA       string
	Prefix    string
	Mnemonic  string
	Operands  []Operand
	Extension string
	Category  string
}

// Explicit returns the operands written in assembly, in order.
func (f Form) Explicit() []Operand {
	return f.operands(false)
}

// operands returns f's implicit or explicit operands, nil for none.
func (f Form) operands(implicit bool) []Operand {
	n := 0
	for i := range f.Operands {
		if f.Operands[i].Implicit == implicit {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	ops := make([]Operand, 0, n)
	for i := range f.Operands {
		if f.Operands[i].Implicit == implicit {
			ops = append(ops, f.Operands[i])
		}
	}
	return ops
}

// Implicit returns the implicit operands.
func (f Form) Implicit() []Operand {
	return f.operands(true)
}

// Clone returns a deep copy of f, so that changing the copy's operands
// leaves f alone.
func (f Form) Clone() Form {
	g := f
	g.Operands = make([]Operand, len(f.Operands))
	for i, o := range f.Operands {
		o.Regs = append([]string(nil), o.Regs...)
		g.Operands[i] = o
	}
	return g
}

// Equal reports whether f and g are the same form: same ISA, prefix,
// mnemonic and operands (Extension and Category are ignored).
func (f Form) Equal(g Form) bool {
	if f.ISA != g.ISA || f.Prefix != g.Prefix || f.Mnemonic != g.Mnemonic || len(f.Operands) != len(g.Operands) {
		return false
	}
	for i := range f.Operands {
		if !f.Operands[i].Equal(g.Operands[i]) {
			return false
		}
	}
	return true
}

// Equal reports whether o and p are the same operand.
func (o Operand) Equal(p Operand) bool {
	if len(o.Regs) != len(p.Regs) {
		return false
	}
	for i := range o.Regs {
		if o.Regs[i] != p.Regs[i] {
			return false
		}
	}
	return o.Kind == p.Kind && o.Class == p.Class && o.Width == p.Width && o.Access == p.Access &&
		o.Implicit == p.Implicit && o.Fixed == p.Fixed && o.Range == p.Range &&
		o.Arrangement == p.Arrangement && o.List == p.List && o.Mask == p.Mask && o.Zeroing == p.Zeroing &&
		o.Reserved == p.Reserved && o.Ptr == p.Ptr && o.Addr == p.Addr && o.Broadcast == p.Broadcast
}

// Key returns a string that identifies f among the forms of its ISA, for
// use as a map key and as the instruction name in port mappings: the
// scheme (Scheme), so that x86 forms are named exactly as in the uops.info
// (iwho) data. Forms the scheme syntax cannot tell apart — PMEvo forms with
// an address other than base + displacement, or with a reserved ((DIV))
// register — get " ~ " and their PMEvo name appended.
func (f Form) Key() string {
	s := f.Scheme()
	for i := range f.Operands {
		if o := &f.Operands[i]; o.Reserved || (o.Kind == KindMem && o.Addr != "" && o.Addr != defaultAddr(f.ISA)) {
			return s + " ~ " + f.PMEvoName()
		}
	}
	return s
}

// String returns the scheme followed, in braces, by the extension and the
// implicit operands, e.g. "add RW:GPR:64, R:GPR:64 {BASE; implicit W:flags}".
func (f Form) String() string {
	s := f.Scheme()
	var extra []string
	if f.Extension != "" {
		extra = append(extra, f.Extension)
	}
	if imp := f.Implicit(); len(imp) > 0 {
		parts := make([]string, len(imp))
		for i, o := range imp {
			parts[i] = o.scheme()
		}
		extra = append(extra, "implicit "+strings.Join(parts, ", "))
	}
	if len(extra) > 0 {
		s += " {" + strings.Join(extra, "; ") + "}"
	}
	return s
}

// ReadsMemory reports whether f reads memory through an explicit operand.
func (f Form) ReadsMemory() bool {
	for _, o := range f.Operands {
		if o.Kind == KindMem && o.Access.Reads() {
			return true
		}
	}
	return false
}

// WritesMemory reports whether f writes memory through an explicit operand.
func (f Form) WritesMemory() bool {
	for _, o := range f.Operands {
		if o.Kind == KindMem && o.Access.Writes() {
			return true
		}
	}
	return false
}

// defaultRange is the register range a scheme names when it gives none.
func defaultRange(c Class) RegRange {
	switch c {
	case XMM, YMM:
		return RegRange{0, 15}
	case ZMM:
		return RegRange{0, 31}
	case K:
		return RegRange{0, 7}
	}
	return RegRange{}
}

// effRange is o's register range with the class default filled in.
func (o Operand) effRange() RegRange {
	if o.Range == (RegRange{}) {
		return defaultRange(o.Class)
	}
	return o.Range
}

// ptrWidth maps the x86 memory size keywords to bits.
var ptrWidth = map[string]int{
	"byte": 8, "word": 16, "dword": 32, "qword": 64, "tbyte": 80,
	"xmmword": 128, "ymmword": 256, "zmmword": 512,
}

// PtrKeyword returns the x86 size keyword for a memory access of width bits
// ("qword" for 64), or "" if there is none.
func PtrKeyword(width int) string {
	for k, w := range ptrWidth {
		if w == width {
			return k
		}
	}
	return ""
}
