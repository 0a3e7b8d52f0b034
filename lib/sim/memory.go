package sim

import (
	"strings"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/isa"
)

// Aliasing says how the simulator decides which earlier store a load
// reads from.
type Aliasing int

const (
	// ByExpression is Block.Deps's rule: a load reads an earlier store
	// written with the same address expression (registers holding the
	// same values) and overlapping bytes; different expressions never
	// alias.
	ByExpression Aliasing = iota
	// SameBuffer compares addresses by value in the state a block
	// benchmark starts from: every base register points at one address,
	// every index register holds 0 — as BHive's harness (Chen et al.,
	// IISWC 2019, §III-B: all registers initialised to one value) and
	// package measure's Blocks set them. Addresses follow the constant
	// additions the block makes to its address registers (add, sub, inc,
	// dec, lea, mov between registers), iteration after iteration, so
	// that [rdi+8] and [rsi+8] are one location and a pointer advanced
	// by 8 meets the store of the iteration before when it reads 8 bytes
	// behind it. A load of an address the simulator cannot follow falls
	// back to ByExpression. Dependencies more than one iteration apart
	// are not modelled.
	SameBuffer
)

// String returns "expression" or "same-buffer".
func (a Aliasing) String() string {
	if a == SameBuffer {
		return "same-buffer"
	}
	return "expression"
}

// affine is a register's value in the benchmark's start state: Base·B +
// Off, where B is the buffer address the base registers point to.
type affine struct {
	known bool
	base  bool
	off   int64
}

// memSource is the store a load reads from: the store's instruction and
// whether the load is renamed (reads the stored register directly).
type memSource struct {
	store   int
	renamed bool
}

