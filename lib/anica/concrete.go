package anica

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/isa"
)

// The operands the sampler uses (thesis §8.1.5): memory operands address
// one of six locations, base rsi, rdi or rbp with displacement 64 or 128,
// so that memory operands alias exactly when they are written alike, and
// the base registers, the stack pointer and r14, r15 are never operands,
// so that no address changes inside a block.
var (
	memBases = []string{"rsi", "rdi", "rbp"}
	memDisps = []int64{64, 128}
	reserved = map[string]bool{"rsp": true, "rbp": true, "rsi": true, "rdi": true, "r14": true, "r15": true}
)

// operand kinds for aliasing: 0 none, 1 general-purpose register, 2 vector
// register, 3 memory.
func aliasKind(o isa.Operand) int {
	switch {
	case o.Kind == isa.KindReg && o.Class == isa.GPR:
		return 1
	case o.Kind == isa.KindReg && (o.Class == isa.XMM || o.Class == isa.YMM || o.Class == isa.ZMM):
		return 2
	case o.Kind == isa.KindMem && o.Access != 0:
		return 3
	}
	return 0
}

// concrete operand identity for aliasing: the register's alias class or
// the memory reference's text.
func identity(o block.Operand) string {
	if o.Kind == isa.KindMem {
		m := o.Mem
		m.Width = 0
		return m.String()
	}
	if r, ok := isa.LookupRegister(isa.X86, o.Reg); ok {
		return r.Alias
	}
	return o.Reg
}

// Beta returns β(b), the most specific abstract block of a concrete block
// (thesis §8.1.2, Eq. 8.7): the exact features of every instruction and,
// for every pair of operands of matching kinds (general-purpose
// registers, vector registers, memory; not both hardwired), whether they
// alias. It fails for an instruction whose form is not in the domain.
func (d *Domain) Beta(b *block.Block) (*Block, error) {
	a := &Block{}
	type opnd struct {
		ref   OpRef
		kind  int
		fixed bool
		id    string
	}
	var ops []opnd
	for i, in := range b.Insns {
		fi, ok := d.byKey[in.Form.Key()]
		if !ok {
			return nil, fmt.Errorf("anica: instruction %d (%s): form %s is not in the domain", i+1, in.Text, in.Form.Key())
		}
		a.Insns = append(a.Insns, d.betaInsn(fi))
		ex := d.forms[fi].Explicit()
		for k, o := range ex {
			if k >= len(in.Operands) {
				break
			}
			if kind := aliasKind(o); kind != 0 {
				ops = append(ops, opnd{OpRef{i, k}, kind, o.Fixed != "", identity(in.Operands[k])})
			}
		}
	}
	for x := range ops {
		for y := x + 1; y < len(ops); y++ {
			p, q := ops[x], ops[y]
			if p.kind != q.kind || p.fixed && q.fixed {
				continue
			}
			a.Alias = append(a.Alias, Alias{A: p.ref, B: q.ref, Must: p.id == q.id})
		}
	}
	return a, nil
}

// Contains reports whether the concrete block b is in γ(a) (thesis Eq.
// 8.5, 8.15): as long as a, every instruction's form in γ of its abstract
// instruction, and every aliasing constraint whose two operands exist and
// match in b holds.
func (d *Domain) Contains(a *Block, b *block.Block) bool {
	if len(a.Insns) != len(b.Insns) {
		return false
	}
	for i, in := range b.Insns {
		fi, ok := d.byKey[in.Form.Key()]
		if !ok || !slices.Contains(d.Feasible(a.Insns[i]), fi) {
			return false
		}
	}
	for _, c := range a.Alias {
		p, okp := operandOf(b, c.A)
		q, okq := operandOf(b, c.B)
		if !okp || !okq || p.kind != q.kind {
			continue
		}
		if (identity(p.op) == identity(q.op)) != c.Must {
			return false
		}
	}
	return true
}

type boundOp struct {
	op   block.Operand
	kind int
}

func operandOf(b *block.Block, r OpRef) (boundOp, bool) {
	if r.Insn >= len(b.Insns) {
		return boundOp{}, false
	}
	in := b.Insns[r.Insn]
	ex := in.Form.Explicit()
	if r.Op >= len(ex) || r.Op >= len(in.Operands) {
		return boundOp{}, false
	}
	k := aliasKind(ex[r.Op])
	return boundOp{in.Operands[r.Op], k}, k != 0
}

// errSample is a sampling failure: the greedy choice ran out of operands.
var errSample = errors.New("anica: no operands satisfy the aliasing constraints")

