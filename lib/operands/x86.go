package operands

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/portlab/portlab/lib/isa"
)

// Operand pools of the x86-64 benchmarks (thesis §3.2.1, Example 3.15).
// Registers and memory slots are split into read-only, write-only and
// read-write candidates: a read-only operand always reads a register no
// instruction writes, a write-only one writes a register no instruction
// reads, so that only read-write operands can create read-after-write
// dependencies, and those are spread over as many candidates as possible
// by least-recently-used allocation (Algorithm 3.1). Reserved: rsp, r14 (the
// buffer base), r15 (the loop counter) and r13, which holds a small positive
// constant for operands that need one (PMEvo's ((DIV:64)): bit indices,
// address indices).
var (
	gprRW = []string{"rax", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "rbx"}
	gprR  = []string{"rcx", "r12"}
	gprW  = []string{"rbp"}
	// Vector registers by number: RW 0–12 and, for EVEX operands, 16–31;
	// R 14, 15; W 13.
	vecR = []int{14, 15}
	vecW = []int{13}
	// Mask registers: k1 (all ones) is the read-only one and the write
	// mask; k2–k7 take results.
	maskR  = []string{"k1"}
	maskRW = []string{"k2", "k3", "k4", "k5", "k6", "k7"}
)

// Memory slots are 64-byte aligned blocks (cache lines) of one 4 KiB page
// of the buffer: slots 0–7 for write-only, 8–15 for read-only and 16–63 for
// read-write memory operands. Each pool is used round robin, so that
// consecutive stores and loads go to different cache lines (stores to one
// line can be merged or committed faster than stores to many, which is a
// memory effect, not the store port's throughput); all slots stay within
// one page, so that no load aliases a store 4 KiB away.
const (
	memSlotW     = 0
	memSlotsW    = 8
	memSlotR     = 8
	memSlotsR    = 8
	memSlotFirst = 16
	memSlots     = 64
	slotBytes    = 64
)

// Layout chooses how operands are placed. The zero Layout is the default
// of Instantiate; the others exist for the self-check of the measurement
// (a form whose throughput changes under another layout has a hidden
// dependency or a memory effect, see measure.CheckLayouts).
type Layout struct {
	// WritesRead allocates every written register from the read-write
	// pool, least recently used first, as if it were also read. A
	// throughput that improves under it reveals a write that really
	// reads the register's old value (a merge or a conditional write the
	// form does not declare).
	WritesRead bool
	// OneLine puts all memory operands of one access kind into one cache
	// line (write-only, read-only and read-write each their own), the
	// layout of earlier portlab versions. A throughput that changes under
	// it is a memory effect.
	OneLine bool
	// AsDeclared takes every operand's access as the form declares it,
	// so that a write-only operand that really reads its register (see
	// Instantiate) comes from the one-register write-only pool and chains
	// all copies: the allocation of earlier portlab versions, kept so that
	// the self-check can show what it got wrong.
	AsDeclared bool
}

// slot returns the memory slot of the next operand with the given access
// (isa.W, isa.R, or isa.RW) and advances that pool's round robin.
func (l Layout) slot(next *[3]int, access isa.Access) int {
	first, n, k := memSlotR, memSlotsR, 1
	switch access {
	case isa.W:
		first, n, k = memSlotW, memSlotsW, 0
	case isa.RW:
		first, n, k = memSlotFirst, memSlots-memSlotFirst, 2
	}
	if l.OneLine {
		n = 1
	}
	s := first + next[k]%n
	next[k]++
	return s
}

