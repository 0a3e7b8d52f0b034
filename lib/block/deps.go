package block

import (
	"fmt"
	"strings"

	"github.com/portlab/portlab/lib/isa"
)

// Zero and dependency-breaking idioms (Intel 64 and IA-32 Architectures
// Optimization Reference Manual, "Clearing Registers and Dependency
// Breaking Idioms"; Agner Fog, "The microarchitecture of Intel, AMD and
// VIA CPUs", "Instructions that break dependence"): with all source
// registers equal the result is zero (or all ones) whatever they hold.
var (
	zeroIdioms = words(`xor sub pxor xorps xorpd psubb psubw psubd psubq pcmpgtb pcmpgtw pcmpgtd pcmpgtq
		vpxor vpxord vpxorq vxorps vxorpd vpsubb vpsubw vpsubd vpsubq vpcmpgtb vpcmpgtw vpcmpgtd vpcmpgtq`)
	onesIdioms = words(`pcmpeqb pcmpeqw pcmpeqd pcmpeqq vpcmpeqb vpcmpeqw vpcmpeqd vpcmpeqq`)
)

// unmodelled are instructions with implicit register or memory operands
// that neither the form nor this package describes; a block holding one
// is refused rather than given wrong dependencies.
var unmodelled = words(`cpuid rdtsc rdtscp rdpmc rdmsr wrmsr syscall sysenter sysexit sysret int int3 into iret iretq
	enter xgetbv xsetbv xsave xsave64 xsavec xsavec64 xsaveopt xsaveopt64 xrstor xrstor64 fxsave fxsave64 fxrstor fxrstor64
	cmpxchg8b cmpxchg16b xlat xlatb in out ins outs insb insw insd outsb outsw outsd maskmovq maskmovdqu vmaskmovdqu
	monitor mwait umonitor umwait tpause xbegin xend xabort rdrand rdseed rdpid lar lsl sgdt sidt sldt str verr verw
	pushf pushfw popf popfw pusha popa clzero enclu iretd monitorx mwaitx rdpkru wrpkru rsm retf retfq`)

// locs collects an instruction's reads or writes without repeats.
type locs []Location

func (l *locs) add(x Location) {
	for i := range *l {
		if (*l)[i].Name == x.Name {
			return
		}
	}
	*l = append(*l, x)
}

func regLoc(name string) Location {
	r, ok := isa.LookupRegister(isa.X86, name)
	if !ok {
		return Location{Kind: Reg, Name: name}
	}
	if r.Class == isa.Flags {
		return Location{Kind: Flags, Name: "flags"}
	}
	return Location{Kind: Reg, Name: r.Alias}
}

func memLoc(m MemRef) Location {
	name := m.String()
	if kw := isa.PtrKeyword(m.Width); kw != "" {
		name = kw + " ptr " + name
	}
	return Location{Kind: Mem, Name: name, Mem: m}
}

var stackLoc = Location{Kind: Mem, Name: "stack", Stack: true}

// merges reports whether writing register operand o of form f keeps part
// of the register's old value, so that the write also reads it: 8- and
// 16-bit general-purpose registers, cmov (the destination stays when the
// condition is false), bsf/bsr (it stays for a zero source), and the
// legacy-SSE scalar and half-register operations, which keep the rest of
// the XMM register (a scalar load from memory zeroes it instead). Full
// legacy-SSE writes leave the upper YMM/ZMM lanes alone too; that is not
// counted, since cores track the clean upper state instead of merging.
func merges(f isa.Form, o isa.Operand) bool {
	m := f.Mnemonic
	switch o.Class {
	case isa.GPR:
		return o.Width == 8 || o.Width == 16 || strings.HasPrefix(m, "cmov") || m == "bsf" || m == "bsr"
	case isa.XMM:
		if strings.HasPrefix(m, "v") || strings.HasPrefix(m, "p") {
			return false // VEX forms name the merged source; pminsd, pabsd are packed
		}
		switch m {
		case "movlps", "movhps", "movlpd", "movhpd":
			return true
		case "movss", "movsd":
			return !f.ReadsMemory()
		}
		return strings.HasSuffix(m, "ss") || strings.HasSuffix(m, "sd")
	}
	return false
}

// pair is a concrete operand with the form operand it matched and the
// mask operand that follows it in the form, if any.
type pair struct {
	c    Operand
	f    isa.Operand
	mask *isa.Operand
}

