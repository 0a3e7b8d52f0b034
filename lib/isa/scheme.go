package isa

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// ParseError reports malformed scheme or PMEvo syntax: the offending token
// and its byte offset in the input.
type ParseError struct {
	Syntax string // "scheme" or "PMEvo name"
	Input  string
	Pos    int
	Token  string
	Msg    string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("isa: %s %q: %s %q at offset %d", e.Syntax, e.Input, e.Msg, e.Token, e.Pos)
}

// x86Prefixes are the prefixes that can precede a mnemonic in a scheme.
var x86Prefixes = map[string]bool{"lock": true, "rep": true, "repe": true, "repne": true, "repz": true, "repnz": true}

var (
	mnemonicRE = regexp.MustCompile(`^[a-z][a-z0-9.]*$`)
	hexImmRE   = regexp.MustCompile(`^-?0x[0-9a-fA-F]+$`)
	numImmRE   = regexp.MustCompile(`^-?(0x[0-9a-fA-F]+|[0-9]+(\.[0-9]+)?(e[+-]?[0-9]+)?)$`)
	rangeRE    = regexp.MustCompile(`^(XMM|YMM|ZMM|K)([0-9]+)\.\.([0-9]+)$`)
	modifierRE = regexp.MustCompile(`^((lsl|lsr|asr|ror|msl|[su]xt[bhwx])( #?[0-9]+)?|eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al|nv)$`)
)

// ParseScheme parses an x86-64 instruction scheme in the syntax of iwho
// (and of the uops.info extract's keys): the mnemonic, possibly after a
// prefix (lock, rep, repne), then the operands separated by ", ":
//
//	R:GPR:64, RW:XMM0..15, W:al,bl,cl,dl, R:cl    registers: access, then a class
//	                                              (GPR:w, XMMa..b, YMMa..b, FPMM:64,
//	                                              SEGMENT:16), a set or one register
//	qword ptr RW:MEM(64), R:MEM(4096), MEM(0)     memory (MEM(0): lea's address)
//	byte ptr R:[rsi], dword ptr W:es:[rdi]        hardwired memory
//	IMM(8), 0x0, SYM                              immediate, constant, branch target
//
// It extends the syntax for AVX-512, which iwho lacks: ZMMa..b and Ka..b
// classes, a write mask in braces after the masked operand, {z} for
// zeroing, and {1toN} after a memory operand for embedded broadcast:
//
//	vaddps W:ZMM0..31{R:K1..7}{z}, R:ZMM0..31, dword ptr R:MEM(32){1to16}
//
// The result has the implicit operands of the mnemonic that this package
// knows (flags, the rax/rdx of mul and div) appended; Scheme prints the
// form back exactly. Errors are *ParseError values naming the offending
// token and its offset.
func ParseScheme(s string) (Form, error) { return ParseSchemeISA(X86, s) }

// ParseSchemeISA parses a scheme of the given ISA (X86 or AArch64). The
// AArch64 syntax follows iwho's conventions with classes GPR:64 (x), GPR:32
// (w), FPR:8…FPR:128 (b, h, s, d, q) and VEC.<arrangement> (v.4s; an
// indexed element as VEC.s[1]; a register list in braces, {R:VEC.16b});
// memory is R:MEM(64) (a base register plus offset); constants start with
// '#' ("#0", "#0xff", "#1.0") and shifts, extends and conditions are
// written as in assembly ("lsl 3", "sxtw", "eq"):
//
//	add W:GPR:64, R:GPR:64, R:GPR:32, sxtw 2
//	fmla RW:VEC.4s, R:VEC.4s, R:VEC.s[1]
func ParseSchemeISA(isa, s string) (Form, error) {
	p := parser{syntax: "scheme", input: s, isa: isa}
	if isa != X86 && isa != AArch64 {
		return Form{}, fmt.Errorf("isa: unknown ISA %q (want %q or %q)", isa, X86, AArch64)
	}
	f, err := p.scheme()
	if err != nil {
		return Form{}, err
	}
	f.Operands = append(f.Operands, implicitOperands(f)...)
	return f, nil
}

// MustParseScheme is ParseSchemeISA that panics on error, for schemes
// written in programs.
func MustParseSchemeISA(isa, s string) Form {
	f, err := ParseSchemeISA(isa, s)
	if err != nil {
		panic(err)
	}
	return f
}

type parser struct {
	syntax, input, isa string
}

