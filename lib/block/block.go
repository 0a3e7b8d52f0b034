package block

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/portmap"
)

// Syntax is the assembly syntax of a block's text.
type Syntax int

// The syntaxes Parse reads. Auto picks Intel or ATT per line: a
// ".intel_syntax" or ".att_syntax" directive switches, and without one a
// line whose operands name registers with '%' is AT&T, any other Intel.
const (
	Auto Syntax = iota
	Intel
	ATT
)

// String returns "auto", "intel" or "att".
func (s Syntax) String() string {
	switch s {
	case Auto:
		return "auto"
	case Intel:
		return "intel"
	case ATT:
		return "att"
	}
	return "Syntax(" + strconv.Itoa(int(s)) + ")"
}

// Block is a basic block or a loop body: its instructions in program
// order, each matched to its instruction form.
type Block struct {
	// Insns are the instructions; labels, directives, comments and blank
	// lines are not instructions.
	Insns []Insn
	// labels maps the labels of the source text to the index of the
	// instruction that follows them.
	labels map[string]int
	// Source names where the block came from: the file of ParseFile,
	// "hex" for DecodeHex, "BHive CSV line 12" for ReadBHiveCSV, empty for
	// Parse.
	Source string
}

// Insn is one instruction of a block.
type Insn struct {
	// Line is the 1-based line of the instruction in its source text (for
	// decoded hex: the instruction's 1-based position in the block).
	Line int
	// Text is the instruction as written, without address and encoding
	// columns and comments.
	Text string
	// Form is the instruction form it matched (see Forms.Match).
	Form isa.Form
	// Operands are the explicit operands in Intel order (destination
	// first), AT&T operands reversed.
	Operands []Operand
	// Reads and Writes are the locations the instruction reads and
	// writes: registers by their widest alias ("rax" for al, "zmm1" for
	// xmm1), "flags", and memory. An address register counts as read. A
	// write that leaves part of the register unchanged (8- and 16-bit
	// general-purpose registers, legacy-SSE scalar operations, cmov, merge
	// masking) also reads it; a 32-bit write zeroes the upper half and
	// reads nothing, and so does a VEX write of an XMM register. A
	// legacy-SSE write of a whole XMM register counts as a full write too,
	// as cores track the upper lanes apart instead of merging.
	Reads, Writes []Location
	// ZeroIdiom marks an instruction that sets its destination to zero
	// whatever its sources hold (xor eax, eax; sub rax, rax; pxor xmm0,
	// xmm0; vxorps ymm1, ymm1, ymm1): it reads no register.
	ZeroIdiom bool
	// DepBreaking marks an instruction whose result does not depend on
	// its sources: the zero idioms and the all-ones idiom pcmpeqX x, x
	// (Intel 64 and IA-32 Architectures Optimization Reference Manual,
	// "Clearing Registers and Dependency Breaking Idioms").
	DepBreaking bool
	// Branch marks a jump (conditional or not); call and ret are not
	// branches in this sense.
	Branch bool
	// Addr is the instruction's address in an objdump listing or decoded
	// hex, -1 when the source has none.
	Addr int64
	// Encoding holds the instruction's bytes when the source gives them
	// (objdump listings, hex). They decide between forms that differ only
	// in the width of the immediate (add rax, 16 as IMM(8) or IMM(32)).
	Encoding []byte
}

// Operand is a concrete operand of an instruction.
type Operand struct {
	Kind isa.Kind
	// Reg is the register name (lower case) of a register operand.
	Reg string
	// Mem is the memory reference of a memory operand.
	Mem MemRef
	// Imm is the value of a numeric immediate, or the target address of a
	// branch when HasAddr is set (objdump's "jne 401000 <f+0x10>");
	// Symbol names the symbol of a symbolic immediate ("OFFSET
	// FLAT:.LC0", "$.LC0") or the target of a branch ("f+0x10", ".L3").
	Imm     int64
	HasAddr bool
	Symbol  string
	// Mask is the AVX-512 write-mask register ("k1") of the operand,
	// Zeroing its {z}; Broadcast the N of a memory operand's {1toN}.
	Mask      string
	Zeroing   bool
	Broadcast int
}

// MemRef is a memory reference: Segment:Symbol+Disp[Base+Index*Scale],
// accessing Width bits (0 when the text does not say and no form was
// matched yet).
type MemRef struct {
	Segment, Base, Index string
	Scale                int
	Disp                 int64
	Symbol               string
	Width                int
}

// String returns r in GNU Intel syntax without the size keyword:
// "[rdi+rax*8+16]", "fs:[40]", ".LC0[rip]", "counter+8".
func (r MemRef) String() string {
	var b strings.Builder
	if r.Segment != "" {
		b.WriteString(r.Segment + ":")
	}
	b.WriteString(r.Symbol)
	if r.Symbol != "" && r.Base == "" && r.Index == "" {
		if r.Disp != 0 {
			fmt.Fprintf(&b, "%+d", r.Disp)
		}
		return b.String()
	}
	b.WriteByte('[')
	sep := ""
	if r.Base != "" {
		b.WriteString(r.Base)
		sep = "+"
	}
	if r.Index != "" {
		fmt.Fprintf(&b, "%s%s*%d", sep, r.Index, r.Scale)
		sep = "+"
	}
	switch {
	case r.Disp < 0:
		fmt.Fprintf(&b, "-%d", -r.Disp)
	case r.Disp > 0 || sep == "":
		fmt.Fprintf(&b, "%s%d", sep, r.Disp)
	}
	b.WriteByte(']')
	return b.String()
}