func pairs(in *Insn) []pair {
	explicit := in.Form.Explicit()
	ops := in.Operands
	if len(ops) == 0 && len(explicit) > 0 {
		// "stosq": the fixed operands are not written.
		for _, o := range explicit {
			c := Operand{Kind: o.Kind}
			if o.Kind == isa.KindReg {
				c.Reg = o.Fixed
			} else if o.Kind == isa.KindMem {
				body := o.Fixed
				if i := strings.IndexByte(body, ':'); i >= 0 {
					c.Mem.Segment, body = body[:i], body[i+1:]
				}
				c.Mem.Base = strings.Trim(body, "[]")
				c.Mem.Width = memWidth(o)
			}
			ops = append(ops, c)
		}
		in.Operands = ops
	}
	ps := make([]pair, 0, len(ops))
	k := 0
	for _, c := range ops {
		if k >= len(explicit) {
			break
		}
		p := pair{c: c, f: explicit[k]}
		k++
		if k < len(explicit) && explicit[k].Mask {
			m := explicit[k]
			p.mask = &m
			k++
		}
		ps = append(ps, p)
	}
	return ps
}

// analyze fills in's Reads, Writes, ZeroIdiom and DepBreaking from its
// form and operands.
func analyze(in *Insn) error {
	f := in.Form
	m := f.Mnemonic
	if unmodelled[m] {
		return fmt.Errorf("the implicit operands of %s are not modelled", m)
	}
	var reads, writes locs
	ps := pairs(in)

	// Idioms: the two register sources (the last two operands; VEX forms
	// have a separate destination) are the same register.
	if n := len(ps); n == 2 || (n == 3 && strings.HasPrefix(m, "v")) {
		regs := true
		for _, p := range ps {
			regs = regs && p.c.Kind == isa.KindReg && p.c.Mask == ""
		}
		if regs && ps[n-2].c.Reg == ps[n-1].c.Reg {
			switch {
			case zeroIdioms[m]:
				in.ZeroIdiom, in.DepBreaking = true, true
			case onesIdioms[m]:
				in.DepBreaking = true
			}
		}
	}

	for _, p := range ps {
		c, o := p.c, p.f
		switch c.Kind {
		case isa.KindReg:
			l := regLoc(c.Reg)
			if o.Access.Reads() && !in.DepBreaking {
				reads.add(l)
			}
			if o.Access.Writes() {
				writes.add(l)
				if !o.Access.Reads() && merges(f, o) {
					reads.add(l)
				}
				if in.DepBreaking && merges(f, o) {
					reads.add(l) // xor al, al keeps the rest of rax
				}
				if c.Mask != "" && !c.Zeroing {
					reads.add(l) // merge masking keeps the masked-off elements
				}
			}
		case isa.KindMem:
			for _, r := range []string{c.Mem.Base, c.Mem.Index} {
				if r != "" && r != "rip" && r != "eip" {
					reads.add(regLoc(r))
				}
			}
			mem := c.Mem
			if mem.Width == 0 {
				mem.Width = memWidth(o)
			}
			if o.Access.Reads() {
				reads.add(memLoc(mem))
			}
			if o.Access.Writes() {
				writes.add(memLoc(mem))
				if c.Mask != "" && !c.Zeroing {
					reads.add(memLoc(mem))
				}
			}
		}
		if c.Mask != "" {
			reads.add(regLoc(c.Mask))
		}
	}
	for _, o := range f.Implicit() {
		if o.Kind != isa.KindReg || o.Fixed == "" {
			continue
		}
		l := regLoc(o.Fixed)
		if o.Access.Reads() {
			reads.add(l)
		}
		if o.Access.Writes() {
			writes.add(l)
			if !o.Access.Reads() && o.Class == isa.GPR && (o.Width == 8 || o.Width == 16) {
				reads.add(l)
			}
		}
	}
	extraImplicit(in, &reads, &writes)
	in.Reads, in.Writes = reads, writes
	return nil
}

