package measure

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/isa"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// Blocks measures basic blocks and loop bodies as written, the way BHive
// does (Chen et al., IISWC 2019, §III): registers are initialised so that
// every memory operand lands in the worker's buffer, the block is
// unrolled, and the loop of unrolled copies is timed in its steady state
// like any kernel (Timer, Hardware's passes, Campaign's journal). Each
// block is an experiment of one instruction, its name (BlockName), so
// that a campaign journals and resumes blocks as it does experiments.
//
// A block the harness cannot run with every access inside the buffer is
// not measurable, and its experiment fails with the reason, before any
// code runs: it calls or returns, branches other than at its end,
// addresses memory through rip, a segment, a symbol, without a base or
// through a 32-bit register, or uses an address register that holds
// what the block computed — the harness follows the range of values of
// every address register through the unrolled copies, knowing
// additions of constants (add, sub, inc, dec, lea reg, [reg+disp], push,
// pop), copies (mov reg, reg) and values it can bound (zero idioms,
// mov reg, imm, and reg, imm) — or its accesses leave the buffer. A block
// that faults when run all the same fails with the signal. The loop's
// own branch at the end of a block is left out (the harness loops), and
// so is any other final jump. Base registers, the stack pointer
// included, start in the middle of the buffer, index registers at 0;
// address registers the block moves on are put back after the unrolled
// copies (one instruction each), the only instructions the harness adds
// besides its loop counter. Every other register holds the buffer's
// benign pattern (see Assemble). A block that uses r14 or r15, which the
// harness reserves, has them renamed to a numbered register it does not
// use.
type Blocks struct {
	// BodySize is the number of instructions to unroll to (default: 100).
	BodySize int

	mu     sync.Mutex
	blocks map[string]*block.Block
}

// NewBlocks returns an empty set of blocks to measure.
func NewBlocks() *Blocks { return &Blocks{blocks: map[string]*block.Block{}} }

// blockPrefix starts the instruction name of a block experiment.
const blockPrefix = "block: "

// BlockName returns the name of b's experiment: "block: " and its
// instructions as written, separated by "; ".
func BlockName(b *block.Block) string {
	lines := make([]string, len(b.Insns))
	for i, in := range b.Insns {
		lines[i] = strings.Join(strings.Fields(in.Text), " ")
	}
	return blockPrefix + strings.Join(lines, "; ")
}

// Add makes b measurable and returns its experiment.
func (s *Blocks) Add(b *block.Block) portmap.Experiment {
	name := BlockName(b)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.blocks[name] = b
	return portmap.NewExperiment(name)
}

// Kernel builds the kernel of a block experiment (set it as
// Hardware.Kernels): the block unrolled, with the set-up of its address
// registers. It returns the number of copies of the block in the body.
func (s *Blocks) Kernel(e portmap.Experiment) (Kernel, int, error) {
	items := e.Items()
	if len(items) != 1 || items[0].Count != 1 {
		return Kernel{}, 0, fmt.Errorf("measure: %v is no block experiment", e)
	}
	s.mu.Lock()
	b, ok := s.blocks[items[0].Insn]
	s.mu.Unlock()
	if !ok {
		return Kernel{}, 0, fmt.Errorf("measure: %q: no such block was added", items[0].Insn)
	}
	size := s.BodySize
	if size <= 0 {
		size = 100
	}
	k, copies, err := BlockKernel(b, size)
	if err != nil {
		return Kernel{}, 0, err
	}
	k.Name = items[0].Insn
	return k, copies, nil
}

// NotMeasurableError says why a block cannot be run in the harness.
type NotMeasurableError struct {
	Line   int // the instruction's line, 0 for the whole block
	Reason string
}

func (e *NotMeasurableError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("measure: block not measurable: line %d: %s", e.Line, e.Reason)
	}
	return "measure: block not measurable: " + e.Reason
}

// blockBase is where base registers point, the stack pointer included:
// the middle of the buffer.
const blockBase = BufferSize / 2

// The first harnessBytes of the buffer are the harness's: the caller's
// stack pointer is kept at stackSave while a block's stack is in the
// buffer. Blocks access the rest.
const (
	harnessBytes = 4096
	stackSave    = 128
)

