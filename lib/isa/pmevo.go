package isa

import (
	"regexp"
	"strconv"
	"strings"
)

// PMEvo's default addresses: base register plus 16-bit displacement.
const (
	pmevoX86Addr = "[((MEM:64)) + ((MIMM:16))]"
	pmevoA64Addr = "[((MEM:64)), ((MIMM:16))]"
)

func defaultAddr(isa string) string {
	if isa == AArch64 {
		return pmevoA64Addr
	}
	return pmevoX86Addr
}

var (
	pmevoRegRE  = regexp.MustCompile(`^\(\(REG:(RW|R|W):([A-Z]+):([0-9]+|VEC)\)\)`)
	pmevoFixRE  = regexp.MustCompile(`^\(\(REG:(RW|R|W):([a-z][a-z0-9]*)\)\)`)
	pmevoImmRE  = regexp.MustCompile(`^\(\(IMM:([0-9]+)\)\)$`)
	pmevoDivRE  = regexp.MustCompile(`^\(\(DIV:([0-9]+)\)\)$`)
	pmevoAddrRE = regexp.MustCompile(`^\[(\(\((MEM|MIMM|IMM|DIV):[0-9]+\)\)|[0-9]+\*|\+|,| )*\]$`)
	x86MnemRE   = regexp.MustCompile(`^[A-Z][A-Z0-9]*$`)
	fixedAddrRE = regexp.MustCompile(`^([a-z]s:)?\[[a-z0-9]+\]$`)
)

// ParsePMEvo parses an instruction name of the PMEvo artifact: the
// Intel-syntax assembly template with spaces replaced by underscores.
// x86 names have an upper-case mnemonic, AArch64 names start with an
// underscore:
//
//	ADD_((REG:RW:G:64)),_((IMM:32))
//	ADD_qword_ptr_[((MEM:64))_+_((MIMM:16))],_((REG:R:G:64))
//	LEA_((REG:W:G:64)),__[((MEM:64))+2*((DIV:64))+((IMM:8))]
//	_add_((REG:W:G:64)),_((REG:R:G:64)),_((REG:R:G:32)),_sxtb
//	_fmla_((REG:W:F:VEC)).2d,_((REG:R:F:VEC)).2d,_((REG:R:F:VEC)).d[0]
//
// Registers are ((REG:access:class:width)) with class G (general purpose),
// V (x86 vector: 128 is XMM, 256 YMM), F (AArch64 SIMD&FP; width VEC plus
// an arrangement for vector registers); ((DIV:64)) is a register the
// benchmarker reserves for a small positive value (Operand.Reserved);
// ((IMM:w)) an immediate; AArch64 constants, shifts and extends are kept
// as written. PMEvo names do not say whether memory is read or written:
// ParsePMEvo infers it from the mnemonic (x86: the first operand of
// cmp/test/bt is read, of mov-like instructions written, of the others
// read and written; sources are read; AArch64: ldr* read, str* written).
// The address template is kept in Operand.Addr, so that PMEvoName prints
// the name back exactly. Access modes are kept as written even where
// PMEvo's are doubtful (A72's cmeq with a read destination).
func ParsePMEvo(name string) (Form, error) {
	p := parser{syntax: "PMEvo name", input: name}
	if name == "" {
		return Form{}, p.errorf(0, "", "empty")
	}
	if i := strings.IndexAny(name, " \t\n\r"); i >= 0 {
		return Form{}, p.errorf(i, name[i:i+1], "white space (PMEvo names use _)")
	}
	s := strings.ReplaceAll(name, "_", " ")
	start := 0
	p.isa = X86
	if s[0] == ' ' {
		p.isa, start = AArch64, 1
	}
	f := Form{ISA: p.isa}
	wpos := start
	word, rest, pos := nextWord(s, start)
	if p.isa == X86 && x86Prefixes[strings.ToLower(word)] && word == strings.ToUpper(word) && rest != "" {
		f.Prefix = strings.ToLower(word)
		wpos = pos
		word, rest, pos = nextWord(s, pos)
	}
	if p.isa == X86 && !x86MnemRE.MatchString(word) || p.isa == AArch64 && !mnemonicRE.MatchString(word) {
		return Form{}, p.errorf(wpos, word, "bad mnemonic")
	}
	if word == "MOVABS" {
		return Form{}, p.errorf(wpos, word, "PMEvo writes movabs as MOV:")
	}
	f.Mnemonic = strings.ToLower(word)
	if rest == "" && strings.HasSuffix(s, " ") {
		return Form{}, p.errorf(len(s)-1, "_", "trailing")
	}
	if rest != "" {
		for _, pt := range splitTop(rest, pos) {
			ops, err := p.pmevoOperand(pt.text, pt.pos)
			if err != nil {
				return Form{}, err
			}
			f.Operands = append(f.Operands, ops...)
		}
	}
	inferMemory(&f)
	if f.ISA == X86 && f.Mnemonic == "mov" {
		for _, o := range f.Operands {
			if o.Kind == KindImm && o.Width == 64 {
				// Intel's MOV r64, imm64 is movabs for GNU as and iwho.
				f.Mnemonic = "movabs"
			}
		}
	}
	f.Operands = append(f.Operands, implicitOperands(f)...)
	return f, nil
}

