package block

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/portlab/portlab/lib/isa"
)

// Parse reads a block or loop body from GNU assembly text in the given
// syntax (Auto: per line, see Syntax) and matches every instruction to its
// form in DefaultForms. It reads gcc -S output and objdump -d listings
// (the address and encoding columns are dropped): labels, directives,
// comments ('#', "//", "/* */") and blank lines are skipped, ';' separates
// statements, and a jump at the end is kept as the loop branch. Lines that
// cannot be read or matched are all reported in one *ParseError; the
// block returned with it holds the instructions that were matched.
// AArch64 assembly is refused (its lines say so).
func Parse(src string, syntax Syntax) (*Block, error) {
	t, err := DefaultForms()
	if err != nil {
		return nil, err
	}
	return t.parse(src, syntax, "")
}

// ParseFile reads the file at path with Parse in Auto syntax; errors name
// the file.
func ParseFile(path string) (*Block, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("block: %w", err)
	}
	t, err := DefaultForms()
	if err != nil {
		return nil, err
	}
	return t.parse(string(data), Auto, path)
}

// Parse is the package-level Parse with t as the table of forms.
func (t *Forms) Parse(src string, syntax Syntax) (*Block, error) {
	return t.parse(src, syntax, "")
}

var (
	objdumpLineRE  = regexp.MustCompile(`^\s*([0-9a-f]+):\t(.*)$`)
	objdumpBytesRE = regexp.MustCompile(`^((?:[0-9a-f]{2} )+)\s*(?:\t(.*))?$`)
	objdumpHeadRE  = regexp.MustCompile(`^([0-9a-f]+ <.*>:|.*:\s+file format .*|Disassembly of section .*:|\s*\.\.\.|\s*[0-9a-f]+: R_\S+\s.*)\s*$`)
	aarch64RE      = regexp.MustCompile(`(?i)(^|[\s,\[{])([xw]([12]?[0-9]|30)|v[0-9]+\.[0-9]*[bhsdq]|wzr|xzr)\b|^(b\.[a-z]{2}|cbn?z|tbn?z)\s|elf64-littleaarch64`)
	labelRE        = regexp.MustCompile(`^([A-Za-z_.$@][\w.$@]*|[0-9]+):`)
	objdumpFuncRE  = regexp.MustCompile(`^[0-9a-f]+ <(.*)>:\s*$`)
	mnemonicRE     = regexp.MustCompile(`^[a-z][a-z0-9._]*$`)
)

// prefixes that select another form; ignored are the ones that do not.
var (
	repPrefixes     = map[string]string{"lock": "lock", "rep": "rep", "repe": "rep", "repz": "rep", "repne": "repne", "repnz": "repne"}
	ignoredPrefixes = words("notrack bnd xacquire xrelease data16 data32 addr32 cs ds ss es rex rex.w rex64 {vex} {vex2} {vex3} {evex} {load} {store} {disp8} {disp32}")
)

