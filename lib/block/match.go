package block

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/isa"
)

// Forms is the table of instruction forms that Parse matches instructions
// against, indexed by prefix and mnemonic.
type Forms struct {
	byName map[string][]entry
	n      int
}

// entry is a form with what matching needs of it precomputed.
type entry struct {
	f     isa.Form
	ex    []isa.Operand // the explicit operands; a mask follows the operand it masks
	moffs bool
}

// NewForms returns a table of the given x86-64 forms. A form whose key
// repeats an earlier one is left out.
func NewForms(forms []isa.Form) *Forms {
	t := &Forms{byName: map[string][]entry{}}
	seen := map[string]bool{}
	for _, f := range forms {
		if f.ISA != isa.X86 || seen[f.Key()] {
			continue
		}
		seen[f.Key()] = true
		name := f.Mnemonic
		if f.Prefix != "" {
			name = f.Prefix + " " + name
		}
		t.byName[name] = append(t.byName[name], entry{f, f.Explicit(), moffs(f)})
		t.n++
	}
	return t
}

// Len returns the number of forms in t.
func (t *Forms) Len() int { return t.n }

// HasMnemonic reports whether t holds a form of mnemonic m (lower case,
// without prefix).
func (t *Forms) HasMnemonic(m string) bool {
	_, ok := t.byName[strings.ToLower(m)]
	return ok
}

var (
	defaultOnce  sync.Once
	defaultForms *Forms
	defaultErr   error
)

// DefaultForms returns the table Parse, ParseFile, DecodeHex and
// ReadBHiveCSV use: the 3,501 x86-64 schemes of the uops.info extract
// (iwho; Abel & Reineke, ASPLOS 2019), loaded through package dataset
// (a local data directory, else the download cache, else a download),
// followed by isa.X86Forms (which adds the AVX-512 forms uops.info's
// extract lacks). A uops.info form's Extension and Category are those of
// its first encoding variant in the extract ("AVX2", "BINARY"). It fails when the uops.info extract cannot be loaded,
// rather than silently classifying fewer instructions.
func DefaultForms() (*Forms, error) {
	defaultOnce.Do(func() {
		schemes, err := dataset.UopsInfoSchemes()
		if err != nil {
			defaultErr = fmt.Errorf("block: the uops.info instruction forms: %w", err)
			return
		}
		var forms []isa.Form
		for _, s := range schemes {
			f, err := isa.ParseScheme(s.Name)
			if err != nil {
				defaultErr = fmt.Errorf("block: uops.info scheme %q: %w", s.Name, err)
				return
			}
			if len(s.Variants) > 0 {
				f.Extension, f.Category = s.Variants[0].Extension, s.Variants[0].Category
			}
			forms = append(forms, f)
		}
		defaultForms = NewForms(append(forms, isa.X86Forms()...))
	})
	return defaultForms, defaultErr
}

// condAlias maps the condition-code aliases of jcc, setcc and cmovcc to
// the names uops.info uses.
var condAlias = map[string]string{
	"z": "e", "nz": "ne", "c": "b", "nae": "b", "nc": "ae", "nb": "ae", "na": "be", "nbe": "a",
	"pe": "p", "po": "np", "nge": "l", "nl": "ge", "ng": "le", "nle": "g",
}

// attAlias maps AT&T-only mnemonics to Intel ones, with the width of the
// source operand the AT&T name implies (0: none).
var attAlias = map[string]struct {
	m     string
	width int
}{
	"cltq": {"cdqe", 0}, "cqto": {"cqo", 0}, "cltd": {"cdq", 0}, "cwtl": {"cwde", 0}, "cbtw": {"cbw", 0}, "cwtd": {"cwd", 0},
	"movzbw": {"movzx", 8}, "movzbl": {"movzx", 8}, "movzbq": {"movzx", 8}, "movzwl": {"movzx", 16}, "movzwq": {"movzx", 16},
	"movsbw": {"movsx", 8}, "movsbl": {"movsx", 8}, "movsbq": {"movsx", 8}, "movswl": {"movsx", 16}, "movswq": {"movsx", 16},
	"movslq": {"movsxd", 32}, "movabsq": {"movabs", 0},
	"retq": {"ret", 0}, "callq": {"call", 0}, "jmpq": {"jmp", 0},
	"movsl": {"movsd", 0}, "stosl": {"stosd", 0}, "lodsl": {"lodsd", 0}, "scasl": {"scasd", 0}, "cmpsl": {"cmpsd", 0},
}