func (p *parser) errorf(pos int, tok, format string, args ...any) error {
	return &ParseError{Syntax: p.syntax, Input: p.input, Pos: pos, Token: tok, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) scheme() (Form, error) {
	s := p.input
	f := Form{ISA: p.isa}
	if s == "" {
		return f, p.errorf(0, "", "empty")
	}
	if strings.TrimLeft(s, " \t") != s {
		return f, p.errorf(0, s[:1], "leading space")
	}
	if strings.TrimRight(s, " \t") != s {
		return f, p.errorf(len(s)-1, s[len(s)-1:], "trailing space")
	}
	wpos := 0
	word, rest, pos := nextWord(s, 0)
	if p.isa == X86 && x86Prefixes[word] && rest != "" {
		f.Prefix = word
		wpos = pos
		word, rest, pos = nextWord(s, pos)
	}
	if !mnemonicRE.MatchString(word) {
		return f, p.errorf(wpos, word, "bad mnemonic")
	}
	f.Mnemonic = word
	if rest == "" {
		return f, nil
	}
	for _, part := range splitTop(rest, pos) {
		ops, err := p.operand(part.text, part.pos)
		if err != nil {
			return f, err
		}
		f.Operands = append(f.Operands, ops...)
	}
	return f, nil
}

// nextWord returns the word of s starting at from, the rest after the
// following space (empty if none), and the offset of the rest.
func nextWord(s string, from int) (word, rest string, restPos int) {
	t := s[from:]
	i := strings.IndexByte(t, ' ')
	if i < 0 {
		return t, "", len(s)
	}
	return t[:i], t[i+1:], from + i + 1
}

type part struct {
	text string
	pos  int
}

// splitTop splits s at the ", " separators outside brackets and braces;
// base is the offset of s in the input.
func splitTop(s string, base int) []part {
	var parts []part
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '{', '(':
			depth++
		case ']', '}', ')':
			depth--
		case ',':
			if depth == 0 && i+1 < len(s) && s[i+1] == ' ' {
				parts = append(parts, part{s[start:i], base + start})
				start = i + 2
				i++
			}
		}
	}
	return append(parts, part{s[start:], base + start})
}

// operand parses one operand text at offset pos; a write mask in braces
// yields a second operand.
func (p *parser) operand(t string, pos int) ([]Operand, error) {
	if t == "" {
		return nil, p.errorf(pos, t, "empty operand")
	}
	switch {
	case t == "SYM":
		return []Operand{{Kind: KindLabel, Access: R}}, nil
	case strings.HasPrefix(t, "IMM("):
		w, err := p.width(t, pos, "IMM(")
		if err != nil {
			return nil, err
		}
		return []Operand{{Kind: KindImm, Access: R, Width: w}}, nil
	case strings.HasPrefix(t, "MEM("):
		w, n, err := p.memWidth(t, pos)
		if err != nil {
			return nil, err
		}
		if n != len(t) {
			return nil, p.errorf(pos+n, t[n:], "unexpected text after memory operand")
		}
		return []Operand{{Kind: KindMem, Width: w}}, nil
	case p.isa == X86 && hexImmRE.MatchString(t):
		return []Operand{{Kind: KindImm, Access: R, Fixed: t}}, nil
	case p.isa == AArch64 && (strings.HasPrefix(t, "#") || numImmRE.MatchString(t)):
		if t == "#" {
			return nil, p.errorf(pos, t, "empty constant")
		}
		return []Operand{{Kind: KindImm, Access: R, Fixed: t}}, nil
	case p.isa == AArch64 && modifierRE.MatchString(t):
		return []Operand{{Kind: KindModifier, Access: R, Fixed: t}}, nil
	case p.isa == AArch64 && strings.HasPrefix(t, "{"):
		return p.registerList(t, pos, p.operand)
	}

	var o Operand
	body, bpos := t, pos
	if p.isa == X86 {
		if i := strings.Index(t, " ptr "); i >= 0 {
			kw := t[:i]
			if _, ok := ptrWidth[kw]; !ok {
				return nil, p.errorf(pos, kw, "unknown size keyword")
			}
			o.Ptr = kw
			body, bpos = t[i+5:], pos+i+5
		}
	}
	acc, n := parseAccess(body)
	if n == 0 {
		return nil, p.errorf(bpos, body, "operand lacks an access mode (R:, W: or RW:):")
	}
	o.Access = acc
	body, bpos = body[n:], bpos+n

	var rest string
	var rpos int
	switch {
	case strings.HasPrefix(body, "MEM("):
		w, m, err := p.memWidth(body, bpos)
		if err != nil {
			return nil, err
		}
		o.Kind, o.Width = KindMem, w
		if o.Ptr != "" && ptrWidth[o.Ptr] != w && !(o.Ptr == "byte" && w == 512) {
			// prefetch is "byte ptr MEM(512)" (one cache line): allowed;
			// any other disagreement is a typo.
			return nil, p.errorf(pos, t, "size keyword %q disagrees with the width %d of", o.Ptr, w)
		}
		rest, rpos = body[m:], bpos+m
	case p.isa == X86 && (strings.HasPrefix(body, "[") || strings.Contains(body, ":[")):
		j := strings.IndexByte(body, ']')
		if j < 0 {
			return nil, p.errorf(bpos, body, "unterminated address")
		}
		o.Kind, o.Fixed = KindMem, body[:j+1]
		o.Width = ptrWidth[o.Ptr]
		rest, rpos = body[j+1:], bpos+j+1
	default:
		if o.Ptr != "" {
			return nil, p.errorf(pos, t, "size keyword before a non-memory operand")
		}
		spec := body
		if j := strings.IndexByte(body, '{'); j >= 0 {
			spec = body[:j]
		}
		if err := p.regSpec(&o, spec, bpos); err != nil {
			return nil, err
		}
		rest, rpos = body[len(spec):], bpos+len(spec)
	}
	ops := []Operand{o}
	if rest == "" {
		return ops, nil
	}
	if p.isa != X86 {
		return nil, p.errorf(rpos, rest, "unexpected text after operand")
	}
	return p.decorations(ops, rest, rpos)
}