// readsDestination reports whether operand o of f, declared write-only,
// in fact reads the register's old value, so that instantiating it from
// the write-only pool (one register) would chain every copy through that
// register and measure a latency: conditional moves (the destination is
// kept when the condition is false), 8- and 16-bit general-purpose
// registers (a partial write merges into the full register), bsf/bsr (the
// destination is kept for a zero source), and legacy-SSE writes of an
// XMM register, which keep the rest of the vector register.
func readsDestination(f isa.Form, o isa.Operand) bool {
	if o.Kind != isa.KindReg || o.Access != isa.W || o.Fixed != "" {
		return false
	}
	m := f.Mnemonic
	switch o.Class {
	case isa.GPR:
		return strings.HasPrefix(m, "cmov") || o.Width == 8 || o.Width == 16 || m == "bsf" || m == "bsr"
	case isa.XMM:
		// VEX and EVEX forms name the merged source explicitly; every
		// legacy-SSE write keeps the rest of the vector register (the
		// upper half of the YMM or ZMM register, and for scalar and
		// half-register operations the rest of the XMM register), which
		// a core may do by reading the old value: measured so on an AMD
		// Zen 5 in the state the benchmark runs in, where a chain of
		// "movapd xmm0, xmm1" takes 2 cycles a copy. Allocating the
		// destination as read costs nothing where nothing merges.
		return !strings.HasPrefix(m, "v")
	}
	return false
}

// X86Init returns the instructions that give the registers with fixed roles
// their values before a benchmark loop: rcx (read-only, the shift count cl)
// and r13 (the constant) are set to 3. The harness reserves rsp, r14 (the
// buffer base, at least BufferSize bytes) and r15 (the loop counter).
func X86Init() []string { return []string{"mov ecx, 3", "mov r13d, 3"} }

// BufferSize is the smallest memory buffer (addressed through r14 on x86-64
// and x28 on AArch64) that the instantiated memory operands stay within.
const BufferSize = memSlots * slotBytes

// Benchmarkable reports whether f can be measured as a throughput
// benchmark, and if not, why (thesis §3.2.2: branches, system instructions,
// operand-value dependent instructions and unavoidable dependency chains
// are excluded).
func Benchmarkable(f isa.Form) (bool, string) {
	if f.ISA != isa.X86 {
		return false, "only x86-64 forms can be run on this host"
	}
	if f.Prefix != "" {
		return false, "prefixed (" + f.Prefix + ") instructions depend on operand values or lock the bus"
	}
	switch f.Mnemonic {
	case "div", "idiv":
		return false, "integer division time depends on operand values and needs rdx:rax set up"
	}
	if privileged[f.Mnemonic] {
		return false, "a privileged (system) instruction: user code cannot run it (general-protection fault)"
	}
	for _, o := range f.Operands {
		switch {
		case o.Kind == isa.KindLabel:
			return false, "branches change control flow"
		case o.Kind == isa.KindReg && (o.Class == isa.Segment || o.Class == isa.FPMM):
			return false, "segment and MMX registers are not benchmarked"
		case o.Kind == isa.KindReg && o.Class == isa.Flags && o.Access == isa.RW:
			return false, "reads and writes the flags: an unavoidable dependency chain (like adc)"
		case o.Fixed != "" && o.Kind == isa.KindReg && o.Access == isa.RW && o.Class != isa.Flags:
			return false, "a hardwired register is read and written: an unavoidable dependency chain"
		case o.Kind == isa.KindMem && o.Fixed != "":
			return false, "hardwired memory operand"
		case o.Kind == isa.KindReg && o.Fixed != "" && isReserved(o.Fixed):
			return false, "uses a register the benchmark reserves (" + o.Fixed + ")"
		}
	}
	return true, ""
}

// privileged are the mnemonics of x86-64 system instructions that fault in
// user mode (thesis §3.2.2 excludes system instructions).
var privileged = map[string]bool{
	"hlt": true, "cli": true, "sti": true, "rdmsr": true, "wrmsr": true, "in": true, "out": true,
	"ins": true, "insb": true, "insw": true, "insd": true, "outs": true, "outsb": true, "outsw": true, "outsd": true,
	"lgdt": true, "lidt": true, "lldt": true, "ltr": true, "lmsw": true, "clts": true, "invd": true, "wbinvd": true,
	"invlpg": true, "invpcid": true, "swapgs": true, "sysret": true, "sysexit": true, "iret": true, "iretq": true,
	"wrfsbase": false, "rdpmc": true, "xsetbv": true, "vmcall": true, "vmlaunch": true, "vmresume": true,
	"vmxoff": true, "vmxon": true, "monitor": true, "mwait": true,
}