// canonical returns the uops.info name of a mnemonic: condition-code
// aliases resolved (jz → je, cmovnb → cmovae, setnae → setb), sal → shl.
func canonical(m string) string {
	for _, p := range []string{"j", "set", "cmov"} {
		if strings.HasPrefix(m, p) {
			if c, ok := condAlias[m[len(p):]]; ok {
				return p + c
			}
		}
	}
	if m == "sal" {
		return "shl"
	}
	return m
}

var shiftOps = words("shl shr sar rol ror rcl rcr")

// repMeaning gives the instruction a rep prefix makes of a non-string
// instruction, as compilers emit them: "rep ret" (the ret AMD's branch
// predictors once preferred), "rep bsf" (tzcnt on CPUs with BMI1, which
// gcc emits for __builtin_ctz) and "rep nop" (pause). Any other rep
// prefix on a non-string instruction is not understood.
var repMeaning = map[string]string{"rep ret": "ret", "rep bsf": "tzcnt", "rep nop": "pause"}

// stringOps are the string instructions, whose objdump spelling ("stos
// QWORD PTR es:[rdi],rax") lacks the size letter of the uops.info name.
var stringOps = words("movs stos lods cmps scas")

// cmpPredicates are the comparison predicates of cmpps and its kin, by
// their immediate (Intel SDM, CMPPS: the pseudo-ops): the legacy-SSE
// instructions take the first 8, the VEX ones all 32.
var cmpPredicates = strings.Fields("eq lt le unord neq nlt nle ord eq_uq nge ngt false neq_oq ge gt true " +
	"eq_os lt_oq le_oq unord_s neq_us nlt_uq nle_uq ord_s eq_us nge_uq ngt_uq false_os neq_os ge_oq gt_oq true_us")

// cmpPredicate reads a comparison pseudo-op as objdump and GNU as write
// it (cmpltps, vcmpneq_oqpd): the instruction and the immediate.
func cmpPredicate(mnem string) (string, int64, bool) {
	vex := strings.HasPrefix(mnem, "v")
	rest := strings.TrimPrefix(mnem, "v")
	if !strings.HasPrefix(rest, "cmp") || len(rest) < 6 {
		return "", 0, false
	}
	suffix := rest[len(rest)-2:]
	if suffix != "ps" && suffix != "pd" && suffix != "ss" && suffix != "sd" {
		return "", 0, false
	}
	pred := rest[3 : len(rest)-2]
	n := 8
	if vex {
		n = len(cmpPredicates)
	}
	for i, p := range cmpPredicates[:n] {
		if p == pred {
			return strings.TrimSuffix(mnem, pred+suffix) + suffix, int64(i), true
		}
	}
	return "", 0, false
}

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// attempt is one reading of an instruction to match against forms.
type attempt struct {
	name string // prefix + mnemonic
	ops  []Operand
	hint int // width in bits of memory operands whose width the text does not give
	// moffs selects the movabs forms between the accumulator and an
	// absolute address (and excludes them otherwise).
	moffs bool
	// enc is the instruction's encoding, nil when not known.
	enc []byte
}