// decorations parses the AVX-512 suffixes {R:K1..7}, {z} and {1toN}.
func (p *parser) decorations(ops []Operand, rest string, pos int) ([]Operand, error) {
	for rest != "" {
		if rest[0] != '{' {
			return nil, p.errorf(pos, rest, "unexpected text after operand")
		}
		j := strings.IndexByte(rest, '}')
		if j < 0 {
			return nil, p.errorf(pos, rest, "unterminated {")
		}
		dec := rest[1:j]
		switch {
		case dec == "z":
			last := &ops[len(ops)-1]
			if !last.Mask || last.Zeroing {
				return nil, p.errorf(pos, "{z}", "zeroing without a preceding write mask:")
			}
			last.Zeroing = true
		case strings.HasPrefix(dec, "1to"):
			n, err := strconv.Atoi(dec[3:])
			if err != nil || n < 2 || ops[0].Kind != KindMem || len(ops) > 1 || ops[0].Broadcast != 0 {
				return nil, p.errorf(pos, rest[:j+1], "bad broadcast")
			}
			ops[0].Broadcast = n
		default:
			if len(ops) > 1 {
				return nil, p.errorf(pos, rest[:j+1], "second write mask")
			}
			m, err := p.maskOperand(dec, pos+1)
			if err != nil {
				return nil, err
			}
			if len(m) != 1 || m[0].Kind != KindReg || m[0].Class != K {
				return nil, p.errorf(pos+1, dec, "write mask is not a mask register")
			}
			m[0].Mask = true
			if p.syntax != "scheme" {
				m[0].Range = RegRange{1, 7} // k0 cannot mask
			}
			ops = append(ops, m[0])
		}
		rest, pos = rest[j+1:], pos+j+1
	}
	return ops, nil
}

func parseAccess(s string) (Access, int) {
	switch {
	case strings.HasPrefix(s, "RW:"):
		return RW, 3
	case strings.HasPrefix(s, "R:"):
		return R, 2
	case strings.HasPrefix(s, "W:"):
		return W, 2
	}
	return 0, 0
}

// width parses "PREFIXn)" and returns n.
func (p *parser) width(t string, pos int, prefix string) (int, error) {
	if !strings.HasSuffix(t, ")") {
		return 0, p.errorf(pos, t, "missing )")
	}
	w, err := strconv.Atoi(t[len(prefix) : len(t)-1])
	if err != nil || w <= 0 || w > 4096 {
		return 0, p.errorf(pos, t, "bad width in")
	}
	return w, nil
}