func (t *Forms) parse(src string, syntax Syntax, source string) (*Block, error) {
	b := &Block{Source: source}
	var errs []LineError
	mode := syntax
	inComment := false
	lines := strings.Split(src, "\n")
	encs := objdumpEncodings(lines)
	for n, raw := range lines {
		line := n + 1
		text := strings.TrimRight(raw, "\r")
		text, inComment = stripComments(text, inComment)
		addr := int64(-1)
		if m := objdumpFuncRE.FindStringSubmatch(text); m != nil {
			if b.labels == nil {
				b.labels = map[string]int{}
			}
			b.labels[m[1]] = len(b.Insns)
			continue
		}
		if objdumpHeadRE.MatchString(text) {
			continue
		}
		if m := objdumpLineRE.FindStringSubmatchIndex(text); m != nil {
			a, _ := strconv.ParseInt(text[m[2]:m[3]], 16, 64)
			rest, off := text[m[4]:m[5]], m[4]
			if bm := objdumpBytesRE.FindStringSubmatchIndex(rest); bm != nil {
				if bm[4] < 0 || strings.TrimSpace(rest[bm[4]:bm[5]]) == "" {
					continue // the encoding's continuation line
				}
				off += bm[4]
			}
			addr = a
			text = strings.Repeat(" ", off) + text[off:] // keep columns
		}
		for _, st := range splitStatements(text) {
			s, col := st.text, st.pos
			for {
				trimmed := strings.TrimLeft(s, " \t")
				col += len(s) - len(trimmed)
				s = trimmed
				m := labelRE.FindStringIndex(s)
				if m == nil || strings.ContainsAny(s[:m[1]], "%") {
					break
				}
				if b.labels == nil {
					b.labels = map[string]int{}
				}
				b.labels[s[:m[1]-1]] = len(b.Insns)
				s, col = s[m[1]:], col+m[1]
			}
			s = strings.TrimRight(s, " \t")
			if s == "" {
				continue
			}
			if s[0] == '.' {
				if syntax == Auto {
					switch {
					case strings.HasPrefix(s, ".intel_syntax"):
						mode = Intel
					case strings.HasPrefix(s, ".att_syntax"):
						mode = ATT
					}
				}
				continue
			}
			in, lerr := t.insn(s, col, mode, encs[n])
			if lerr != nil && mode == Auto && !strings.ContainsAny(s, "%$[") {
				// Without registers the syntaxes look alike: "incl foo".
				if in2, lerr2 := t.insn(s, col, ATT, encs[n]); lerr2 == nil {
					in, lerr = in2, nil
				}
			}
			if lerr != nil && aarch64RE.MatchString(s) {
				lerr.Msg = "AArch64 assembly is not supported yet (x86-64 only): " + lerr.Msg
			}
			if lerr != nil {
				lerr.Line = line
				lerr.Text = strings.TrimSpace(raw)
				errs = append(errs, *lerr)
				continue
			}
			in.Line, in.Addr = line, addr
			b.Insns = append(b.Insns, in)
		}
	}
	if len(errs) > 0 {
		return b, &ParseError{Source: source, Lines: errs}
	}
	return b, nil
}

// objdumpEncodings returns, by line index, the bytes of the instructions
// of an objdump listing, continuation lines included (nil elsewhere).
func objdumpEncodings(lines []string) [][]byte {
	encs := make([][]byte, len(lines))
	last := -1
	for n, l := range lines {
		m := objdumpLineRE.FindStringSubmatch(strings.TrimRight(l, "\r"))
		if m == nil {
			last = -1
			continue
		}
		bm := objdumpBytesRE.FindStringSubmatch(m[2])
		if bm == nil {
			last = -1
			continue
		}
		raw, err := hex.DecodeString(strings.ReplaceAll(bm[1], " ", ""))
		if err != nil {
			last = -1
			continue
		}
		if strings.TrimSpace(bm[2]) == "" {
			if last >= 0 {
				encs[last] = append(encs[last], raw...)
			}
			continue
		}
		encs[n], last = raw, n
	}
	return encs
}

// stripComments removes comments from a line; inBlock says whether a
// "/* */" comment is open at its start. Quoted strings (of directives such
// as .string "a#b") are kept.
func stripComments(s string, inBlock bool) (string, bool) {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(s); i++ {
		if quoted {
			b.WriteByte(s[i])
			switch s[i] {
			case '\\':
				if i+1 < len(s) {
					i++
					b.WriteByte(s[i])
				}
			case '"':
				quoted = false
			}
			continue
		}
		if inBlock {
			if strings.HasPrefix(s[i:], "*/") {
				inBlock = false
				b.WriteString("  ")
				i++
			} else {
				b.WriteByte(' ')
			}
			continue
		}
		switch {
		case strings.HasPrefix(s[i:], "/*"):
			inBlock = true
			b.WriteString("  ")
			i++
		case s[i] == '#' || strings.HasPrefix(s[i:], "//"):
			return b.String(), false
		case s[i] == '"':
			quoted = true
			b.WriteByte(s[i])
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), inBlock
}

type piece struct {
	text string
	pos  int // 1-based column of text[0]
}

// splitStatements splits a line at the ';' separators outside quoted
// strings.
func splitStatements(s string) []piece {
	var out []piece
	start := 0
	quoted := false
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] == '\\' && quoted {
			i++
			continue
		}
		if i < len(s) && s[i] == '"' {
			quoted = !quoted
		}
		if i == len(s) || (s[i] == ';' && !quoted) {
			out = append(out, piece{s[start:i], start + 1})
			start = i + 1
		}
	}
	return out
}