// match finds the form of an instruction: prefix and mnemonic (canonical
// lower case), operands in Intel order; att reports AT&T syntax, whose
// size suffixes are tried after the mnemonic as written.
func (t *Forms) match(prefix, mnem string, ops []Operand, att bool, enc []byte) (isa.Form, []Operand, error) {
	name := func(m string) string {
		if prefix != "" {
			return prefix + " " + m
		}
		return m
	}
	if canonical(mnem) == "xchg" && len(ops) == 2 && ops[0].Kind == isa.KindReg &&
		(ops[1].Kind == isa.KindMem || (ops[1].Kind == isa.KindReg && isAccumulator(ops[1].Reg))) {
		// xchg is symmetric; the forms put memory and the accumulator first.
		ops = []Operand{ops[1], ops[0]}
	}
	if mnem == "movsx" && len(ops) == 2 && ((ops[1].Kind == isa.KindReg && regWidth(ops[1].Reg) == 32) ||
		(ops[1].Kind == isa.KindMem && ops[1].Mem.Width == 32)) {
		mnem = "movsxd" // GNU as takes movsx for the 32-bit source too
	}
	if m, imm, ok := cmpPredicate(canonical(mnem)); ok {
		// objdump's cmpltps xmm0, xmm1 is cmpps xmm0, xmm1, 1.
		mnem = m
		ops = append(ops[:len(ops):len(ops)], Operand{Kind: isa.KindImm, Imm: imm})
	}
	var tries []attempt
	add := func(m string, ops []Operand, hint int) {
		m = canonical(m)
		if hint == 0 && (m == "push" || m == "pop") {
			hint = 64 // the default operand size of the stack in 64-bit mode
		}
		mo := false
		if m == "movabs" && len(ops) == 2 && (ops[0].Kind == isa.KindMem || ops[1].Kind == isa.KindMem) {
			m, mo = "mov", true // the moffs forms, see moffs
		}
		if shiftOps[m] && len(ops) == 2 && ops[1].Kind == isa.KindImm && ops[1].Symbol == "" && ops[1].Imm == 1 {
			// The assembler encodes a shift by 1 without an immediate.
			tries = append(tries, attempt{name(m), ops[:1], hint, mo, enc})
		}
		tries = append(tries, attempt{name(m), ops, hint, mo, enc})
	}
	if a, ok := attAlias[mnem]; ok {
		// AT&T names that are no Intel mnemonic: cltq, movzbl, movslq.
		add(a.m, ops, a.width)
	} else if att {
		add(mnem, ops, 0)
		if n := len(mnem); n > 1 && strings.IndexByte("bwlq", mnem[n-1]) >= 0 {
			add(mnem[:n-1], ops, map[byte]int{'b': 8, 'w': 16, 'l': 32, 'q': 64}[mnem[n-1]])
		}
	} else {
		add(mnem, ops, 0)
	}
	if canonical(mnem) == "mov" {
		// A 64-bit immediate beyond 32 bits: GNU as encodes movabs.
		add("movabs", ops, 0)
		tries[len(tries)-1].moffs = false
	}
	if stringOps[mnem] {
		// objdump's "stos QWORD PTR es:[rdi],rax" and "stos %rax,%es:(%rdi)":
		// the size letter from the memory operand or the register.
		w := 0
		for _, o := range ops {
			if o.Kind == isa.KindMem && o.Mem.Width > 0 {
				w = o.Mem.Width
			}
		}
		for _, o := range ops {
			if r, ok := isa.LookupRegister(isa.X86, o.Reg); ok && o.Kind == isa.KindReg && w == 0 {
				w = r.Width
			}
		}
		if letter, ok := map[int]string{8: "b", 16: "w", 32: "d", 64: "q"}[w]; ok {
			add(mnem+letter, ops, w)
		}
	}
	var lastErr error
	for _, a := range tries {
		forms := t.byName[a.name]
		if r, ok := repMeaning[a.name]; ok && len(forms) == 0 {
			forms = t.byName[r]
		}
		if len(forms) == 0 {
			continue
		}
		f, err := pick(forms, a)
		if err == nil {
			ops := a.ops
			if ex := f.Explicit(); len(ops) == len(ex)-1 && len(ops) > 0 && implicitXMM0(ex[len(ex)-1]) {
				ops = append(ops[:len(ops):len(ops)], Operand{Kind: isa.KindReg, Reg: "xmm0"})
			}
			return f, ops, nil
		}
		if lastErr == nil {
			lastErr = err // the first reading's reason
		}
	}
	if lastErr != nil {
		return isa.Form{}, nil, lastErr
	}
	return isa.Form{}, nil, fmt.Errorf("unknown mnemonic %q", name(mnem))
}