// MustParsePMEvo is ParsePMEvo that panics on error.
func MustParsePMEvo(name string) Form {
	f, err := ParsePMEvo(name)
	if err != nil {
		panic(err)
	}
	return f
}

func (p *parser) pmevoOperand(t string, pos int) ([]Operand, error) {
	if t == "" {
		return nil, p.errorf(pos, t, "empty operand")
	}
	if m := pmevoImmRE.FindStringSubmatch(t); m != nil {
		w, _ := strconv.Atoi(m[1])
		return []Operand{{Kind: KindImm, Access: R, Width: w}}, nil
	}
	if m := pmevoDivRE.FindStringSubmatch(t); m != nil {
		w, _ := strconv.Atoi(m[1])
		if !containsInt([]int{8, 16, 32, 64}, w) {
			return nil, p.errorf(pos, t, "bad width in")
		}
		return []Operand{{Kind: KindReg, Class: GPR, Width: w, Access: R, Reserved: true}}, nil
	}
	if t == "SYM" {
		return []Operand{{Kind: KindLabel, Access: R}}, nil
	}
	if p.isa == X86 {
		return p.pmevoX86(t, pos)
	}
	switch {
	case strings.HasPrefix(t, "{"):
		return p.registerList(t, pos, p.pmevoOperand)
	case strings.HasPrefix(t, "["):
		if !pmevoAddrRE.MatchString(t) {
			return nil, p.errorf(pos, t, "bad address")
		}
		return []Operand{{Kind: KindMem, Addr: t}}, nil
	case strings.HasPrefix(t, "#") || numImmRE.MatchString(t):
		return []Operand{{Kind: KindImm, Access: R, Fixed: t}}, nil
	case modifierRE.MatchString(t):
		return []Operand{{Kind: KindModifier, Access: R, Fixed: t}}, nil
	}
	o, n, err := p.pmevoReg(t, pos)
	if err != nil {
		return nil, err
	}
	if o.Class == Vec {
		if n >= len(t) || t[n] != '.' {
			return nil, p.errorf(pos, t, "vector register without arrangement:")
		}
		arr := t[n+1:]
		w := arrangementWidth(arr)
		if w == 0 {
			return nil, p.errorf(pos+n+1, arr, "bad arrangement")
		}
		o.Arrangement, o.Width = arr, w
		n = len(t)
	}
	if n != len(t) {
		return nil, p.errorf(pos+n, t[n:], "unexpected text after operand")
	}
	return []Operand{o}, nil
}

// pmevoReg parses ((REG:acc:class:width)) or ((REG:acc:name)) at the start
// of t and returns the length consumed.
func (p *parser) pmevoReg(t string, pos int) (Operand, int, error) {
	if m := pmevoFixRE.FindStringSubmatch(t); m != nil {
		r, ok := LookupRegister(p.isa, m[2])
		if !ok {
			return Operand{}, 0, p.errorf(pos, m[0], "unknown register in")
		}
		acc, _ := parseAccess(m[1] + ":")
		return Operand{Kind: KindReg, Class: r.Class, Width: r.Width, Access: acc, Fixed: m[2]}, len(m[0]), nil
	}
	m := pmevoRegRE.FindStringSubmatch(t)
	if m == nil {
		return Operand{}, 0, p.errorf(pos, t, "unknown operand")
	}
	acc, _ := parseAccess(m[1] + ":")
	o := Operand{Kind: KindReg, Access: acc}
	w, _ := strconv.Atoi(m[3])
	ok := false
	switch p.isa + "/" + m[2] {
	case X86 + "/G":
		o.Class, o.Width, ok = GPR, w, containsInt([]int{8, 16, 32, 64}, w)
	case X86 + "/V":
		o.Class, ok = map[int]Class{128: XMM, 256: YMM, 512: ZMM}[w]
		o.Width, o.Range = w, defaultRange(o.Class)
	case X86 + "/K":
		o.Class, o.Width, o.Range, ok = K, 64, defaultRange(K), w == 64
	case X86 + "/M":
		o.Class, o.Width, ok = FPMM, 64, w == 64
	case X86 + "/S":
		o.Class, o.Width, ok = Segment, 16, w == 16
	case AArch64 + "/G":
		o.Class, o.Width, ok = GPR, w, w == 32 || w == 64
	case AArch64 + "/F":
		if m[3] == "VEC" {
			o.Class, ok = Vec, true
		} else {
			o.Class, o.Width, ok = FPR, w, containsInt([]int{8, 16, 32, 64, 128}, w)
		}
	}
	if !ok {
		return Operand{}, 0, p.errorf(pos, m[0], "unknown register class")
	}
	return o, len(m[0]), nil
}