// splitOperands splits at the commas outside brackets, parentheses and
// braces; col is the column of s[0].
func splitOperands(s string, col int) []piece {
	var out []piece
	depth, start := 0, 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) {
			switch s[i] {
			case '[', '(', '{':
				depth++
			case ']', ')', '}':
				depth--
			}
		}
		if i == len(s) || (s[i] == ',' && depth == 0) {
			p := s[start:i]
			t := strings.TrimLeft(p, " \t")
			out = append(out, piece{strings.TrimRight(t, " \t"), col + start + len(p) - len(t)})
			start = i + 1
		}
	}
	return out
}

// isBranchMnemonic reports whether m (canonical) takes a label operand.
func isBranchMnemonic(m string) bool {
	return strings.HasPrefix(m, "j") || strings.HasPrefix(m, "loop") || m == "call" || m == "callq" || m == "xbegin"
}

// insn reads one instruction statement starting at column col; enc is its
// encoding when known.
func (t *Forms) insn(s string, col int, mode Syntax, enc []byte) (Insn, *LineError) {
	in := Insn{Addr: -1, Encoding: enc}
	fields := strings.Fields(s)
	prefix, mnem, mcol := "", "", col
	rest := s
	for len(fields) > 0 {
		w := strings.ToLower(fields[0])
		i := strings.Index(rest, fields[0])
		rest = rest[i+len(fields[0]):]
		wcol := col + i
		col = wcol + len(fields[0])
		fields = fields[1:]
		if p, ok := repPrefixes[w]; ok && len(fields) > 0 {
			prefix = p
			continue
		}
		if ignoredPrefixes[w] && len(fields) > 0 {
			continue
		}
		mnem, mcol = w, wcol
		break
	}
	in.Text = strings.Join(strings.Fields(s), " ")
	trimmed := strings.TrimLeft(rest, " \t")
	col += len(rest) - len(trimmed)
	rest = strings.TrimRight(trimmed, " \t")
	att := mode == ATT || (mode == Auto && strings.ContainsAny(rest, "%$"))
	if !mnemonicRE.MatchString(mnem) {
		return in, &LineError{Column: mcol, Msg: "not an instruction"}
	}
	branch := isBranchMnemonic(canonical(mnem))
	var ops []Operand
	if rest != "" {
		for _, p := range splitOperands(rest, col) {
			var o Operand
			var err error
			if att {
				o, err = parseATT(p.text, branch)
			} else {
				o, err = parseIntel(p.text, branch)
			}
			if err != nil {
				return in, &LineError{Column: p.pos, Msg: err.Error()}
			}
			ops = append(ops, o)
		}
	}
	if att {
		for i, j := 0, len(ops)-1; i < j; i, j = i+1, j-1 {
			ops[i], ops[j] = ops[j], ops[i]
		}
	}
	f, ops, err := t.match(prefix, mnem, ops, att, enc)
	if err != nil {
		return in, &LineError{Column: mcol, Msg: err.Error()}
	}
	in.Form, in.Operands = f, ops
	// Memory widths from the form, for locations.
	explicit := f.Explicit()
	k := 0
	for i := range in.Operands {
		for k < len(explicit) && explicit[k].Mask {
			k++
		}
		if k < len(explicit) && in.Operands[i].Kind == isa.KindMem {
			if in.Operands[i].Mem.Width == 0 {
				in.Operands[i].Mem.Width = memWidth(explicit[k])
			}
			if in.Operands[i].Broadcast < 0 {
				in.Operands[i].Broadcast = explicit[k].Broadcast
			}
		}
		k++
	}
	in.Branch = strings.HasPrefix(f.Mnemonic, "j") || strings.HasPrefix(f.Mnemonic, "loop")
	if err := analyze(&in); err != nil {
		return in, &LineError{Column: mcol, Msg: err.Error()}
	}
	return in, nil
}

