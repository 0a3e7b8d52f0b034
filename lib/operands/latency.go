package operands

import (
	"fmt"

	"github.com/portlab/portlab/lib/isa"
)

// A LatencyPair is an input operand and an output operand of a form,
// indices into its operands (explicit first, in assembly order, as
// isa.ParseScheme lists them): the latency from a value arriving in From
// to the result in To.
type LatencyPair struct{ From, To int }

// registerFile groups register classes that share one register file:
// an XMM result can feed a YMM input of the same register.
func registerFile(c isa.Class) int {
	switch c {
	case isa.GPR:
		return 1
	case isa.XMM, isa.YMM, isa.ZMM:
		return 2
	case isa.K:
		return 3
	}
	return 0
}

// chainable reports whether operand o can carry a latency chain: an
// explicit, freely chosen register of a general-purpose, vector or mask
// register file.
func chainable(o isa.Operand) bool {
	return o.Kind == isa.KindReg && !o.Implicit && !o.Mask && o.Fixed == "" && !o.Reserved && registerFile(o.Class) != 0
}

// LatencyPairs returns the operand pairs of f whose latency
// InstantiateLatency can measure: every register input and register
// output of one register file (an operand read and written pairs with
// itself), in operand order, and the reason when there is none.
// Memory operands, fixed and implicit registers and the flags carry no
// chain: their latencies are not measured this way.
func LatencyPairs(f isa.Form) ([]LatencyPair, string) {
	if ok, why := Benchmarkable(f); !ok {
		return nil, "not benchmarkable: " + why
	}
	var pairs []LatencyPair
	for to, o := range f.Operands {
		if !chainable(o) || o.Access&isa.W == 0 {
			continue
		}
		for from, i := range f.Operands {
			if chainable(i) && i.Access&isa.R != 0 && registerFile(i.Class) == registerFile(o.Class) && len(chainRegisters(f, from, to)) > 0 {
				pairs = append(pairs, LatencyPair{from, to})
			}
		}
	}
	if len(pairs) == 0 {
		return nil, "no register input and register output of one register file"
	}
	if n := written(f); n > 1 {
		return nil, fmt.Sprintf("%d register operands are read and written: a chain through one would depend on the others", n)
	}
	return pairs, ""
}

// written counts the explicit register operands of f that are both read
// and written.
func written(f isa.Form) int {
	n := 0
	for _, o := range f.Operands {
		if o.Kind == isa.KindReg && !o.Implicit && o.Access == isa.RW {
			n++
		}
	}
	return n
}

// chainRegisters returns the registers (by their widest alias) that both
// operand from and operand to can name and that belong to the read-write
// pool of their class, with each operand's name for it.
func chainRegisters(f isa.Form, from, to int) []chainReg {
	names := func(i int) map[string]string {
		m := map[string]string{}
		for _, c := range f.Candidates(i) {
			if r, ok := isa.LookupRegister(isa.X86, c); ok && inPool(f.Operands[i].Class, r.Alias, isa.RW) {
				if _, dup := m[r.Alias]; !dup {
					m[r.Alias] = c
				}
			}
		}
		return m
	}
	in, out := names(from), names(to)
	var regs []chainReg
	for _, c := range f.Candidates(to) {
		r, ok := isa.LookupRegister(isa.X86, c)
		if !ok {
			continue
		}
		if n, ok := in[r.Alias]; ok && out[r.Alias] == c {
			regs = append(regs, chainReg{alias: r.Alias, from: n, to: c})
		}
	}
	return regs
}

type chainReg struct{ alias, from, to string }

// InstantiateLatency returns n copies of f in which each copy's operand
// p.To is the register the next copy reads as operand p.From, so that a
// loop of them runs at the latency from p.From to p.To (one of
// LatencyPairs(f)). The other register operands come from the read-only
// and write-only pools and memory operands from their slots, as
// Instantiate chooses them, so that they add no dependency. Where the
// output is also read (a read-write operand other than p.From, or a
// write that merges), copies alternate between two registers: each
// copy's result feeds the next copy through p.From and the copy after
// next through the output, so that the loop runs at the larger of the
// latency from p.From and half the latency of the output's own chain.
func InstantiateLatency(f isa.Form, p LatencyPair, n int) ([]string, error) {
	if p.From < 0 || p.To < 0 || p.From >= len(f.Operands) || p.To >= len(f.Operands) {
		return nil, fmt.Errorf("operands: %s: operand pair %d→%d out of range (%d operands)", f.Scheme(), p.From, p.To, len(f.Operands))
	}
	pairs, why := LatencyPairs(f)
	if why != "" {
		return nil, fmt.Errorf("operands: %s: no latency chain: %s", f.Scheme(), why)
	}
	found := false
	for _, q := range pairs {
		found = found || q == p
	}
	if !found {
		return nil, fmt.Errorf("operands: %s: operands %d→%d carry no latency chain (want one of %v)", f.Scheme(), p.From, p.To, pairs)
	}
	regs := chainRegisters(f, p.From, p.To)
	o := f.Operands[p.To]
	alternate := p.From != p.To && (o.Access == isa.RW || readsDestination(f, o))
	if alternate && len(regs) < 2 {
		return nil, fmt.Errorf("operands: %s: operands %d→%d need two chain registers, found %d", f.Scheme(), p.From, p.To, len(regs))
	}
	a := newAllocator()
	out := make([]string, n)
	for k := range out {
		cur, prev := regs[0], regs[0]
		if alternate {
			cur, prev = regs[k%2], regs[(k+1)%2]
		}
		a.fixed = map[int]string{p.To: cur.to, p.From: prev.from}
		if p.From == p.To {
			a.fixed[p.To] = cur.to
		}
		a.avoid = map[string]bool{regs[0].alias: true}
		if alternate {
			a.avoid[regs[1].alias] = true
		}
		s, err := a.instantiate(f)
		if err != nil {
			return nil, fmt.Errorf("operands: instantiating %s: %w", f.Scheme(), err)
		}
		out[k] = s
	}
	return out, nil
}