// BlockKernel returns the kernel that runs b as written (see Blocks),
// unrolled to about size instructions, and the number of copies; a
// *NotMeasurableError when the harness cannot run it inside its buffer.
func BlockKernel(b *block.Block, size int) (Kernel, int, error) {
	insns := b.Insns
	if n := len(insns); n > 0 && insns[n-1].Branch {
		insns = insns[:n-1] // the loop's branch: the harness loops
	}
	if len(insns) == 0 {
		return Kernel{}, 0, &NotMeasurableError{Reason: "no instructions (besides a final jump)"}
	}
	used := map[string]bool{}
	for _, in := range insns {
		for _, l := range append(append([]block.Location(nil), in.Reads...), in.Writes...) {
			if l.Kind == block.Reg {
				used[l.Name] = true
			}
			if l.Stack && in.Form.Mnemonic != "push" && in.Form.Mnemonic != "pop" {
				return Kernel{}, 0, &NotMeasurableError{in.Line, fmt.Sprintf("%q uses the stack other than by push and pop", in.Text)}
			}
		}
	}
	// r14 and r15 belong to the harness: rename them.
	rename := map[string]string{}
	for _, r := range []string{"r14", "r15"} {
		if !used[r] {
			continue
		}
		for _, c := range []string{"r8", "r9", "r10", "r11", "r12", "r13"} {
			if !used[c] && !taken(rename, c) {
				rename[r] = c
				break
			}
		}
		if rename[r] == "" {
			return Kernel{}, 0, &NotMeasurableError{Reason: "it uses r14 or r15, which the harness reserves, and every register they could be renamed to"}
		}
	}
	// Address registers, and how far the block moves each on.
	base, index := map[string]bool{}, map[string]bool{}
	for _, in := range insns {
		if in.Branch {
			return Kernel{}, 0, &NotMeasurableError{in.Line, fmt.Sprintf("%q: a jump inside the block", in.Text)}
		}
		switch in.Form.Mnemonic {
		case "call", "ret", "syscall", "int", "leave", "enter":
			return Kernel{}, 0, &NotMeasurableError{in.Line, fmt.Sprintf("%q leaves the block or uses the stack", in.Text)}
		}
		for _, o := range in.Operands {
			if o.Kind != isa.KindMem || in.Form.Mnemonic == "lea" || isNop(in) {
				continue
			}
			m := o.Mem
			if m.Segment != "" || m.Symbol != "" || m.Base == "rip" || m.Base == "eip" || (m.Base == "" && m.Index == "") {
				return Kernel{}, 0, &NotMeasurableError{in.Line, fmt.Sprintf("%q addresses %s, outside the buffer", in.Text, m)}
			}
			for _, r := range []struct {
				name string
				set  map[string]bool
			}{{m.Base, base}, {m.Index, index}} {
				if r.name == "" {
					continue
				}
				reg, ok := isa.LookupRegister(isa.X86, r.name)
				if !ok || reg.Class != isa.GPR || reg.Width != 64 {
					return Kernel{}, 0, &NotMeasurableError{in.Line, fmt.Sprintf("%q: address register %s is no 64-bit register", in.Text, r.name)}
				}
				r.set[reg.Alias] = true
			}
		}
	}
	if used["rsp"] {
		base["rsp"] = true // the stack lives in the buffer too
	}
	copies := max(1, int(math.Round(float64(size)/float64(len(insns)))))
	// Follow the range of values of every address register through the
	// unrolled copies: every access must stay inside the buffer.
	initial := map[string]span{}
	for r := range index {
		initial[r] = span{}
	}
	for r := range base {
		initial[r] = span{blockBase, blockBase, true}
	}
	val := maps.Clone(initial)
	unknown := map[string]string{} // register → the instruction that made it unknown
	for c := 0; c < copies; c++ {
		for _, in := range insns {
			for _, o := range in.Operands {
				if o.Kind != isa.KindMem || in.Form.Mnemonic == "lea" || isNop(in) {
					continue
				}
				m := o.Mem
				if m.Base == "" {
					return Kernel{}, 0, &NotMeasurableError{in.Line, fmt.Sprintf("%q addresses %s without a base register: not an address in the buffer", in.Text, m)}
				}
				lo, hi := m.Disp, m.Disp
				for k, r := range []struct {
					name  string
					scale int64
				}{{alias(m.Base), 1}, {alias(m.Index), int64(max(m.Scale, 1))}} {
					if r.name == "" {
						continue
					}
					if why, bad := unknown[r.name]; bad {
						return Kernel{}, 0, &NotMeasurableError{in.Line, fmt.Sprintf("%q: address register %s holds what %s computed: the access cannot be kept in the buffer", in.Text, r.name, why)}
					}
					if v := val[r.name]; v.ptr != (k == 0) {
						what := "a number, not an address in the buffer"
						if v.ptr {
							what = "an address, used as an index"
						}
						return Kernel{}, 0, &NotMeasurableError{in.Line, fmt.Sprintf("%q: address register %s holds %s", in.Text, r.name, what)}
					}
					lo += val[r.name].lo * r.scale
					hi += val[r.name].hi * r.scale
				}
				if lo < harnessBytes || hi+64 > BufferSize {
					return Kernel{}, 0, &NotMeasurableError{in.Line, fmt.Sprintf("%q touches memory outside the buffer (offsets %d to %d of %d, unrolled %d times)", in.Text, lo, hi+64, BufferSize, copies)}
				}
			}
			if m := in.Form.Mnemonic; m == "push" || m == "pop" {
				if why, bad := unknown["rsp"]; bad {
					return Kernel{}, 0, &NotMeasurableError{in.Line, fmt.Sprintf("%q: the stack pointer holds what %s computed", in.Text, why)}
				}
				if v := val["rsp"]; !v.ptr || v.lo-8 < harnessBytes || v.hi+8 > BufferSize {
					return Kernel{}, 0, &NotMeasurableError{in.Line, fmt.Sprintf("%q: the stack leaves the buffer", in.Text)}
				}
			}
			for _, w := range in.Writes {
				if _, addr := initial[w.Name]; w.Kind != block.Reg || !addr {
					continue
				}
				if v, ok := step(in, w.Name, val[w.Name]); ok && unknown[w.Name] == "" {
					val[w.Name] = v
				} else if v, ok := copied(in, w.Name, val, unknown); ok {
					val[w.Name] = v
					delete(unknown, w.Name)
				} else if set, ok := setTo(in, w.Name); ok {
					val[w.Name] = set
					delete(unknown, w.Name)
				} else {
					unknown[w.Name] = fmt.Sprintf("line %d (%q)", in.Line, in.Text)
				}
			}
		}
	}
	var init, body, exit []string
	if base["rsp"] {
		init = append(init, fmt.Sprintf("mov [r14+%d], rsp", stackSave))
		exit = append(exit, fmt.Sprintf("mov rsp, [r14+%d]", stackSave))
	}
	for _, r := range sortedKeys(base) {
		init = append(init, fmt.Sprintf("lea %s, [r14+%d]", renamed(rename, r), blockBase))
	}
	for _, r := range sortedKeys(index) {
		if !base[r] {
			init = append(init, fmt.Sprintf("xor %s, %s", renamed32(rename, r), renamed32(rename, r)))
		}
	}
	text := make([]string, len(insns))
	for i, in := range insns {
		text[i] = render(in, rename)
	}
	for c := 0; c < copies; c++ {
		body = append(body, text...)
	}
	for _, r := range sortedKeys(initial) {
		if _, bad := unknown[r]; !bad && val[r] == initial[r] {
			continue
		}
		if base[r] {
			body = append(body, fmt.Sprintf("lea %s, [r14+%d]", renamed(rename, r), blockBase))
		} else {
			body = append(body, fmt.Sprintf("xor %s, %s", renamed32(rename, r), renamed32(rename, r)))
		}
	}
	return Kernel{Body: body, Entry: init, Exit: exit}, copies, nil
}