func memWidth(o isa.Operand) int {
	if o.Broadcast > 0 {
		return o.Width
	}
	if o.Ptr != "" {
		return ptrBits[o.Ptr]
	}
	return o.Width
}

var (
	sizeRE    = regexp.MustCompile(`(?i)^(byte|word|dword|qword|tbyte|oword|xmmword|ymmword|zmmword|mmword|fword)\s+(ptr|bcst)\b\s*`)
	segRE     = regexp.MustCompile(`(?i)^%?(cs|ds|es|fs|gs|ss):`)
	numberRE  = regexp.MustCompile(`^[-+]?(0[xX][0-9a-fA-F]+|[0-9]+)$`)
	symbolRE  = regexp.MustCompile(`^[A-Za-z_.$@][\w.$@]*$`)
	targetRE  = regexp.MustCompile(`^([0-9a-fA-Fx]+)\s*(<([^>]*)>)?$`)
	offsetRE  = regexp.MustCompile(`(?i)^offset\s+(flat:)?`)
	x87RE     = regexp.MustCompile(`^st(\s*\(\s*[0-7]\s*\))?$`)
	errX87    = errors.New("x87 register: the uops.info extract has no x87 forms")
	sizeWidth = map[string]int{"byte": 8, "word": 16, "dword": 32, "qword": 64, "tbyte": 80, "oword": 128,
		"xmmword": 128, "ymmword": 256, "zmmword": 512, "mmword": 64, "fword": 48}
)

// parseNumber reads a GNU assembler integer: decimal, 0x hex, octal with a
// leading 0; hex beyond int64 (objdump's 0xfffffffffffffff0) wraps.
func parseNumber(s string) (int64, bool) {
	if !numberRE.MatchString(s) {
		return 0, false
	}
	neg := strings.HasPrefix(s, "-")
	u, err := strconv.ParseUint(strings.TrimLeft(s, "+-"), 0, 64)
	if err != nil {
		return 0, false
	}
	if neg {
		return -int64(u), true
	}
	return int64(u), true
}

// decorations peels the AVX-512 suffixes {k1}, {z}, {1toN} off s.
func decorations(s string, o *Operand) (string, error) {
	for strings.HasSuffix(s, "}") {
		i := strings.LastIndexByte(s, '{')
		if i < 0 {
			return s, fmt.Errorf("unbalanced }")
		}
		d := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s[i+1:len(s)-1])), "%")
		switch {
		case d == "z":
			o.Zeroing = true
		case len(d) == 2 && d[0] == 'k' && d[1] >= '0' && d[1] <= '7':
			o.Mask = d
		case strings.HasPrefix(d, "1to"):
			n, err := strconv.Atoi(d[3:])
			if err != nil {
				return s, fmt.Errorf("bad broadcast {%s}", d)
			}
			o.Broadcast = n
		default:
			return s, fmt.Errorf("unsupported decoration {%s}", d)
		}
		s = strings.TrimSpace(s[:i])
	}
	return s, nil
}

func lookupReg(name string) bool {
	r, ok := isa.LookupRegister(isa.X86, name)
	return ok && r.Class != isa.Flags
}