// score ranks a form that matches: the assembler's choice is the form with
// an immediate 0 where uops.info lists one (xor eax, 0 is "xor RW:GPR:32,
// 0x0"), then the shortest immediate, then the most specific registers
// (the accumulator forms "add RW:rax, IMM(32)", the VEX range XMM0..15
// before the EVEX XMM0..31).
type score struct {
	zeroImm, immWidth, regChoices int
}

func (s score) less(o score) bool {
	if s.zeroImm != o.zeroImm {
		return s.zeroImm > o.zeroImm
	}
	if s.immWidth != o.immWidth {
		return s.immWidth < o.immWidth
	}
	return s.regChoices < o.regChoices
}

// pick returns the best-ranked form of forms that a's operands match.
func pick(forms []entry, a attempt) (isa.Form, error) {
	type cand struct {
		f isa.Form
		s score
	}
	var cands []cand
	for _, e := range forms {
		if e.moffs != a.moffs || !shortFormEncoded(a.enc, e) {
			continue
		}
		if s, ok := matchForm(e, a); ok {
			cands = append(cands, cand{e.f, s})
		}
	}
	if len(cands) == 0 {
		var ops []string
		for _, o := range a.ops {
			ops = append(ops, describe(o))
		}
		return isa.Form{}, fmt.Errorf("no form of %q takes operands (%s)", a.name, strings.Join(ops, ", "))
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].s.less(cands[j].s) })
	best := cands[0]
	var tied []string
	for _, c := range cands[1:] {
		if !best.s.less(c.s) {
			tied = append(tied, c.f.Key())
		}
	}
	if len(tied) > 0 {
		return isa.Form{}, fmt.Errorf("ambiguous: matches %q and %q (give the operand size, e.g. QWORD PTR or an AT&T suffix)",
			best.f.Key(), strings.Join(tied, `", "`))
	}
	return best.f, nil
}

// moffs reports whether f is a mov between the accumulator and an
// absolute 64-bit address (movabs in GNU syntax).
func moffs(f isa.Form) bool {
	if f.Mnemonic != "mov" {
		return false
	}
	reg, mem := false, false
	for _, o := range f.Explicit() {
		reg = reg || (o.Kind == isa.KindReg && o.Fixed != "")
		mem = mem || o.Kind == isa.KindMem
	}
	return reg && mem
}

// describe names the kind of a concrete operand for error messages.
func describe(o Operand) string {
	switch o.Kind {
	case isa.KindReg:
		return o.Reg
	case isa.KindMem:
		if o.Mem.Width > 0 {
			return strconv.Itoa(o.Mem.Width) + "-bit memory"
		}
		return "memory of unknown size"
	case isa.KindImm:
		return "immediate"
	case isa.KindLabel:
		return "label"
	}
	return "?"
}

// matchForm reports whether the operands of a fit form f, and how well.
func matchForm(e entry, a attempt) (score, bool) {
	var s score
	f, fops := e.f, e.ex
	ops := a.ops
	if len(ops) == 0 && len(fops) > 0 {
		// "stosq", "movsb": the string instructions' operands are fixed.
		for _, o := range fops {
			if o.Fixed == "" {
				return s, false
			}
		}
		return s, true
	}
	width := opWidth(f)
	i := 0
	for _, c := range ops {
		if i >= len(fops) {
			return s, false
		}
		o := fops[i]
		i++
		var hasMask bool
		var mask isa.Operand
		if i < len(fops) && fops[i].Mask {
			hasMask, mask = true, fops[i]
			i++
		}
		if (c.Mask != "") != hasMask || (hasMask && (c.Zeroing != mask.Zeroing || !regFits(mask, c.Mask, &s))) {
			return s, false
		}
		switch o.Kind {
		case isa.KindReg:
			if c.Kind != isa.KindReg || !regFits(o, c.Reg, &s) {
				return s, false
			}
		case isa.KindMem:
			if c.Kind != isa.KindMem || !memFits(o, c, a.hint) {
				return s, false
			}
		case isa.KindImm:
			if c.Kind != isa.KindImm {
				return s, false
			}
			if o.Fixed != "" {
				v, err := strconv.ParseInt(o.Fixed, 0, 64)
				if err != nil || c.Symbol != "" || c.Imm != v {
					return s, false
				}
				s.zeroImm++
				continue
			}
			if !immFits(c, o.Width, width) || !encodedAs(a.enc, c, o.Width, f) {
				return s, false
			}
			s.immWidth += o.Width
		case isa.KindLabel:
			if c.Kind != isa.KindLabel {
				return s, false
			}
		default:
			return s, false
		}
	}
	if i == len(fops)-1 && len(ops) > 0 && implicitXMM0(fops[i]) {
		i++ // "blendvps xmm1, xmm2": GNU as lets xmm0 be left out
	}
	return s, i == len(fops)
}