func isNop(in block.Insn) bool {
	return strings.HasPrefix(in.Form.Mnemonic, "nop") || strings.HasPrefix(in.Form.Mnemonic, "prefetch")
}

func taken(rename map[string]string, r string) bool {
	for _, v := range rename {
		if v == r {
			return true
		}
	}
	return false
}

func alias(name string) string {
	if name == "" {
		return ""
	}
	if r, ok := isa.LookupRegister(isa.X86, name); ok {
		return r.Alias
	}
	return name
}

func renamed(rename map[string]string, r string) string {
	if n, ok := rename[r]; ok {
		return n
	}
	return r
}

// renamed32 returns the 32-bit name of the 64-bit register r, renamed.
func renamed32(rename map[string]string, r string) string {
	r = renamed(rename, r)
	if strings.HasPrefix(r, "r") && r[1] >= '0' && r[1] <= '9' {
		return r + "d"
	}
	return "e" + r[1:]
}

// span is the range of values a register may hold: offsets into the
// buffer when ptr is set, numbers otherwise.
type span struct {
	lo, hi int64
	ptr    bool
}

// step returns the range of values of the register reg after in, from
// v before it, when in adds a constant to it: add/sub reg, imm; inc/dec
// reg; lea reg, [reg+disp].
func step(in block.Insn, reg string, v span) (span, bool) {
	ops := in.Operands
	if m := in.Form.Mnemonic; (m == "push" || m == "pop") && reg == "rsp" {
		ops = []block.Operand{{Kind: isa.KindReg, Reg: "rsp"}}
	}
	if len(ops) == 0 || ops[0].Kind != isa.KindReg || alias(ops[0].Reg) != reg {
		return v, false
	}
	if r, _ := isa.LookupRegister(isa.X86, ops[0].Reg); r.Width != 64 {
		return v, false
	}
	var d int64
	switch m := in.Form.Mnemonic; {
	case (m == "add" || m == "sub") && len(ops) == 2 && ops[1].Kind == isa.KindImm && ops[1].Symbol == "":
		d = ops[1].Imm
		if m == "sub" {
			d = -d
		}
	case m == "push" && reg == "rsp":
		d = -8
	case m == "pop" && reg == "rsp" && (len(in.Operands) != 1 || alias(in.Operands[0].Reg) != "rsp"):
		d = 8
	case m == "inc" && len(ops) == 1:
		d = 1
	case m == "dec" && len(ops) == 1:
		d = -1
	case m == "lea" && len(ops) == 2 && alias(ops[1].Mem.Base) == reg && ops[1].Mem.Index == "" && ops[1].Mem.Symbol == "":
		d = ops[1].Mem.Disp
	default:
		return v, false
	}
	return span{v.lo + d, v.hi + d, v.ptr}, true
}