// sameBufferSources returns, for each instruction and each of its memory
// reads (by index into Reads), the store it reads from under SameBuffer,
// or none; ok[i][k] is false where the address cannot be followed and
// ByExpression decides.
func sameBufferSources(b *block.Block, byAddress bool) (src [][]memSource, ok [][]bool) {
	n := len(b.Insns)
	// Address registers: bases start at B, indexes at 0. The operands of
	// lea, nops and prefetches are not set up as addresses (package
	// measure's Blocks leaves them as they are): a register that only
	// they take as a base is no base, and an index of the block's
	// accesses stays 0 when a lea adds to it.
	vals := map[string]affine{}
	for _, in := range b.Insns {
		if m := in.Form.Mnemonic; m == "lea" || strings.HasPrefix(m, "nop") || strings.HasPrefix(m, "prefetch") {
			continue
		}
		for _, o := range in.Operands {
			if o.Kind != isa.KindMem {
				continue
			}
			if r := regAlias(o.Mem.Base); r != "" {
				vals[r] = affine{known: true, base: true}
			}
			if r := regAlias(o.Mem.Index); r != "" {
				if _, seen := vals[r]; !seen {
					vals[r] = affine{known: true}
				}
			}
		}
	}
	start := map[string]affine{}
	for r, v := range vals {
		start[r] = v
	}
	get := func(r string) affine {
		if r == "" {
			return affine{known: true}
		}
		return vals[regAlias(r)]
	}
	address := func(m block.MemRef) (affine, bool) {
		if m.Segment != "" || m.Symbol != "" || m.Base == "rip" || m.Base == "" {
			return affine{}, false
		}
		bv, iv := get(m.Base), get(m.Index)
		if !bv.known || !iv.known || iv.base && m.Index != "" {
			return affine{}, false
		}
		scale := int64(1)
		if m.Index != "" {
			scale = int64(m.Scale)
		}
		return affine{known: true, base: bv.base, off: bv.off + iv.off*scale + m.Disp}, true
	}
	type access struct {
		a       affine
		ok      bool
		m       block.MemRef
		k       int // index into Reads or Writes
		isStore bool
	}
	accs := make([][]access, n)
	for i := range b.Insns {
		in := &b.Insns[i]
		var mem *block.MemRef
		for k := range in.Operands {
			if in.Operands[k].Kind == isa.KindMem {
				mem = &in.Operands[k].Mem
			}
		}
		if mem != nil && in.Form.Mnemonic != "lea" && !strings.HasPrefix(in.Form.Mnemonic, "nop") && !strings.HasPrefix(in.Form.Mnemonic, "prefetch") {
			a, aok := address(*mem)
			for k, r := range in.Reads {
				if r.Kind == block.Mem && !r.Stack {
					accs[i] = append(accs[i], access{a: a, ok: aok, m: r.Mem, k: k})
				}
			}
			for k, w := range in.Writes {
				if w.Kind == block.Mem && !w.Stack {
					accs[i] = append(accs[i], access{a: a, ok: aok, m: w.Mem, k: k, isStore: true})
				}
			}
		}
		step(in, vals)
	}
	// The step of every register over one iteration.
	stepOf := map[string]int64{}
	stepOK := map[string]bool{}
	for r, v0 := range start {
		v1 := vals[r]
		if v1.known && v1.base == v0.base {
			stepOf[r], stepOK[r] = v1.off-v0.off, true
		}
	}
	iterStep := func(m block.MemRef) (int64, bool) {
		var s int64
		if r := regAlias(m.Base); r != "" {
			if !stepOK[r] {
				return 0, false
			}
			s += stepOf[r]
		}
		if r := regAlias(m.Index); r != "" {
			if !stepOK[r] {
				return 0, false
			}
			s += stepOf[r] * int64(m.Scale)
		}
		return s, true
	}
	width := func(m block.MemRef) int64 {
		if m.Width <= 0 {
			return 1
		}
		return int64(m.Width / 8)
	}
	src = make([][]memSource, n)
	ok = make([][]bool, n)
	for j := range b.Insns {
		src[j] = make([]memSource, len(b.Insns[j].Reads))
		ok[j] = make([]bool, len(b.Insns[j].Reads))
		for k := range src[j] {
			src[j][k].store = -1
		}
		for _, ld := range accs[j] {
			if ld.isStore || !ld.ok {
				continue
			}
			sj, sok := iterStep(ld.m)
			if !sok {
				continue
			}
			ok[j][ld.k] = true
			found := func(k int, st access, d int64) bool {
				sk, skok := iterStep(st.m)
				if !st.ok || !skok || sk != sj || st.a.base != ld.a.base {
					return false
				}
				lo := st.a.off - d*sk
				if !(lo < ld.a.off+width(ld.m) && ld.a.off < lo+width(st.m)) {
					return false
				}
				// Renamed: the same registers address the same bytes (the
				// displacements may differ by what the registers moved).
				// With byAddress, any registers that address them.
				renamed := (byAddress || regAlias(st.m.Base) == regAlias(ld.m.Base) && regAlias(st.m.Index) == regAlias(ld.m.Index) &&
					(st.m.Index == "" || st.m.Scale == ld.m.Scale)) && lo == ld.a.off && width(st.m) == width(ld.m)
				src[j][ld.k] = memSource{store: k, renamed: renamed}
				return true
			}
			// This iteration's stores before the load, latest first; then
			// the previous iteration's from the load on. A store written
			// the same way as the load comes first: the memory file pairs
			// the two by their expression.
			for _, same := range []bool{true, false} {
				done := false
				for k := j - 1; k >= 0 && !done; k-- {
					for _, st := range accs[k] {
						if st.isStore && (!same || sameExpression(st.m, ld.m)) && found(k, st, 0) {
							done = true
							break
						}
					}
				}
				for k := n - 1; k >= j && !done; k-- {
					for _, st := range accs[k] {
						if st.isStore && (!same || sameExpression(st.m, ld.m)) && found(k, st, 1) {
							done = true
							break
						}
					}
				}
				if done {
					break
				}
			}
		}
	}
	return src, ok
}