// parseIntel reads one operand in GNU Intel syntax.
func parseIntel(s string, branch bool) (Operand, error) {
	var o Operand
	s, err := decorations(s, &o)
	if err != nil {
		return o, err
	}
	if s == "" {
		return o, fmt.Errorf("empty operand")
	}
	low := strings.ToLower(s)
	width, bcst := 0, false
	if m := sizeRE.FindStringSubmatch(s); m != nil {
		width = sizeWidth[strings.ToLower(m[1])]
		bcst = strings.EqualFold(m[2], "bcst")
		s = s[len(m[0]):]
		low = strings.ToLower(s)
	}
	switch {
	case width > 0 || strings.Contains(s, "[") || segRE.MatchString(s):
		o.Kind = isa.KindMem
		m, err := intelAddress(s)
		if err != nil {
			return o, err
		}
		m.Width = width
		o.Mem = m
		if bcst {
			o.Broadcast = -1 // N follows from the form
		}
		return o, nil
	case lookupReg(low):
		o.Kind, o.Reg = isa.KindReg, low
		return o, nil
	case x87RE.MatchString(low):
		return o, errX87
	case offsetRE.MatchString(s):
		o.Kind, o.Symbol = isa.KindImm, s
		return o, nil
	}
	if v, ok := parseNumber(s); ok && !branch {
		o.Kind, o.Imm = isa.KindImm, v
		return o, nil
	}
	if branch {
		o.Kind = isa.KindLabel
		labelTarget(&o, s)
		return o, nil
	}
	if symbolRE.MatchString(s) || strings.ContainsAny(s, "+-") {
		// GNU Intel syntax: a bare symbol is a memory reference.
		o.Kind = isa.KindMem
		m, err := intelAddress(s)
		o.Mem = m
		return o, err
	}
	return o, fmt.Errorf("cannot read operand %q", s)
}

// labelTarget sets a branch target: a label ("jne .L3"), or an address
// with objdump's symbolic name ("jne 401000 <f+0x10>", "jne 0x0"), kept
// in Imm with HasAddr set.
func labelTarget(o *Operand, s string) {
	o.Symbol = s
	if m := targetRE.FindStringSubmatch(s); m != nil {
		a, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(m[1]), "0x"), 16, 64)
		if err == nil && (m[3] != "" || strings.HasPrefix(strings.ToLower(m[1]), "0x")) {
			o.Imm, o.HasAddr = int64(a), true
		}
		if m[3] != "" {
			o.Symbol = m[3]
		}
	}
}

// intelAddress reads "seg:sym+disp[base+index*scale+disp]".
func intelAddress(s string) (MemRef, error) {
	var m MemRef
	if sm := segRE.FindString(s); sm != "" {
		m.Segment = strings.ToLower(strings.Trim(sm, "%:"))
		s = s[len(sm):]
	}
	outer, inner := s, ""
	if i := strings.IndexByte(s, '['); i >= 0 {
		j := strings.LastIndexByte(s, ']')
		if j < i || strings.TrimSpace(s[j+1:]) != "" {
			return m, fmt.Errorf("unbalanced [ ] in %q", s)
		}
		outer, inner = s[:i], s[i+1:j]
	}
	if err := addressTerms(&m, outer, false); err != nil {
		return m, err
	}
	return m, addressTerms(&m, inner, true)
}

// addressTerms adds the +/- separated terms of an address expression to m;
// regs says whether registers may occur.
func addressTerms(m *MemRef, s string, regs bool) error {
	s = strings.ReplaceAll(s, " ", "")
	if s == "" {
		return nil
	}
	start := 0
	for i := 1; i <= len(s); i++ {
		if i < len(s) && s[i] != '+' && s[i] != '-' {
			continue
		}
		term := s[start:i]
		start = i
		sign := int64(1)
		if term[0] == '+' || term[0] == '-' {
			if term[0] == '-' {
				sign = -1
			}
			term = term[1:]
		}
		if err := addressTerm(m, term, sign, regs); err != nil {
			return err
		}
	}
	return nil
}