// extraImplicit adds the implicit operands lib/isa does not list: the
// stack pointer and stack of push, pop, call, ret and leave, the
// registers a call passes and clobbers (callABI), the counter
// of loop and jrcxz, the pointers and counter of the string instructions,
// the accumulator of cmpxchg, the registers of the SSE4.2 string
// comparisons, the vector registers of vzeroupper and vzeroall, and the
// flags of flagWriters.
func extraImplicit(in *Insn, reads, writes *locs) {
	m := in.Form.Mnemonic
	rw := func(names ...string) {
		for _, n := range names {
			reads.add(regLoc(n))
			writes.add(regLoc(n))
		}
	}
	switch {
	case m == "push" || m == "pushfq" || m == "call":
		rw("rsp")
		writes.add(stackLoc)
		if m == "pushfq" {
			reads.add(regLoc("flags"))
		}
		if m == "call" {
			callABI(reads, writes)
		}
	case m == "pop" || m == "popfq" || m == "ret":
		rw("rsp")
		reads.add(stackLoc)
		if m == "popfq" {
			writes.add(regLoc("flags"))
		}
	case m == "leave":
		rw("rsp", "rbp")
		reads.add(stackLoc)
	case strings.HasPrefix(m, "loop"):
		rw("rcx")
		if m != "loop" {
			reads.add(regLoc("flags"))
		}
	case m == "jrcxz":
		reads.add(regLoc("rcx"))
	case m == "jecxz":
		reads.add(regLoc("rcx"))
	case m == "cmpxchg":
		rw("rax")
	case m == "pcmpestri" || m == "vpcmpestri" || m == "pcmpestrm" || m == "vpcmpestrm":
		reads.add(regLoc("rax"))
		reads.add(regLoc("rdx"))
		fallthrough
	case m == "pcmpistri" || m == "vpcmpistri" || m == "pcmpistrm" || m == "vpcmpistrm":
		if strings.HasSuffix(m, "i") {
			writes.add(regLoc("rcx"))
		} else {
			writes.add(regLoc("xmm0"))
		}
	case m == "vzeroupper" || m == "vzeroall":
		for i := 0; i < 16; i++ {
			r := fmt.Sprintf("zmm%d", i)
			if m == "vzeroupper" {
				reads.add(regLoc(r)) // the low 128 bits stay
			}
			writes.add(regLoc(r))
		}
	}
	if flagWriters[m] {
		writes.add(regLoc("flags"))
	}
	if n := len(m); n > 1 && stringOps[m[:n-1]] && fixedMemory(in.Form) {
		switch m[:n-1] {
		case "movs", "cmps":
			rw("rsi", "rdi")
		case "lods":
			rw("rsi")
		case "stos", "scas":
			rw("rdi")
		}
		if m[:n-1] == "cmps" || m[:n-1] == "scas" {
			writes.add(regLoc("flags"))
		}
		if in.Form.Prefix != "" {
			rw("rcx")
		}
	}
}

// callABI adds what a called function may read and write under the
// System V AMD64 ABI (the calling convention of Linux): the argument
// registers rdi, rsi, rdx, rcx, r8, r9, xmm0–xmm7 and al (the vector
// count of variadic calls) are read; the registers the callee need not
// preserve — rax, rcx, rdx, rsi, rdi, r8–r11, all vector and mask
// registers, the flags — are written, and so is memory through the stack.
func callABI(reads, writes *locs) {
	for _, r := range []string{"rdi", "rsi", "rdx", "rcx", "r8", "r9", "rax"} {
		reads.add(regLoc(r))
	}
	for i := 0; i < 8; i++ {
		reads.add(regLoc(fmt.Sprintf("zmm%d", i)))
	}
	for _, r := range []string{"rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "flags"} {
		writes.add(regLoc(r))
	}
	for i := 0; i < 32; i++ {
		writes.add(regLoc(fmt.Sprintf("zmm%d", i)))
	}
	for i := 0; i < 8; i++ {
		writes.add(regLoc(fmt.Sprintf("k%d", i)))
	}
}

// flagWriters are instructions that write the flags without lib/isa
// listing it: AMD's TBM bit-manipulation instructions, xtest, and the
// SSE4.2 string comparisons with a mask result.
var flagWriters = words("blcfill blci blcic blcmsk blcs blsfill blsic t1mskc tzmsk xtest pcmpestrm pcmpistrm vpcmpestrm vpcmpistrm")

// fixedMemory reports whether f has a memory operand with a hardwired
// address: the string instructions ("stosq qword ptr W:es:[rdi], R:rax"),
// not the SSE movsd.
func fixedMemory(f isa.Form) bool {
	for _, o := range f.Operands {
		if o.Kind == isa.KindMem && o.Fixed != "" {
			return true
		}
	}
	return false
}