// implicitXMM0 reports whether o is the hardwired xmm0 of the legacy-SSE
// blendv and sha256rnds2, which assembly may leave out.
func implicitXMM0(o isa.Operand) bool {
	return o.Kind == isa.KindReg && o.Fixed == "xmm0"
}

// opWidth is the operation width of f: the width of its first explicit
// operand, register or memory (for sign-extending immediates).
func opWidth(f isa.Form) int {
	for _, o := range f.Operands {
		if o.Kind == isa.KindReg || o.Kind == isa.KindMem {
			return o.Width
		}
	}
	return 64
}

func regFits(o isa.Operand, name string, s *score) bool {
	r, ok := isa.LookupRegister(isa.X86, name)
	if !ok || r.Class != o.Class || r.Width != o.Width {
		return false
	}
	switch {
	case o.Fixed != "":
		if o.Fixed != name {
			return false
		}
		s.regChoices++
		return true
	case len(o.Regs) > 0:
		for _, x := range o.Regs {
			if x == name {
				s.regChoices += len(o.Regs)
				return true
			}
		}
		return false
	}
	if o.Class == isa.XMM || o.Class == isa.YMM || o.Class == isa.ZMM || o.Class == isa.K {
		lo, hi := o.Range.Lo, o.Range.Hi
		if o.Range == (isa.RegRange{}) {
			lo, hi = 0, 15
			if o.Class == isa.ZMM {
				hi = 31
			} else if o.Class == isa.K {
				hi = 7
			}
		}
		if r.Number < lo || r.Number > hi {
			return false
		}
		s.regChoices += hi - lo + 1
		return true
	}
	s.regChoices += 16
	return true
}

func memFits(o isa.Operand, c Operand, hint int) bool {
	m := c.Mem
	if o.Fixed != "" {
		// "es:[rdi]", "[rsi]": the address register is fixed.
		body := o.Fixed[strings.IndexByte(o.Fixed, '[')+1 : len(o.Fixed)-1]
		if m.Base != body || m.Index != "" || m.Disp != 0 || m.Symbol != "" {
			return false
		}
	}
	if (c.Broadcast != 0) != (o.Broadcast != 0) || (c.Broadcast > 0 && c.Broadcast != o.Broadcast) {
		return false
	}
	want := o.Width
	if o.Ptr != "" {
		want = ptrBits[o.Ptr]
	}
	if o.Width == 0 && o.Access == 0 {
		return true // lea's address
	}
	w := m.Width
	if w == 0 {
		w = hint
	}
	return w == 0 || w == want
}

var ptrBits = map[string]int{
	"byte": 8, "word": 16, "dword": 32, "qword": 64, "tbyte": 80,
	"xmmword": 128, "ymmword": 256, "zmmword": 512,
}