// step applies in's effect to the address registers it writes.
func step(in *block.Insn, vals map[string]affine) {
	m := in.Form.Mnemonic
	ops := in.Operands
	var dst string
	if len(ops) > 0 && ops[0].Kind == isa.KindReg {
		dst = regAlias(ops[0].Reg)
	}
	set := func(v affine) {
		if dst != "" {
			if _, tracked := vals[dst]; tracked || v.known {
				vals[dst] = v
			}
		}
	}
	wide := dst != "" && regWidth(ops[0].Reg) == 64
	switch {
	case dst != "" && len(ops) == 2 && (m == "add" || m == "sub") && ops[1].Kind == isa.KindImm && ops[1].Symbol == "":
		v := vals[dst]
		if !v.known || v.base && !wide {
			set(affine{})
			break
		}
		if m == "add" {
			v.off += ops[1].Imm
		} else {
			v.off -= ops[1].Imm
		}
		set(v)
	case dst != "" && len(ops) == 1 && (m == "inc" || m == "dec"):
		v := vals[dst]
		if !v.known || v.base && !wide {
			set(affine{})
			break
		}
		if m == "inc" {
			v.off++
		} else {
			v.off--
		}
		set(v)
	case dst != "" && len(ops) == 2 && m == "lea" && ops[1].Kind == isa.KindMem:
		mr := ops[1].Mem
		bv, iv := affine{known: true}, affine{known: true}
		if mr.Base != "" {
			bv = vals[regAlias(mr.Base)]
		}
		if mr.Index != "" {
			iv = vals[regAlias(mr.Index)]
		}
		scale := int64(mr.Scale)
		if mr.Index == "" {
			scale = 0
		}
		if !bv.known || !iv.known || iv.base && scale != 1 || bv.base && iv.base || mr.Symbol != "" || mr.Base == "rip" || (bv.base || iv.base) && !wide {
			set(affine{})
			break
		}
		set(affine{known: true, base: bv.base || iv.base, off: bv.off + iv.off*scale + mr.Disp})
	case dst != "" && len(ops) == 2 && m == "mov" && ops[1].Kind == isa.KindReg:
		v := vals[regAlias(ops[1].Reg)]
		if v.base && !wide {
			v = affine{}
		}
		set(v)
	default:
		for _, w := range in.Writes {
			if w.Kind == block.Reg {
				if _, tracked := vals[w.Name]; tracked {
					vals[w.Name] = affine{}
				}
			}
		}
	}
}

func regAlias(r string) string {
	if r == "" || r == "rip" || r == "eip" {
		return ""
	}
	if x, ok := isa.LookupRegister(isa.X86, r); ok {
		return x.Alias
	}
	return r
}

func regWidth(r string) int {
	if x, ok := isa.LookupRegister(isa.X86, r); ok {
		return x.Width
	}
	return 0
}

// mergesXMM reports whether in is a legacy-SSE instruction that writes an
// XMM register, and which location: on a machine with a MergeLatency the
// result depends on the register's old value.
func mergesXMM(in *block.Insn) (block.Location, bool) {
	if strings.HasPrefix(in.Form.Mnemonic, "v") || len(in.Operands) == 0 {
		return block.Location{}, false
	}
	o := in.Operands[0]
	if o.Kind != isa.KindReg {
		return block.Location{}, false
	}
	r, ok := isa.LookupRegister(isa.X86, o.Reg)
	if !ok || r.Class != isa.XMM {
		return block.Location{}, false
	}
	for _, w := range in.Writes {
		if w.Kind == block.Reg && w.Name == r.Alias {
			return w, true
		}
	}
	return block.Location{}, false
}

// dirtyUpper reports whether b leaves the upper halves of the vector
// registers in use from one iteration to the next: it writes a YMM or ZMM
// register with a VEX or EVEX instruction and clears none with vzeroupper
// or vzeroall.
func dirtyUpper(b *block.Block) bool {
	wide := false
	for i := range b.Insns {
		in := &b.Insns[i]
		switch in.Form.Mnemonic {
		case "vzeroupper", "vzeroall":
			return false
		}
		if wide || !strings.HasPrefix(in.Form.Mnemonic, "v") {
			continue
		}
		for _, o := range in.Operands {
			if o.Kind != isa.KindReg {
				continue
			}
			if r, ok := isa.LookupRegister(isa.X86, o.Reg); ok && (r.Class == isa.YMM || r.Class == isa.ZMM) && writes(in, r.Alias) {
				wide = true
			}
		}
	}
	return wide
}

// writes reports whether in writes the register of alias r.
func writes(in *block.Insn, r string) bool {
	for _, w := range in.Writes {
		if w.Kind == block.Reg && w.Name == r {
			return true
		}
	}
	return false
}

// isAddressRegister reports whether register alias r is an address
// register of one of in's memory operands.
func isAddressRegister(in *block.Insn, r string) bool {
	for _, o := range in.Operands {
		if o.Kind == isa.KindMem && (regAlias(o.Mem.Base) == r || regAlias(o.Mem.Index) == r) {
			return true
		}
	}
	return false
}