// Dep is a read-after-write dependency: instruction To reads a value
// instruction From wrote (indices into Block.Insns).
type Dep struct {
	From, To int
	Kind     LocKind
	// Via names the location: a register's widest alias, "flags", a
	// memory reference, or "stack".
	Via string
	// LoopCarried marks a dependency on the previous iteration of a loop
	// body: To in iteration i+1 reads what From wrote in iteration i.
	LoopCarried bool
}

// String returns "from -> to location", marked "(loop-carried)" when
// it is.
func (d Dep) String() string {
	s := fmt.Sprintf("%d -> %d %s", d.From, d.To, d.Via)
	if d.LoopCarried {
		s += " (loop-carried)"
	}
	return s
}

// memWrite is a store seen while walking the block.
type memWrite struct {
	insn     int
	m        MemRef
	baseVer  int
	indexVer int
}

// Deps returns the read-after-write dependencies of the block, sorted by
// reader and then writer; with loop set also the loop-carried ones of
// the block repeated as a loop body. Every read depends on the last
// earlier write of its location: registers through their widest alias
// (a read of eax after a write of al depends on it), the flags as one
// register (inc and dec, which keep CF, count as writing all flags, so a
// later adc depends on them), memory as described below. Zero idioms read
// nothing, so they depend on nothing. Write-after-read and
// write-after-write orderings are not dependencies: register renaming
// removes them, and stores retire in order. A branch inside the block is assumed not taken: the
// dependencies follow the straight-line path, as in llvm-mca and uiCA.
//
// Memory is compared by address expression, the aliasing assumption of
// this package: a load depends on an earlier store when both have the
// same segment, base, index, scale and symbol, their base and index
// registers hold the same values (the same last writer, or none), and
// their byte ranges from the displacement overlap. Different expressions
// are assumed never to alias ([rdi] and [rsi] are distinct arrays). A
// loop-carried memory dependency needs base and index registers that the
// loop does not write: a pointer the loop advances is assumed to reach a
// new address in every iteration. The implicit stack accesses of push,
// pop, call and ret are one location, "stack".
func (b *Block) Deps(loop bool) []Dep {
	deps := make([]Dep, 0, 2*len(b.Insns))
	seg := 0 // deps[seg:] are the current reader's, for the repeats
	add := func(from, to int, l *Location, carried bool) {
		for _, d := range deps[seg:] {
			if d.From == from && d.Via == l.Name && d.LoopCarried == carried {
				return
			}
		}
		deps = append(deps, Dep{From: from, To: to, Kind: l.Kind, Via: l.Name, LoopCarried: carried})
	}
	var lastWriter, cur writers // by register alias, "flags", "stack": the final writer after one pass, the current one
	for i := range b.Insns {
		in := &b.Insns[i]
		for wi := range in.Writes {
			w := &in.Writes[wi]
			if w.Kind != Mem || w.Stack {
				lastWriter.set(w.Name, i)
			}
		}
	}
	writtenAnywhere := func(r string) bool {
		_, ok := lastWriter.get(r)
		return ok
	}
	ver := func(r string) int {
		if r == "" || r == "rip" || r == "eip" {
			return -1
		}
		if i, ok := cur.get(regLoc(r).Name); ok {
			return i
		}
		return -1
	}
	invariant := func(m MemRef) bool {
		return (m.Base == "" || !writtenAnywhere(regLoc(m.Base).Name) || m.Base == "rip") &&
			(m.Index == "" || !writtenAnywhere(regLoc(m.Index).Name))
	}
	// Stores by address expression (without displacement and width), so
	// that a load looks only at the stores it may alias.
	var stores, invariantStores map[addrID][]memWrite // invariantStores: the whole block's, for loop-carried edges
	if loop {
		for k := range b.Insns {
			in := &b.Insns[k]
			for wi := range in.Writes {
				w := &in.Writes[wi]
				if w.Kind == Mem && !w.Stack && invariant(w.Mem) {
					key := addrKey(w.Mem, -1, -1)
					if invariantStores == nil {
						invariantStores = map[addrID][]memWrite{}
					}
					invariantStores[key] = append(invariantStores[key], memWrite{k, w.Mem, -1, -1})
				}
			}
		}
	}
	for j := range b.Insns {
		in := &b.Insns[j]
		seg = len(deps)
		for ri := range in.Reads {
			r := &in.Reads[ri]
			if r.Kind != Mem || r.Stack {
				if w, ok := cur.get(r.Name); ok {
					add(w, j, r, false)
				} else if w, ok := lastWriter.get(r.Name); ok && loop {
					add(w, j, r, true)
				}
				continue
			}
			bv, iv := ver(r.Mem.Base), ver(r.Mem.Index)
			key := addrKey(r.Mem, bv, iv)
			found := false
			list := stores[key]
			for k := len(list) - 1; k >= 0; k-- {
				if overlap(list[k].m, r.Mem) {
					add(list[k].insn, j, r, false)
					found = true
					break
				}
			}
			if found || !loop || bv != -1 || iv != -1 || !invariant(r.Mem) {
				continue
			}
			list = invariantStores[key]
			for k := len(list) - 1; k >= 0 && list[k].insn >= j; k-- {
				if overlap(list[k].m, r.Mem) {
					add(list[k].insn, j, r, true)
					break
				}
			}
		}
		// The reader's dependencies by writer, in the order found among
		// equal writers (a stable insertion sort: there are few).
		for a := seg + 1; a < len(deps); a++ {
			for c := a; c > seg && deps[c].From < deps[c-1].From; c-- {
				deps[c], deps[c-1] = deps[c-1], deps[c]
			}
		}
		for wi := range in.Writes {
			w := &in.Writes[wi]
			if w.Kind == Mem && !w.Stack {
				bv, iv := ver(w.Mem.Base), ver(w.Mem.Index)
				key := addrKey(w.Mem, bv, iv)
				if stores == nil {
					stores = map[addrID][]memWrite{}
				}
				stores[key] = append(stores[key], memWrite{j, w.Mem, bv, iv})
			}
		}
		for wi := range in.Writes {
			w := &in.Writes[wi]
			if w.Kind != Mem || w.Stack {
				cur.set(w.Name, j)
			}
		}
	}
	if len(deps) == 0 {
		return nil
	}
	return deps
}