func (p *parser) pmevoX86(t string, pos int) ([]Operand, error) {
	if hexImmRE.MatchString(t) {
		return []Operand{{Kind: KindImm, Access: R, Fixed: t}}, nil
	}
	// Memory: "<size> ptr [address]" or, for lea, " [address]".
	if strings.HasPrefix(t, " [") || strings.Contains(t, " ptr ") {
		o := Operand{Kind: KindMem}
		rest, rpos := t[1:], pos+1
		if t[0] != ' ' {
			i := strings.Index(t, " ptr ")
			o.Ptr = t[:i]
			w, ok := ptrWidth[o.Ptr]
			if !ok {
				return nil, p.errorf(pos, o.Ptr, "unknown size keyword")
			}
			o.Width = w
			rest, rpos = t[i+5:], pos+i+5
		}
		j := strings.IndexByte(rest, ']')
		if j < 0 {
			return nil, p.errorf(rpos, rest, "unterminated address")
		}
		addr := rest[:j+1]
		switch {
		case pmevoAddrRE.MatchString(addr):
			o.Addr = addr
		case fixedAddrRE.MatchString(addr) && o.Ptr != "":
			o.Fixed = addr // a hardwired address such as [rsi]
		default:
			return nil, p.errorf(rpos, addr, "bad address")
		}
		return p.decorations([]Operand{o}, rest[j+1:], rpos+j+1)
	}
	if !strings.HasPrefix(t, "((") {
		return nil, p.errorf(pos, t, "unknown operand")
	}
	o, n, err := p.pmevoReg(t, pos)
	if err != nil {
		return nil, err
	}
	return p.decorations([]Operand{o}, t[n:], pos+n)
}

// maskOperand parses the write mask inside braces: scheme syntax
// ("R:K1..7") or, in a PMEvo name, ((REG:R:K:64)).
func (p *parser) maskOperand(dec string, pos int) ([]Operand, error) {
	if p.syntax == "PMEvo name" {
		o, n, err := p.pmevoReg(dec, pos)
		if err != nil {
			return nil, err
		}
		if n != len(dec) {
			return nil, p.errorf(pos+n, dec[n:], "unexpected text after operand")
		}
		return []Operand{o}, nil
	}
	return p.operand(dec, pos)
}

// Memory access of the first operand by mnemonic, for PMEvo names.
var (
	x86DestRead  = words(`cmp test bt ptest vptest comiss comisd ucomiss ucomisd prefetch prefetchw prefetcht0 prefetcht1 prefetcht2 prefetchnta nop`)
	x86DestWrite = words(`movnti movntdq movntps movntpd movbe extractps fxsave fxsave64 stosb stosw stosd stosq vcvtps2ph`)
)

// inferMemory fills in the access of memory operands PMEvo leaves open, and
// the width of AArch64 ones.
func inferMemory(f *Form) {
	m := f.Mnemonic
	idx := -1
	for i := range f.Operands {
		o := &f.Operands[i]
		if o.Implicit || o.Mask {
			continue
		}
		idx++
		if o.Kind != KindMem || o.Access != 0 {
			continue
		}
		if f.ISA == AArch64 {
			o.Access = R
			if strings.HasPrefix(m, "st") {
				o.Access = W
			}
			o.Width = a64MemWidth(*f)
			continue
		}
		if o.Width == 0 { // lea: address only
			continue
		}
		switch {
		case idx > 0:
			o.Access = R
		case x86DestRead[m]:
			o.Access = R
		case x86DestWrite[m] || x86Cond(m, "set") || strings.HasPrefix(m, "mov") || strings.HasPrefix(m, "vmov") ||
			strings.HasPrefix(m, "pextr") || strings.HasPrefix(m, "vpextr") || strings.HasPrefix(m, "vextract") ||
			strings.HasPrefix(m, "kmov") || strings.HasPrefix(m, "vcompress") || strings.HasPrefix(m, "vpcompress") ||
			strings.HasPrefix(m, "vpmov"):
			o.Access = W
		default:
			o.Access = RW
		}
	}
}