// copied returns the range of values of reg after in when in copies
// another register whose range is known (mov reg, r64) or adds a
// constant to it (lea reg, [r64+disp]).
func copied(in block.Insn, reg string, val map[string]span, unknown map[string]string) (span, bool) {
	ops := in.Operands
	if len(ops) != 2 || ops[0].Kind != isa.KindReg || alias(ops[0].Reg) != reg {
		return span{}, false
	}
	if r, _ := isa.LookupRegister(isa.X86, ops[0].Reg); r.Width != 64 {
		return span{}, false
	}
	var src string
	var d int64
	switch {
	case in.Form.Mnemonic == "mov" && ops[1].Kind == isa.KindReg:
		src = alias(ops[1].Reg)
		if r, _ := isa.LookupRegister(isa.X86, ops[1].Reg); r.Width != 64 {
			return span{}, false
		}
	case in.Form.Mnemonic == "lea" && ops[1].Mem.Index == "" && ops[1].Mem.Symbol == "" && ops[1].Mem.Base != "":
		src, d = alias(ops[1].Mem.Base), ops[1].Mem.Disp
	default:
		return span{}, false
	}
	v, known := val[src]
	if _, bad := unknown[src]; !known || bad {
		return span{}, false
	}
	return span{v.lo + d, v.hi + d, v.ptr}, true
}

// setTo returns the range of values in gives the register reg whatever
// it held: a zero idiom gives 0, mov reg, imm the immediate, and reg, imm
// (imm ≥ 0, 32 or 64 bits) 0 to imm.
func setTo(in block.Insn, reg string) (span, bool) {
	ops := in.Operands
	if in.ZeroIdiom {
		return span{}, true
	}
	if len(ops) != 2 || ops[0].Kind != isa.KindReg || alias(ops[0].Reg) != reg || ops[1].Kind != isa.KindImm || ops[1].Symbol != "" {
		return span{}, false
	}
	if r, _ := isa.LookupRegister(isa.X86, ops[0].Reg); r.Width != 64 && r.Width != 32 {
		return span{}, false
	}
	imm := ops[1].Imm
	switch in.Form.Mnemonic {
	case "mov":
		return span{imm, imm, false}, imm >= 0
	case "and":
		return span{0, imm, false}, imm >= 0
	}
	return span{}, false
}