// Sample draws a concrete block from γ(a) (thesis §8.1.5): a random
// feasible form for every abstract instruction, then operands chosen
// greedily in order, each avoiding the operands it must not alias and
// copying the one it must alias. The greedy choice can fail (the exact
// problem is NP-hard); the caller draws again.
func (d *Domain) Sample(a *Block, rng *rand.Rand) (*block.Block, error) {
	forms := make([]int, len(a.Insns))
	for i, in := range a.Insns {
		fs := d.Feasible(in)
		if len(fs) == 0 {
			return nil, fmt.Errorf("anica: abstract instruction %d matches no form", i+1)
		}
		forms[i] = fs[rng.IntN(len(fs))]
	}
	chosen := map[OpRef]string{} // operand → identity
	kinds := map[OpRef]int{}
	for i, fi := range forms {
		for k, o := range d.forms[fi].Explicit() {
			kinds[OpRef{i, k}] = aliasKind(o)
		}
	}
	var lines []string
	for i, fi := range forms {
		f := d.forms[fi]
		var parts []string
		for k, o := range f.Explicit() {
			ref := OpRef{i, k}
			var must []string
			mustNot := map[string]bool{}
			for _, c := range a.Alias {
				var other OpRef
				switch ref {
				case c.A:
					other = c.B
				case c.B:
					other = c.A
				default:
					continue
				}
				id, done := chosen[other]
				if !done || kinds[other] != kinds[ref] || kinds[ref] == 0 {
					continue
				}
				if c.Must {
					must = append(must, id)
				} else {
					mustNot[id] = true
				}
			}
			text, id, err := d.pick(f, k, o, must, mustNot, rng)
			if err != nil {
				return nil, err
			}
			if kinds[ref] != 0 {
				chosen[ref] = id
			}
			parts = append(parts, text)
		}
		line := mnemonic(f)
		if len(parts) > 0 {
			line += " " + strings.Join(parts, ", ")
		}
		lines = append(lines, line)
	}
	b, err := d.parser.Parse(strings.Join(lines, "\n"), block.Intel)
	if err != nil {
		return nil, fmt.Errorf("anica: sampled block does not parse: %w", err)
	}
	for i, in := range b.Insns {
		if in.Form.Key() != d.forms[forms[i]].Key() {
			return nil, fmt.Errorf("anica: sampled %q reads as %s, not %s", in.Text, in.Form.Key(), d.forms[forms[i]].Key())
		}
	}
	return b, nil
}

// pick chooses explicit operand k (o) of form f.
func (d *Domain) pick(f isa.Form, k int, o isa.Operand, must []string, mustNot map[string]bool, rng *rand.Rand) (text, id string, err error) {
	ok := func(id string) bool {
		for _, m := range must {
			if m != id {
				return false
			}
		}
		return !mustNot[id]
	}
	switch o.Kind {
	case isa.KindImm:
		if o.Fixed != "" {
			return o.Fixed, "", nil
		}
		return strconv.FormatUint(isa.ImmediateValue(o.Width), 10), "", nil
	case isa.KindMem:
		var cands []string
		for _, base := range memBases {
			for _, disp := range memDisps {
				if m := fmt.Sprintf("[%s+%d]", base, disp); ok(m) {
					cands = append(cands, m)
				}
			}
		}
		if len(cands) == 0 {
			return "", "", errSample
		}
		m := cands[rng.IntN(len(cands))]
		if o.Ptr != "" {
			return o.Ptr + " ptr " + m, m, nil
		}
		if kw := isa.PtrKeyword(o.Width); kw != "" {
			return kw + " ptr " + m, m, nil
		}
		return m, m, nil
	case isa.KindReg:
		var all []string
		if o.Fixed != "" {
			all = []string{o.Fixed}
		} else {
			all = f.Candidates(explicitIndex(f, k))
		}
		var cands []string
		for _, r := range all {
			reg, known := isa.LookupRegister(isa.X86, r)
			if !known {
				continue
			}
			if o.Fixed == "" && (reserved[reg.Alias] || r == "ah" || r == "bh" || r == "ch" || r == "dh") {
				continue
			}
			if ok(reg.Alias) {
				cands = append(cands, r)
			}
		}
		if len(cands) == 0 {
			return "", "", errSample
		}
		r := cands[rng.IntN(len(cands))]
		reg, _ := isa.LookupRegister(isa.X86, r)
		return r, reg.Alias, nil
	}
	return "", "", fmt.Errorf("anica: %s: operand %d of kind %s cannot be sampled", f.Key(), k+1, o.Kind)
}

// explicitIndex returns the index in f.Operands of explicit operand k.
func explicitIndex(f isa.Form, k int) int {
	n := 0
	for i, o := range f.Operands {
		if o.Implicit {
			continue
		}
		if n == k {
			return i
		}
		n++
	}
	return -1
}

// blockKey is the text a block is cached and journalled under: its
// instructions, one per line.
func blockKey(b *block.Block) string {
	var sb strings.Builder
	for i, in := range b.Insns {
		if i > 0 {
			sb.WriteString("; ")
		}
		sb.WriteString(in.Text)
	}
	return sb.String()
}

// Text returns a concrete block as the sampler wrote it, instructions
// separated by "; ".
func Text(b *block.Block) string { return blockKey(b) }