func isReserved(reg string) bool {
	r, ok := isa.LookupRegister(isa.X86, reg)
	return ok && (r.Alias == "rsp" || r.Alias == "r14" || r.Alias == "r15" || r.Alias == "r13")
}

// allocator is the LRU operand allocation of thesis Algorithm 3.1.
type allocator struct {
	layout   Layout
	time     int
	lastUse  map[string]int       // representative → timestamp
	memNext  [3]int               // round robin of the W, R and RW memory pools
	chainReg map[isa.Class]string // latency mode: one register per class
	// fixed gives the registers of operands chosen by the caller
	// (InstantiateLatency), avoid the registers (widest aliases) no other
	// operand may take.
	fixed map[int]string
	avoid map[string]bool
}

func newAllocator() *allocator { return &allocator{lastUse: map[string]int{}} }

// Instantiate returns one instruction per form, in order, with operands
// chosen so that the sequence has as few read-after-write dependencies as
// possible: the thesis' Algorithm 3.1 (LRU allocation over read-only,
// write-only and read-write pools), with write-only operands that really
// read their register (cmov, setcc, partial and merging writes) treated as
// read-write. Immediates get isa.ImmediateValue. Repeat the forms before
// instantiating to unroll: each copy then gets fresh registers.
func Instantiate(forms []isa.Form) ([]string, error) {
	return InstantiateLayout(forms, Layout{})
}

// InstantiateLayout is Instantiate with the operands placed by l.
func InstantiateLayout(forms []isa.Form, l Layout) ([]string, error) {
	a := newAllocator()
	a.layout = l
	out := make([]string, len(forms))
	for i, f := range forms {
		s, err := a.instantiate(f)
		if err != nil {
			return nil, fmt.Errorf("operands: instantiating %s: %w", f.Scheme(), err)
		}
		out[i] = s
	}
	return out, nil
}

// InstantiateChain returns n copies of f chained through one register per
// register class: every register operand of a class uses the same
// register, so each copy reads what the previous one wrote and the loop
// runs at the form's latency (for forms that read and write a register of
// the same class).
func InstantiateChain(f isa.Form, n int) ([]string, error) {
	a := newAllocator()
	a.chainReg = map[isa.Class]string{}
	s, err := a.instantiate(f)
	if err != nil {
		return nil, fmt.Errorf("operands: instantiating %s: %w", f.Scheme(), err)
	}
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out, nil
}

func (a *allocator) instantiate(f isa.Form) (string, error) {
	if ok, why := Benchmarkable(f); !ok {
		return "", fmt.Errorf("not benchmarkable: %s", why)
	}
	var parts []string
	for i, o := range f.Operands {
		a.time++
		if o.Implicit {
			if o.Kind == isa.KindReg && o.Fixed != "" {
				if r, ok := isa.LookupRegister(isa.X86, o.Fixed); ok {
					a.lastUse[r.Alias] = a.time
				}
			}
			continue
		}
		if o.Mask && len(parts) > 0 {
			parts[len(parts)-1] += "{k1}"
			if o.Zeroing {
				parts[len(parts)-1] += "{z}"
			}
			continue
		}
		s, err := a.operand(f, i, o)
		if err != nil {
			return "", fmt.Errorf("operand %d: %w", i+1, err)
		}
		parts = append(parts, s)
	}
	s := f.Mnemonic
	if len(parts) > 0 {
		s += " " + strings.Join(parts, ", ")
	}
	return s, nil
}

func (a *allocator) operand(f isa.Form, i int, o isa.Operand) (string, error) {
	switch o.Kind {
	case isa.KindImm:
		if o.Fixed != "" {
			return o.Fixed, nil
		}
		return strconv.FormatUint(isa.ImmediateValue(o.Width), 10), nil
	case isa.KindMem:
		return a.memory(o), nil
	case isa.KindReg:
		return a.register(f, i, o)
	}
	return "", fmt.Errorf("operand kind %v is not supported", o.Kind)
}

