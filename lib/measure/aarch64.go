package measure

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/portlab/portlab/lib/isa"
)

// AArch64 benchmarks cannot run on this (x86-64) host, but their code is
// generated the same way, so that a worker on an AArch64 machine — or the
// golden tests here — can use it. Registers: x28 holds the buffer base,
// x27 the loop counter, x26 a small positive constant; x18 (platform), x29
// (frame) and x30 (link) are left alone. Read-only operands use x24, x25
// and v30, v31; write-only ones x23 and v29; the rest is the read-write
// pool, allocated least recently used first (thesis Algorithm 3.1).
var (
	a64GPRRW = []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 20, 21, 22}
	a64GPRR  = []int{24, 25}
	a64GPRW  = []int{23}
	a64VecR  = []int{30, 31}
	a64VecW  = []int{29}
)

// InstantiateAArch64 is Instantiate for AArch64 forms.
func InstantiateAArch64(forms []isa.Form) ([]string, error) {
	a := &a64alloc{lastUse: map[string]int{}}
	out := make([]string, len(forms))
	for i, f := range forms {
		if f.ISA != isa.AArch64 {
			return nil, fmt.Errorf("measure: %s is not an AArch64 form", f.Scheme())
		}
		s, err := a.instantiate(f)
		if err != nil {
			return nil, fmt.Errorf("measure: instantiating %s: %w", f.Scheme(), err)
		}
		out[i] = s
	}
	return out, nil
}

type a64alloc struct {
	time    int
	lastUse map[string]int // "x5", "v3" → timestamp
	memNext int
}

func (a *a64alloc) instantiate(f isa.Form) (string, error) {
	var parts []string
	for _, o := range f.Operands {
		a.time++
		if o.Implicit {
			continue
		}
		switch o.Kind {
		case isa.KindReg:
			s, err := a.register(o)
			if err != nil {
				return "", err
			}
			if o.List {
				s = "{" + s + "}"
			}
			parts = append(parts, s)
		case isa.KindMem:
			parts = append(parts, a.memory(o))
		case isa.KindImm:
			if o.Fixed != "" {
				if strings.HasPrefix(o.Fixed, "#") {
					parts = append(parts, o.Fixed)
				} else {
					parts = append(parts, "#"+o.Fixed)
				}
				continue
			}
			parts = append(parts, "#"+strconv.FormatUint(isa.ImmediateValue(o.Width), 10))
		case isa.KindModifier:
			s := o.Fixed
			if sp := strings.IndexByte(s, ' '); sp >= 0 && !strings.HasPrefix(s[sp+1:], "#") {
				s = s[:sp] + " #" + s[sp+1:]
			}
			parts = append(parts, s)
		default:
			return "", fmt.Errorf("operand kind %v is not supported", o.Kind)
		}
	}
	s := f.Mnemonic
	if len(parts) > 0 {
		s += " " + strings.Join(parts, ", ")
	}
	return s, nil
}

func (a *a64alloc) register(o isa.Operand) (string, error) {
	if o.Fixed != "" {
		return o.Fixed, nil
	}
	if len(o.Regs) > 0 {
		return o.Regs[0], nil
	}
	vector := o.Class == isa.FPR || o.Class == isa.Vec
	var pool []int
	switch {
	case o.Reserved:
		pool = []int{26}
	case o.Access == isa.R && vector:
		pool = a64VecR
	case o.Access == isa.R:
		pool = a64GPRR
	case o.Access == isa.W && vector:
		pool = a64VecW
	case o.Access == isa.W:
		pool = a64GPRW
	case vector:
		pool = make([]int, 29)
		for i := range pool {
			pool[i] = i
		}
	default:
		pool = a64GPRRW
	}
	prefix := "x"
	if vector {
		prefix = "v"
	}
	best, bestT := -1, 0
	for _, n := range pool {
		if t := a.lastUse[prefix+strconv.Itoa(n)]; best < 0 || t < bestT {
			best, bestT = n, t
		}
	}
	a.lastUse[prefix+strconv.Itoa(best)] = a.time
	n := strconv.Itoa(best)
	switch o.Class {
	case isa.GPR:
		if o.Width == 32 {
			return "w" + n, nil
		}
		return "x" + n, nil
	case isa.FPR:
		l, ok := map[int]string{8: "b", 16: "h", 32: "s", 64: "d", 128: "q"}[o.Width]
		if !ok {
			return "", fmt.Errorf("no FP register of width %d", o.Width)
		}
		return l + n, nil
	case isa.Vec:
		if o.Arrangement == "" {
			return "", fmt.Errorf("vector operand without arrangement")
		}
		return "v" + n + "." + o.Arrangement, nil
	}
	return "", fmt.Errorf("register class %v is not supported", o.Class)
}