// memWidth parses "MEM(n)" at the start of t and returns n and the length
// consumed.
func (p *parser) memWidth(t string, pos int) (int, int, error) {
	j := strings.IndexByte(t, ')')
	if j < 0 {
		return 0, 0, p.errorf(pos, t, "missing ) in")
	}
	w, err := strconv.Atoi(t[4:j])
	if err != nil || w < 0 || w > 65536 {
		return 0, 0, p.errorf(pos, t[:j+1], "bad memory width")
	}
	return w, j + 1, nil
}

// regSpec parses the register part of an operand after its access mode.
func (p *parser) regSpec(o *Operand, spec string, pos int) error {
	o.Kind = KindReg
	if spec == "" {
		return p.errorf(pos, spec, "missing register class")
	}
	if m := rangeRE.FindStringSubmatch(spec); m != nil {
		o.Class = map[string]Class{"XMM": XMM, "YMM": YMM, "ZMM": ZMM, "K": K}[m[1]]
		o.Width = map[Class]int{XMM: 128, YMM: 256, ZMM: 512, K: 64}[o.Class]
		lo, _ := strconv.Atoi(m[2])
		hi, _ := strconv.Atoi(m[3])
		max := 31
		if o.Class == K {
			max = 7
		}
		if lo >= hi || hi > max || len(m[2]) > 2 || len(m[3]) > 2 {
			// A single register is written by its name ("xmm0").
			return p.errorf(pos, spec, "bad register range")
		}
		o.Range = RegRange{lo, hi}
		return nil
	}
	if cls, w, ok := strings.Cut(spec, ":"); ok {
		width, err := strconv.Atoi(w)
		valid := map[string]map[string][]int{
			X86:     {"GPR": {8, 16, 32, 64}, "FPMM": {64}, "SEGMENT": {16}},
			AArch64: {"GPR": {32, 64}, "FPR": {8, 16, 32, 64, 128}},
		}[p.isa][cls]
		if err != nil || !containsInt(valid, width) {
			return p.errorf(pos, spec, "unknown register class")
		}
		o.Class = map[string]Class{"GPR": GPR, "FPMM": FPMM, "SEGMENT": Segment, "FPR": FPR}[cls]
		o.Width = width
		return nil
	}
	if p.isa == AArch64 && strings.HasPrefix(spec, "VEC.") {
		arr := spec[4:]
		w := arrangementWidth(arr)
		if w == 0 {
			return p.errorf(pos+4, arr, "bad arrangement")
		}
		o.Class, o.Width, o.Arrangement = Vec, w, arr
		return nil
	}
	names := strings.Split(spec, ",")
	off := pos
	for i, name := range names {
		r, ok := LookupRegister(p.isa, name)
		if !ok || r.Class == Flags {
			return p.errorf(off, name, "unknown register")
		}
		if i == 0 {
			o.Class, o.Width = r.Class, r.Width
		} else if r.Class != o.Class || r.Width != o.Width {
			return p.errorf(off, name, "register set mixes classes or widths at")
		}
		off += len(name) + 1
	}
	if len(names) == 1 {
		o.Fixed = names[0]
	} else {
		o.Regs = names
	}
	return nil
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Scheme returns f in scheme syntax (see ParseScheme and ParseSchemeISA):
// for x86 forms exactly the iwho/uops.info key. Implicit operands are not
// shown (see String).
func (f Form) Scheme() string {
	var buf [96]byte
	return string(f.appendScheme(buf[:0]))
}

// appendScheme appends f's Scheme to b: the string built in one buffer
// (form keys are made often, by simulators for every instruction of a
// block).
func (f Form) appendScheme(b []byte) []byte {
	if f.Prefix != "" {
		b = append(b, f.Prefix...)
		b = append(b, ' ')
	}
	b = append(b, f.Mnemonic...)
	first := true
	for i := range f.Operands {
		o := &f.Operands[i]
		if o.Implicit {
			continue
		}
		if o.Mask {
			b = append(b, '{')
			b = o.appendScheme(b)
			b = append(b, '}')
			if o.Zeroing {
				b = append(b, "{z}"...)
			}
			continue
		}
		if first {
			b = append(b, ' ')
		} else {
			b = append(b, ", "...)
		}
		first = false
		b = o.appendScheme(b)
	}
	return b
}

// appendScheme appends o's scheme (see scheme) to b.
func (o *Operand) appendScheme(b []byte) []byte {
	acc := func(b []byte) []byte {
		if o.Access != 0 {
			b = append(b, o.Access.String()...)
			b = append(b, ':')
		}
		return b
	}
	switch o.Kind {
	case KindReg:
		if o.List {
			b = append(b, '{')
		}
		b = acc(b)
		switch {
		case o.Fixed != "":
			b = append(b, o.Fixed...)
		case len(o.Regs) > 0:
			for i, r := range o.Regs {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, r...)
			}
		default:
			switch o.Class {
			case XMM, YMM, ZMM, K:
				r := o.effRange()
				b = append(b, o.Class.String()...)
				b = strconv.AppendInt(b, int64(r.Lo), 10)
				b = append(b, ".."...)
				b = strconv.AppendInt(b, int64(r.Hi), 10)
			case Vec:
				b = append(b, "VEC."...)
				b = append(b, o.Arrangement...)
			default:
				b = append(b, o.Class.String()...)
				b = append(b, ':')
				b = strconv.AppendInt(b, int64(o.Width), 10)
			}
		}
		if o.List {
			b = append(b, '}')
		}
		return b
	case KindMem:
		if o.Ptr != "" {
			b = append(b, o.Ptr...)
			b = append(b, " ptr "...)
		}
		if o.Access == 0 && o.Fixed == "" {
			b = append(b, "MEM("...)
			b = strconv.AppendInt(b, int64(o.Width), 10)
			return append(b, ')')
		}
		b = acc(b)
		if o.Fixed != "" {
			b = append(b, o.Fixed...)
		} else {
			b = append(b, "MEM("...)
			b = strconv.AppendInt(b, int64(o.Width), 10)
			b = append(b, ')')
		}
		if o.Broadcast != 0 {
			b = append(b, "{1to"...)
			b = strconv.AppendInt(b, int64(o.Broadcast), 10)
			b = append(b, '}')
		}
		return b
	}
	return append(b, o.scheme()...)
}