// sameAddress reports whether the store st writes m as a load of m reads
// it, for renaming: the same base and index registers, scale,
// displacement and width.
func sameAddress(st *block.Insn, m block.MemRef) bool {
	if m.Base == "" || m.Base == "rip" || m.Symbol != "" || m.Segment != "" {
		return false
	}
	for k := range st.Writes {
		if w := &st.Writes[k]; w.Kind == block.Mem && !w.Stack && sameExpression(w.Mem, m) {
			return true
		}
	}
	return false
}

// sameExpression reports whether a and b are written the same way.
func sameExpression(a, b block.MemRef) bool {
	return regAlias(a.Base) == regAlias(b.Base) && regAlias(a.Index) == regAlias(b.Index) && (a.Index == "" || a.Scale == b.Scale) &&
		a.Disp == b.Disp && a.Width == b.Width && a.Segment == b.Segment && a.Symbol == b.Symbol
}

// isVectorRegister reports whether register alias r is a vector register.
func isVectorRegister(r string) bool {
	x, ok := isa.LookupRegister(isa.X86, r)
	return ok && (x.Class == isa.XMM || x.Class == isa.YMM || x.Class == isa.ZMM)
}

// writesVector reports whether in writes a vector register.
func writesVector(in *block.Insn) bool {
	for _, w := range in.Writes {
		if w.Kind == block.Reg && isVectorRegister(w.Name) {
			return true
		}
	}
	return false
}

// moves are the mnemonics that copy their source unchanged.
var moves = map[string]bool{"mov": true, "movq": true, "movd": true, "movss": true, "movsd": true, "movups": true, "movaps": true,
	"movupd": true, "movapd": true, "movdqu": true, "movdqa": true, "vmovq": true, "vmovd": true, "vmovss": true, "vmovsd": true,
	"vmovups": true, "vmovaps": true, "vmovupd": true, "vmovapd": true, "vmovdqu": true, "vmovdqa": true}

// widens reports whether in is a load that zero- or sign-extends a byte or
// word into a register (movzx, movsx): forwarded, its result comes with
// the forwarding latency, as a move's does (on the Zen 5 host
// movzx eax, byte [m] after mov byte [m], al takes 7 cycles a round, the
// forwarding latency; bench/results/zen5-renaming-20261128).
func widens(in *block.Insn) bool {
	m := in.Form.Mnemonic
	return (m == "movzx" || m == "movsx") && len(in.Operands) == 2 && in.Operands[0].Kind == isa.KindReg
}

// storesOperand reports whether the store st writes a register operand
// or an immediate unchanged (mov [m], r), rather than a value it computes
// (add [m], r), whose forwarded value is its own result.
func storesOperand(st *block.Insn) bool {
	return moves[st.Form.Mnemonic] && len(st.Operands) == 2 && st.Operands[0].Kind == isa.KindMem
}

// storeWidth is the width in bits of what st writes to memory (0: none).
func storeWidth(st *block.Insn) int {
	for _, w := range st.Writes {
		if w.Kind == block.Mem && !w.Stack {
			return w.Mem.Width
		}
	}
	return 0
}

// isMove reports whether in copies its source into a register unchanged
// (a renamed load of it is the stored register itself).
func isMove(in *block.Insn) bool {
	return moves[in.Form.Mnemonic] && len(in.Operands) == 2 && in.Operands[0].Kind == isa.KindReg
}

// addressIncrement reports whether in adds a constant to a 64-bit
// register (add, sub with an immediate; inc, dec) that b uses as an
// address register, and which.
func addressIncrement(b *block.Block, in *block.Insn) (string, bool) {
	m := in.Form.Mnemonic
	ops := in.Operands
	if len(ops) == 0 || ops[0].Kind != isa.KindReg || regWidth(ops[0].Reg) != 64 {
		return "", false
	}
	switch {
	case (m == "add" || m == "sub") && len(ops) == 2 && ops[1].Kind == isa.KindImm && ops[1].Symbol == "":
	case (m == "inc" || m == "dec") && len(ops) == 1:
	default:
		return "", false
	}
	r := regAlias(ops[0].Reg)
	for k := range b.Insns {
		if isAddressRegister(&b.Insns[k], r) && b.Insns[k].Form.Mnemonic != "lea" {
			return r, true
		}
	}
	return "", false
}