// a64MemWidth is the bits an AArch64 load or store moves.
func a64MemWidth(f Form) int {
	m := f.Mnemonic
	switch {
	case strings.HasSuffix(m, "sb") || strings.HasSuffix(m, "rb"):
		return 8
	case strings.HasSuffix(m, "sh") || strings.HasSuffix(m, "rh"):
		return 16
	case strings.HasSuffix(m, "sw"):
		return 32
	}
	w := 0
	for _, o := range f.Operands {
		if o.Kind == KindReg && !o.Implicit {
			w = o.Width
			break
		}
	}
	if m == "ldp" || m == "stp" || m == "ldnp" || m == "stnp" {
		w *= 2
	}
	return w
}

// PMEvoName returns f's name in the PMEvo artifact's syntax (see
// ParsePMEvo); for a name parsed by ParsePMEvo it is that name, exactly.
// The syntax cannot express everything a scheme can: register sets
// ("al,bl,…") print as their class, register ranges (XMM0..31) as the
// vector width, and access modes of memory are dropped; hardwired
// registers print as ((REG:access:name)), write masks as
// {((REG:R:K:64))}, which ParsePMEvo reads back.
func (f Form) PMEvoName() string {
	var ops []string
	for _, o := range f.Operands {
		if o.Implicit {
			continue
		}
		if o.Mask && len(ops) > 0 {
			ops[len(ops)-1] += "{" + o.pmevo(f.ISA) + "}"
			if o.Zeroing {
				ops[len(ops)-1] += "{z}"
			}
			continue
		}
		ops = append(ops, o.pmevo(f.ISA))
	}
	var s string
	if f.ISA == AArch64 {
		s = " " + f.Mnemonic
	} else {
		s = strings.ToUpper(f.Mnemonic)
		if s == "MOVABS" {
			s = "MOV"
		}
		if f.Prefix != "" {
			s = strings.ToUpper(f.Prefix) + " " + s
		}
	}
	if len(ops) > 0 {
		s += " " + strings.Join(ops, ", ")
	}
	return strings.ReplaceAll(s, " ", "_")
}

func (o Operand) pmevo(isa string) string {
	switch o.Kind {
	case KindReg:
		var s string
		switch {
		case o.Reserved:
			s = "((DIV:" + strconv.Itoa(o.Width) + "))"
		case o.Fixed != "":
			s = "((REG:" + o.Access.String() + ":" + o.Fixed + "))"
		case o.Class == Vec:
			s = "((REG:" + o.Access.String() + ":F:VEC))." + o.Arrangement
		default:
			letter := map[Class]string{GPR: "G", XMM: "V", YMM: "V", ZMM: "V", K: "K", FPMM: "M", Segment: "S", FPR: "F"}[o.Class]
			s = "((REG:" + o.Access.String() + ":" + letter + ":" + strconv.Itoa(o.Width) + "))"
		}
		if o.List {
			s = "{" + s + "}"
		}
		return s
	case KindMem:
		addr := o.Addr
		switch {
		case o.Fixed != "":
			addr = o.Fixed
		case addr == "":
			addr = defaultAddr(isa)
		}
		if isa == AArch64 {
			return addr
		}
		s := " " + addr
		if o.Ptr != "" {
			s = o.Ptr + " ptr" + s
		}
		if o.Broadcast != 0 {
			s += "{1to" + strconv.Itoa(o.Broadcast) + "}"
		}
		return s
	case KindImm:
		if o.Fixed != "" {
			return o.Fixed
		}
		return "((IMM:" + strconv.Itoa(o.Width) + "))"
	case KindLabel:
		return "SYM"
	}
	return o.Fixed
}

// SchemeOfPMEvo returns the x86 scheme (iwho syntax, the key of the
// uops.info extract) of the PMEvo instruction name, e.g.
// "add RW:GPR:64, IMM(32)" for "ADD_((REG:RW:G:64)),_((IMM:32))". PMEvo's
// 128- and 256-bit vector registers become XMM0..15 and YMM0..15, its
// ((DIV:64)) registers R:GPR:64, every lea address MEM(0), as in
// uops.info, which tells the address shapes apart only by variant, and MOV
// with a 64-bit immediate movabs. The
// boolean is false if name is not a valid x86 PMEvo name. Whether the
// uops.info data has the scheme is for the caller to check.
func SchemeOfPMEvo(name string) (string, bool) {
	f, err := ParsePMEvo(name)
	if err != nil || f.ISA != X86 {
		return "", false
	}
	return f.Scheme(), true
}
