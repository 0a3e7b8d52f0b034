package operands

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

// AArch64GPRs returns the general-purpose registers AArch64 benchmark
// operands may use (all pools), which a harness initialises with benign
// values; x26–x28 are reserved (constant, loop counter, buffer base).
func AArch64GPRs() []int {
	return append(append(append([]int{}, a64GPRRW...), a64GPRR...), a64GPRW...)
}

// InstantiateAArch64 is Instantiate for AArch64 forms.
func InstantiateAArch64(forms []isa.Form) ([]string, error) {
	a := &a64alloc{lastUse: map[string]int{}}
	out := make([]string, len(forms))
	for i, f := range forms {
		if f.ISA != isa.AArch64 {
			return nil, fmt.Errorf("operands: %s is not an AArch64 form", f.Scheme())
		}
		s, err := a.instantiate(f)
		if err != nil {
			return nil, fmt.Errorf("operands: instantiating %s: %w", f.Scheme(), err)
		}
		out[i] = s
	}
	return out, nil
}

type a64alloc struct {
	time    int
	lastUse map[string]int // "x5", "v3" → timestamp
	memNext [3]int         // round robin of the W, R and RW memory pools
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
	access := o.Access
	if access != isa.W && access != isa.RW {
		access = isa.R
	}
	slot := a64Slot(&a.memNext, access)
	disp := strconv.Itoa(slot * slotBytes)
	if o.Addr != "" {
		r := strings.NewReplacer("((MEM:64))", "x28", "((DIV:64))", "x26", "((MIMM:16))", "#"+disp)
		return r.Replace(o.Addr)
	}
	return "[x28, #" + disp + "]"
}

// a64Slot returns the memory slot of the next AArch64 operand with the
// given access and advances that pool's round robin. The unscaled and
// pair forms (ldur, ldp w) reach only -256…252 bytes from the base, so the
// write-only pool is lines 0–1 and the read-only pool lines 2–3; read-write
// operands take lines 4–63.
func a64Slot(next *[3]int, access isa.Access) int {
	var s int
	switch access {
	case isa.W:
		s = next[0] % 2
		next[0]++
	case isa.RW:
		s = 4 + next[2]%(memSlots-4)
		next[2]++
	default:
		s = 2 + next[1]%2
		next[1]++
	}
	return s
}