// Scheme returns o in scheme syntax ("RW:GPR:64", "qword ptr R:MEM(64)").
func (o Operand) Scheme() string { return o.scheme() }

func (o Operand) scheme() string {
	acc := ""
	if o.Access != 0 {
		acc = o.Access.String() + ":"
	}
	switch o.Kind {
	case KindReg:
		s := acc + o.regBody()
		if o.List {
			s = "{" + s + "}"
		}
		return s
	case KindMem:
		s := ""
		if o.Ptr != "" {
			s = o.Ptr + " ptr "
		}
		if o.Access == 0 && o.Fixed == "" {
			return s + "MEM(" + strconv.Itoa(o.Width) + ")"
		}
		s += acc
		if o.Fixed != "" {
			s += o.Fixed
		} else {
			s += "MEM(" + strconv.Itoa(o.Width) + ")"
		}
		if o.Broadcast != 0 {
			s += "{1to" + strconv.Itoa(o.Broadcast) + "}"
		}
		return s
	case KindImm:
		if o.Fixed != "" {
			return o.Fixed
		}
		return "IMM(" + strconv.Itoa(o.Width) + ")"
	case KindLabel:
		return "SYM"
	case KindModifier:
		return o.Fixed
	}
	return "?"
}

func (o Operand) regBody() string {
	switch {
	case o.Fixed != "":
		return o.Fixed
	case len(o.Regs) > 0:
		return strings.Join(o.Regs, ",")
	}
	switch o.Class {
	case XMM, YMM, ZMM, K:
		r := o.effRange()
		return o.Class.String() + strconv.Itoa(r.Lo) + ".." + strconv.Itoa(r.Hi)
	case Vec:
		return "VEC." + o.Arrangement
	}
	return o.Class.String() + ":" + strconv.Itoa(o.Width)
}

// registerList parses an AArch64 register list "{…}" whose single element
// is read by elem.
func (p *parser) registerList(t string, pos int, elem func(string, int) ([]Operand, error)) ([]Operand, error) {
	if !strings.HasSuffix(t, "}") {
		return nil, p.errorf(pos, t, "unterminated register list")
	}
	ops, err := elem(t[1:len(t)-1], pos+1)
	if err != nil {
		return nil, err
	}
	if len(ops) != 1 || ops[0].Kind != KindReg {
		return nil, p.errorf(pos, t, "register list of a non-register")
	}
	ops[0].List = true
	return ops, nil
}