func addressTerm(m *MemRef, term string, sign int64, regs bool) error {
	low := strings.ToLower(term)
	if v, ok := parseNumber(term); ok {
		m.Disp += sign * v
		return nil
	}
	reg, scale := low, 1
	if a, b, ok := strings.Cut(low, "*"); ok {
		if n, err := strconv.Atoi(b); err == nil {
			reg, scale = a, n
		} else if n, err := strconv.Atoi(a); err == nil {
			reg, scale = b, n
		} else {
			return fmt.Errorf("bad scaled index %q", term)
		}
	}
	if regs && (lookupReg(reg) || reg == "rip" || reg == "eip") {
		if sign < 0 {
			return fmt.Errorf("negated register %q in address", term)
		}
		switch {
		case m.Base == "" && scale == 1 && term == reg && !strings.Contains(term, "*"):
			m.Base = reg
		case m.Index == "":
			m.Index, m.Scale = reg, scale
		default:
			return fmt.Errorf("too many registers in address at %q", term)
		}
		return nil
	}
	if symbolRE.MatchString(term) && scale == 1 {
		if sign < 0 {
			term = "-" + term
		}
		if m.Symbol != "" && sign > 0 {
			term = "+" + term
		}
		m.Symbol += term
		return nil
	}
	return fmt.Errorf("cannot read address term %q", term)
}

// parseATT reads one operand in AT&T syntax.
func parseATT(s string, branch bool) (Operand, error) {
	var o Operand
	s, err := decorations(s, &o)
	if err != nil {
		return o, err
	}
	if s == "" {
		return o, fmt.Errorf("empty operand")
	}
	indirect := false
	if strings.HasPrefix(s, "*") {
		indirect, s = true, strings.TrimSpace(s[1:])
	}
	switch {
	case strings.HasPrefix(s, "$"):
		o.Kind = isa.KindImm
		if v, ok := parseNumber(s[1:]); ok {
			o.Imm = v
		} else {
			o.Symbol = s
		}
		return o, nil
	case strings.HasPrefix(s, "%") && !segRE.MatchString(s):
		r := strings.ToLower(s[1:])
		if x87RE.MatchString(r) {
			return o, errX87
		}
		if !lookupReg(r) {
			return o, fmt.Errorf("unknown register %q", s)
		}
		o.Kind, o.Reg = isa.KindReg, r
		return o, nil
	}
	if branch && !indirect && !strings.Contains(s, "(") {
		o.Kind = isa.KindLabel
		labelTarget(&o, s)
		return o, nil
	}
	o.Kind = isa.KindMem
	if sm := segRE.FindString(s); sm != "" {
		o.Mem.Segment = strings.ToLower(strings.Trim(sm, "%:"))
		s = s[len(sm):]
	}
	disp, regs := s, ""
	if i := strings.IndexByte(s, '('); i >= 0 {
		if !strings.HasSuffix(s, ")") {
			return o, fmt.Errorf("unbalanced ( ) in %q", s)
		}
		disp, regs = s[:i], s[i+1:len(s)-1]
	}
	if err := addressTerms(&o.Mem, disp, false); err != nil {
		return o, err
	}
	if regs != "" {
		parts := strings.Split(regs, ",")
		if len(parts) > 3 {
			return o, fmt.Errorf("bad address %q", s)
		}
		name := func(p string) (string, error) {
			p = strings.ToLower(strings.TrimSpace(p))
			if p == "" {
				return "", nil
			}
			if !strings.HasPrefix(p, "%") || !(lookupReg(p[1:]) || p == "%rip" || p == "%eip") {
				return "", fmt.Errorf("bad register %q in address", p)
			}
			return p[1:], nil
		}
		if o.Mem.Base, err = name(parts[0]); err != nil {
			return o, err
		}
		if len(parts) > 1 {
			if o.Mem.Index, err = name(parts[1]); err != nil {
				return o, err
			}
			o.Mem.Scale = 1
			if len(parts) == 3 && strings.TrimSpace(parts[2]) != "" {
				n, err := strconv.Atoi(strings.TrimSpace(parts[2]))
				if err != nil {
					return o, fmt.Errorf("bad scale in %q", s)
				}
				o.Mem.Scale = n
			}
			if o.Mem.Index == "" {
				o.Mem.Scale = 0
			}
		}
	}
	return o, nil
}