// writers maps locations to the instruction that writes them: a list
// searched from its start, faster than a map for the few registers most
// blocks write, and a map beside it once there are many.
type writers struct {
	names []string
	insns []int
	index map[string]int // into names, when there are more than manyWriters
	// The first manyWriters entries.
	nameBuf [manyWriters]string
	insnBuf [manyWriters]int
}

const manyWriters = 16

func (w *writers) find(name string) int {
	if w.index != nil {
		if k, ok := w.index[name]; ok {
			return k
		}
		return -1
	}
	for k, n := range w.names {
		if n == name {
			return k
		}
	}
	return -1
}

func (w *writers) get(name string) (int, bool) {
	if k := w.find(name); k >= 0 {
		return w.insns[k], true
	}
	return 0, false
}

func (w *writers) set(name string, insn int) {
	if k := w.find(name); k >= 0 {
		w.insns[k] = insn
		return
	}
	if w.names == nil {
		w.names, w.insns = w.nameBuf[:0], w.insnBuf[:0]
	}
	w.names = append(w.names, name)
	w.insns = append(w.insns, insn)
	switch {
	case w.index != nil:
		w.index[name] = len(w.names) - 1
	case len(w.names) > manyWriters:
		w.index = make(map[string]int, 2*len(w.names))
		for k, n := range w.names {
			w.index[n] = k
		}
	}
}

// addrID names an address expression with the values of its registers
// (their writers' indexes, -1 for the value the block starts with), without
// displacement and width: a comparable map key, cheaper than a string.
type addrID struct {
	segment, symbol, base, index string
	baseVer, indexVer, scale     int
}

// addrKey returns the addrID of m with the given register values.
func addrKey(m MemRef, baseVer, indexVer int) addrID {
	scale := 0
	if m.Index != "" {
		scale = m.Scale
	}
	return addrID{m.Segment, m.Symbol, m.Base, m.Index, baseVer, indexVer, scale}
}

// overlap reports whether two memory references with the same address
// expression (registers compared by the caller) touch a common byte.
func overlap(a, b MemRef) bool {
	if a.Segment != b.Segment || a.Base != b.Base || a.Index != b.Index || a.Symbol != b.Symbol {
		return false
	}
	if a.Index != "" && a.Scale != b.Scale {
		return false
	}
	wa, wb := int64(a.Width/8), int64(b.Width/8)
	if wa == 0 {
		wa = 1
	}
	if wb == 0 {
		wb = 1
	}
	return a.Disp < b.Disp+wb && b.Disp < a.Disp+wa
}