func (a *allocator) memory(o isa.Operand) string {
	var slot int
	switch {
	case o.Access == 0: // lea: only the address
		slot = memSlotR
	case o.Access == isa.R && a.chainReg != nil:
		// Latency mode: loads read what the stores wrote.
		slot = a.layout.slot(&a.memNext, isa.RW)
	default:
		// LRU over a pool of slots is round robin.
		slot = a.layout.slot(&a.memNext, o.Access)
	}
	addr := "[r14+" + strconv.Itoa(slot*slotBytes) + "]"
	if o.Addr != "" {
		r := strings.NewReplacer("((MEM:64))", "r14", "((DIV:64))", "r13", "((MIMM:16))", strconv.Itoa(slot*slotBytes),
			"((IMM:8))", strconv.FormatUint(isa.ImmediateValue(8), 10), " ", "")
		addr = r.Replace(o.Addr)
	}
	if o.Ptr != "" {
		addr = o.Ptr + " ptr " + addr
	}
	if o.Broadcast != 0 {
		addr += "{1to" + strconv.Itoa(o.Broadcast) + "}"
	}
	return addr
}

func (a *allocator) register(f isa.Form, i int, o isa.Operand) (string, error) {
	cands := f.Candidates(i)
	if len(cands) == 0 {
		return "", fmt.Errorf("no register of class %v width %d", o.Class, o.Width)
	}
	if o.Fixed != "" {
		if r, ok := isa.LookupRegister(isa.X86, o.Fixed); ok {
			a.lastUse[r.Alias] = a.time
		}
		return o.Fixed, nil
	}
	if o.Reserved {
		return pick(cands, func(alias string) bool { return alias == "r13" }, nil)
	}
	if reg, ok := a.fixed[i]; ok {
		return reg, nil
	}
	if a.chainReg != nil {
		if reg, ok := a.chainReg[o.Class]; ok {
			for _, c := range cands {
				if c == reg {
					return c, nil
				}
			}
		}
		reg, err := pick(cands, func(alias string) bool { return inPool(o.Class, alias, isa.RW) }, nil)
		if err == nil {
			a.chainReg[o.Class] = reg
		}
		return reg, err
	}
	access := o.Access
	switch {
	case o.Class == isa.K && o.Access == isa.W:
		access = isa.RW // results go to k2–k7
	case o.Access == isa.W && (a.layout.WritesRead || !a.layout.AsDeclared && readsDestination(f, o)):
		access = isa.RW
	}
	best, bestT := "", 0
	for _, c := range cands {
		r, ok := isa.LookupRegister(isa.X86, c)
		if !ok || !inPool(o.Class, r.Alias, access) || a.avoid[r.Alias] {
			continue
		}
		if t := a.lastUse[r.Alias]; best == "" || t < bestT {
			best, bestT = c, t
		}
	}
	if best == "" {
		return "", fmt.Errorf("no %v register of width %d in the %v pool among %v", o.Class, o.Width, access, cands)
	}
	r, _ := isa.LookupRegister(isa.X86, best)
	a.lastUse[r.Alias] = a.time
	return best, nil
}

// pick returns the first candidate whose alias satisfies ok.
func pick(cands []string, ok func(alias string) bool, _ []string) (string, error) {
	for _, c := range cands {
		if r, found := isa.LookupRegister(isa.X86, c); found && ok(r.Alias) {
			return c, nil
		}
	}
	return "", fmt.Errorf("none of %v is usable", cands)
}

// inPool reports whether the register with representative alias belongs to
// the pool of the access mode.
func inPool(c isa.Class, alias string, access isa.Access) bool {
	switch c {
	case isa.GPR:
		switch access {
		case isa.R:
			return contains(gprR, alias)
		case isa.W:
			return contains(gprW, alias)
		}
		return contains(gprRW, alias)
	case isa.XMM, isa.YMM, isa.ZMM:
		n, err := strconv.Atoi(strings.TrimPrefix(alias, "zmm"))
		if err != nil {
			return false
		}
		switch access {
		case isa.R:
			return containsInt(vecR, n)
		case isa.W:
			return containsInt(vecW, n)
		}
		return n <= 12 || n >= 16
	case isa.K:
		if access == isa.R {
			return contains(maskR, alias)
		}
		return contains(maskRW, alias)
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func containsInt(list []int, n int) bool {
	for _, x := range list {
		if x == n {
			return true
		}
	}
	return false
}