// String returns o in Intel syntax, with its size keyword and AVX-512
// decorations.
func (o Operand) String() string {
	var s string
	switch o.Kind {
	case isa.KindReg:
		s = o.Reg
	case isa.KindMem:
		s = o.Mem.String()
		if kw := isa.PtrKeyword(o.Mem.Width); kw != "" && o.Broadcast == 0 {
			s = kw + " ptr " + s
		}
		if o.Broadcast > 0 {
			s += fmt.Sprintf("{1to%d}", o.Broadcast)
		}
	case isa.KindImm:
		if o.Symbol != "" {
			s = o.Symbol
		} else {
			s = strconv.FormatInt(o.Imm, 10)
		}
	case isa.KindLabel:
		s = o.Symbol
	}
	if o.Mask != "" {
		s += "{" + o.Mask + "}"
	}
	if o.Zeroing {
		s += "{z}"
	}
	return s
}

// LocKind is what a Location is.
type LocKind int

// The location kinds.
const (
	Reg LocKind = iota + 1
	Flags
	Mem
)

// String returns "reg", "flags" or "mem".
func (k LocKind) String() string {
	switch k {
	case Reg:
		return "reg"
	case Flags:
		return "flags"
	case Mem:
		return "mem"
	}
	return "LocKind(" + strconv.Itoa(int(k)) + ")"
}

// Location is a register, the flags or a memory access.
type Location struct {
	Kind LocKind
	// Name is the register's widest alias ("rax", "zmm3"), "flags", or
	// the memory reference in Intel syntax with its size.
	Name string
	// Mem is the memory reference of a Mem location. Stack is set for the
	// implicit stack accesses of push, pop, call and ret, whose address
	// Mem does not give.
	Mem   MemRef
	Stack bool
}

// String returns the location's Name.
func (l Location) String() string { return l.Name }

// String lists the block one instruction a line: line number, text, and
// the matched form's key.
func (b *Block) String() string {
	var sb strings.Builder
	for _, in := range b.Insns {
		fmt.Fprintf(&sb, "%4d  %-40s %s", in.Line, in.Text, in.Form.Key())
		if in.ZeroIdiom {
			sb.WriteString("  (zero idiom)")
		} else if in.DepBreaking {
			sb.WriteString("  (dependency-breaking idiom)")
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// Experiment returns the block's instructions as a multiset of form keys,
// the instruction names of port mappings: with a mapping such as
// dataset.UopsInfo("SKL"), throughput.Bottleneck gives the cycles per
// iteration that the ports alone allow, before dependencies.
func (b *Block) Experiment() portmap.Experiment {
	keys := make([]string, len(b.Insns))
	for i, in := range b.Insns {
		keys[i] = in.Form.Key()
	}
	return portmap.NewExperiment(keys...)
}

// IsLoop reports whether the block is a loop body: it ends with a jump
// (Parse keeps it as the loop branch) back to its first instruction. A
// target the block does not locate (a label it does not define, an
// address outside it) is taken as the loop head; a target inside the
// block other than its start is not.
func (b *Block) IsLoop() bool {
	if len(b.Insns) == 0 || !b.Insns[len(b.Insns)-1].Branch {
		return false
	}
	last := b.Insns[len(b.Insns)-1]
	if len(last.Operands) != 1 || last.Operands[0].Kind != isa.KindLabel {
		return true // jmp rax: the target is not known
	}
	t := last.Operands[0]
	if i, ok := b.labels[t.Symbol]; ok {
		return i == 0
	}
	if t.HasAddr {
		for i, in := range b.Insns {
			if in.Addr == t.Imm {
				return i == 0
			}
		}
	}
	return true
}

// LineError is one line that could not be read or classified.
type LineError struct {
	Line   int    // 1-based
	Column int    // 1-based, 0 when not known
	Text   string // the line's text
	Msg    string
}

// String returns "line:column: message: \"text\"".
func (e LineError) String() string {
	pos := strconv.Itoa(e.Line)
	if e.Column > 0 {
		pos += ":" + strconv.Itoa(e.Column)
	}
	return fmt.Sprintf("%s: %s: %q", pos, e.Msg, e.Text)
}

// ParseError lists every line of a source that Parse, DecodeHex or
// ReadBHiveCSV could not read or could not match to an instruction form,
// so that all of them are seen at once.
type ParseError struct {
	Source string
	Lines  []LineError
}

// Error lists every bad line, one a line, after a count.
func (e *ParseError) Error() string {
	var b strings.Builder
	src := e.Source
	if src == "" {
		src = "input"
	}
	fmt.Fprintf(&b, "block: %s: %d line", src, len(e.Lines))
	if len(e.Lines) != 1 {
		b.WriteByte('s')
	}
	b.WriteString(" not understood")
	for _, l := range e.Lines {
		b.WriteString("\n\t" + src + ":" + l.String())
	}
	return b.String()
}