// immFits reports whether immediate c can be encoded in width bits for
// an operation of opWidth bits: as a signed value after truncation to the
// operation width (objdump prints the 64-bit and the 32-bit -16 as
// 0xfffffffffffffff0 and 0xfffffff0), or unsigned when the immediate is as
// wide as the operation. Symbolic immediates are 32-bit addresses.
func immFits(c Operand, width, opWidth int) bool {
	if c.Symbol != "" {
		return width >= 32
	}
	v := c.Imm
	if opWidth > 64 {
		// Vector operations take their imm8 (a shuffle control, a
		// rounding mode) unsigned or signed, never sign-extended.
		return width >= 64 || (v >= int64(-1)<<(width-1) && v < int64(1)<<width)
	}
	if opWidth > 0 && opWidth < 64 {
		if v < -(1<<(opWidth-1)) || (v > 0 && uint64(v) >= 1<<opWidth) {
			return false // does not fit the operation at all
		}
		if u := uint64(v) & (1<<opWidth - 1); u>>(opWidth-1) != 0 {
			v = int64(u) - 1<<opWidth
		} else {
			v = int64(u)
		}
	}
	if width >= 64 || width >= opWidth {
		return true
	}
	return v >= int64(-1)<<(width-1) && v <= int64(1)<<(width-1)-1
}

// encodedAs reports whether encoding enc (nil: unknown) can hold
// immediate c in width bits: the immediate is the last field of an x86
// instruction, so its last width/8 bytes must be the low bits of c's
// value (immFits has checked that the value fits). Forms with more than
// one immediate (enter) are not checked.
func encodedAs(enc []byte, c Operand, width int, f isa.Form) bool {
	n := 0
	for _, o := range f.Operands {
		if o.Kind == isa.KindImm {
			n++
		}
	}
	k := width / 8
	if enc == nil || c.Symbol != "" || n != 1 || k == 0 || k > 8 || len(enc) < k+1 {
		return true
	}
	var u uint64
	for i := 0; i < k; i++ {
		u |= uint64(enc[len(enc)-k+i]) << (8 * i)
	}
	mask := ^uint64(0)
	if width < 64 {
		mask = 1<<width - 1
	}
	return (uint64(c.Imm)^u)&mask == 0
}

// accOpcodes are the opcodes of the accumulator forms with an immediate
// (add al, imm8 … cmp rax, imm32, test al/rax): no ModRM byte follows
// them, while a ModRM byte naming a register is 0xc0 or more.
var accOpcodes = map[byte]bool{0x04: true, 0x05: true, 0x0c: true, 0x0d: true, 0x14: true, 0x15: true,
	0x1c: true, 0x1d: true, 0x24: true, 0x25: true, 0x2c: true, 0x2d: true, 0x34: true, 0x35: true,
	0x3c: true, 0x3d: true, 0xa8: true, 0xa9: true}

// shortFormEncoded reports whether encoding enc (nil: unknown) fits a
// form with a hardwired accumulator ("add RW:rax, IMM(32)", "xchg RW:rax,
// RW:GPR:64"), whose short encoding the assembler prefers but a decoded
// instruction need not have: the byte before the immediate must be an
// accumulator opcode, and xchg must be one byte 0x90+r.
func shortFormEncoded(enc []byte, e entry) bool {
	f := e.f
	if enc == nil || f.Mnemonic == "mov" {
		return true
	}
	acc, accWidth, immBytes := false, 0, -1
	for _, o := range e.ex {
		switch {
		case o.Kind == isa.KindMem && o.Fixed != "":
			return true // a string instruction
		case o.Kind == isa.KindReg && o.Class == isa.GPR && o.Fixed != "" && o.Fixed != "cl" && o.Fixed != "dx":
			acc, accWidth = true, o.Width
		case o.Kind == isa.KindImm && o.Fixed == "":
			immBytes = o.Width / 8
		case o.Kind == isa.KindImm && accWidth == 8:
			immBytes = 1 // "cmp R:al, 0x0"
		}
	}
	switch {
	case !acc:
		return true
	case f.Mnemonic == "xchg":
		return enc[len(enc)-1]&^7 == 0x90
	case immBytes > 0 && len(enc) > immBytes:
		return accOpcodes[enc[len(enc)-immBytes-1]]
	}
	return true
}

func isAccumulator(reg string) bool { return reg == "rax" || reg == "eax" || reg == "ax" }

func regWidth(name string) int {
	r, _ := isa.LookupRegister(isa.X86, name)
	return r.Width
}