// render writes in in Intel syntax with the registers of rename replaced.
func render(in block.Insn, rename map[string]string) string {
	sub := func(name string) string {
		if name == "" {
			return ""
		}
		r, ok := isa.LookupRegister(isa.X86, name)
		if !ok {
			return name
		}
		n, ok := rename[r.Alias]
		if !ok {
			return name
		}
		return n + strings.TrimPrefix(name, r.Alias)
	}
	var ops []string
	for _, o := range in.Operands {
		o.Reg = sub(o.Reg)
		o.Mem.Base, o.Mem.Index = sub(o.Mem.Base), sub(o.Mem.Index)
		ops = append(ops, o.String())
	}
	s := in.Form.Mnemonic
	if in.Form.Prefix != "" {
		s = in.Form.Prefix + " " + s
	}
	if len(ops) > 0 {
		s += " " + strings.Join(ops, ", ")
	}
	return s
}

// HostBlocks measures blocks on this machine: a block predictor (the
// interface of package sim, BlockPredictor) whose predictions are the
// host's cycles per iteration, so that sim.Evaluate and AnICA can take
// the host as their reference. It measures through O — a Campaign over
// Hardware keeps the blocks in a journal — with Hardware's Kernels set to
// the blocks' kernels.
type HostBlocks struct {
	O      oracle.Oracle
	blocks *Blocks
	name   string
}

// NewHostBlocks returns the host block predictor that measures with hw,
// through o when o is not nil (a Campaign over hw), and sets hw.Kernels.
func NewHostBlocks(hw *Hardware, o oracle.Oracle) *HostBlocks {
	bs := NewBlocks()
	hw.Kernels = bs.Kernel
	if o == nil {
		o = hw
	}
	return &HostBlocks{O: o, blocks: bs, name: hostName(hw)}
}

// hostName names the machine and the CPUs hw measures on: "host:0
// (AuthenticAMD family 26 model 2)", so that a journal of answers
// (AnICA's) is not resumed on other CPUs or another machine.
func hostName(hw *Hardware) string {
	var cpus []string
	for _, c := range hw.CPUs() {
		cpus = append(cpus, strconv.Itoa(c))
	}
	name := "host:" + strings.Join(cpus, "+")
	if h, err := isa.HostSupport(); err == nil {
		name += fmt.Sprintf(" (%s family %d model %d)", h.Vendor, h.Family, h.Model)
	}
	return name
}

// Name returns "host:CPUS (VENDOR family F model M)", the CPUs measured
// on and the machine.
func (p *HostBlocks) Name() string {
	if p.name == "" {
		return "host"
	}
	return p.name
}

// PredictBlocks measures the blocks and returns their cycles per
// iteration, in order; a block that is not measurable or failed is NaN
// and listed, with its reason, in an *oracle.UnsupportedError (Index is
// its position). An infrastructure failure or an interrupt ends the run
// with that error and no values.
func (p *HostBlocks) PredictBlocks(ctx context.Context, blocks []*block.Block) ([]float64, error) {
	exps := make([]portmap.Experiment, len(blocks))
	for i, b := range blocks {
		exps[i] = p.blocks.Add(b)
	}
	set, failures, err := oracle.MeasureAll(ctx, p.O, exps, nil)
	if err != nil {
		return nil, err
	}
	byKey := map[string]float64{}
	for _, m := range set.Measurements {
		byKey[m.Experiment.Key()] = m.Cycles
	}
	values := make([]float64, len(blocks))
	for i, e := range exps {
		if v, ok := byKey[e.Key()]; ok {
			values[i] = v
		} else {
			values[i] = math.NaN()
		}
	}
	var fails []portmap.Failure
	for _, f := range failures {
		fails = append(fails, portmap.Failure{Index: f.Index, Experiment: blocks[f.Index].Experiment(), Reason: f.Reason})
	}
	return oracle.Unsupported(p.Name(), values, fails)
}

// Outside reports whether b cannot be run in the harness at all (a
// *NotMeasurableError, see Blocks), and why: the limit of the host's
// block measurement, not a property of the host's core. AnICA
// (anica.Limited) leaves such blocks out instead of counting their
// failure as a disagreement. No code runs.
func (p *HostBlocks) Outside(b *block.Block) (string, bool) {
	size := 100
	if p.blocks != nil && p.blocks.BodySize > 0 {
		size = p.blocks.BodySize
	}
	if _, _, err := BlockKernel(b, size); IsNotMeasurable(err) {
		return err.Error(), true
	}
	return "", false
}

// IsNotMeasurable reports whether err says a block cannot run in the
// harness.
func IsNotMeasurable(err error) bool {
	var e *NotMeasurableError
	return errors.As(err, &e)
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