func (a *a64alloc) memory(o isa.Operand) string {
	slot := memSlotR
	switch o.Access {
	case isa.W:
		slot = memSlotW
	case isa.RW:
		slot = memSlotFirst + a.memNext%(memSlots-memSlotFirst)
		a.memNext++
	}
	disp := strconv.Itoa(slot * slotBytes)
	if o.Addr != "" {
		r := strings.NewReplacer("((MEM:64))", "x28", "((DIV:64))", "x26", "((MIMM:16))", "#"+disp)
		return r.Replace(o.Addr)
	}
	return "[x28, #" + disp + "]"
}

// AArch64Source returns the GNU assembler source of kernels as AArch64
// functions with the calling convention of the x86-64 ones: x0 = buffer
// base, x1 = iterations, result in x0 = ticks of the virtual counter
// (cntvct_el0) around the loop. Callee-saved registers x19–x28, x29, x30
// and d8–d15 are saved, and every register gets a benign value.
func AArch64Source(kernels []Kernel) (string, error) {
	var b strings.Builder
	b.WriteString(".text\n")
	for k, kern := range kernels {
		fmt.Fprintf(&b, ".p2align 6\n.globl portlab_kernel_%d\nportlab_kernel_%d:\n", k, k)
		for _, l := range []string{
			"stp x29, x30, [sp, #-176]!",
			"stp x19, x20, [sp, #16]",
			"stp x21, x22, [sp, #32]",
			"stp x23, x24, [sp, #48]",
			"stp x25, x26, [sp, #64]",
			"stp x27, x28, [sp, #80]",
			"stp d8, d9, [sp, #96]",
			"stp d10, d11, [sp, #112]",
			"stp d12, d13, [sp, #128]",
			"stp d14, d15, [sp, #144]",
			"mov x28, x0",
			"mov x27, x1",
			"mov x26, #3",
		} {
			b.WriteString("  " + l + "\n")
		}
		for _, r := range a64GPRRW {
			fmt.Fprintf(&b, "  ldr x%d, [x28]\n", r)
		}
		for _, r := range append(append([]int{}, a64GPRR...), a64GPRW...) {
			fmt.Fprintf(&b, "  ldr x%d, [x28]\n", r)
		}
		for v := 0; v < 32; v++ {
			fmt.Fprintf(&b, "  ldr q%d, [x28]\n", v)
		}
		for i, l := range kern.Init {
			if strings.ContainsAny(l, "\n;") {
				return "", fmt.Errorf("measure: kernel %q init line %d: one instruction per line", kern.Name, i+1)
			}
			b.WriteString("  " + l + "\n")
		}
		b.WriteString("  isb\n  mrs x0, cntvct_el0\n  str x0, [sp, #160]\n  .p2align 5\n1:\n")
		for i, l := range kern.Body {
			if strings.ContainsAny(l, "\n;") {
				return "", fmt.Errorf("measure: kernel %q line %d: one instruction per line", kern.Name, i+1)
			}
			b.WriteString("  " + l + "\n")
		}
		for _, l := range []string{
			"subs x27, x27, #1",
			"b.ne 1b",
			"isb",
			"mrs x0, cntvct_el0",
			"ldr x1, [sp, #160]",
			"sub x0, x0, x1",
			"ldp d14, d15, [sp, #144]",
			"ldp d12, d13, [sp, #128]",
			"ldp d10, d11, [sp, #112]",
			"ldp d8, d9, [sp, #96]",
			"ldp x27, x28, [sp, #80]",
			"ldp x25, x26, [sp, #64]",
			"ldp x23, x24, [sp, #48]",
			"ldp x21, x22, [sp, #32]",
			"ldp x19, x20, [sp, #16]",
			"ldp x29, x30, [sp], #176",
			"ret",
		} {
			b.WriteString("  " + l + "\n")
		}
	}
	return b.String(), nil
}
