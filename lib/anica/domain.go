package anica

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/isa"
)

// The features of an abstract instruction (thesis §8.1.4, Table 8.1), in
// the order Feature indexes them.
const (
	FeatForm      = iota // the instruction form (scheme): singleton
	FeatMnemonic         // the mnemonic: edit distance (Table 8.2)
	FeatOperands         // the operand types, implicit ones included: subset
	FeatMemory           // memory use: R, W, S:bits: subset-or-none
	FeatCategory         // the form's category: singleton
	FeatExtension        // the ISA extension: singleton
	numFeatures
)

var featureNames = [numFeatures]string{"form", "mnemonic", "operands", "memory", "category", "extension"}

// FeatureName returns the name of feature f ("mnemonic").
func FeatureName(f int) string {
	if f >= 0 && f < numFeatures {
		return featureNames[f]
	}
	return "feature(" + strconv.Itoa(f) + ")"
}

// Value is the value of one feature of an abstract instruction, an element
// of the feature's lattice (thesis Table 8.2):
//
//   - Top: no constraint (⊤);
//   - singleton features (form, category, extension): Str is the value;
//   - the mnemonic: Str is the base, Dist the edit distance allowed;
//   - set features (operands, memory): Set lists the elements an
//     instruction must have. For memory, None means "uses no memory"
//     (DefNone) and an empty Set "uses memory" (see Domain).
type Value struct {
	Top  bool     `json:"top,omitempty"`
	Str  string   `json:"str,omitempty"`
	Dist int      `json:"dist,omitempty"`
	Set  []string `json:"set,omitempty"`
	None bool     `json:"none,omitempty"`
}

func (v Value) String() string {
	switch {
	case v.Top:
		return "⊤"
	case v.None:
		return "none"
	case v.Set != nil:
		return "{" + strings.Join(v.Set, ", ") + "}"
	}
	return v.Str
}

// Insn is an abstract instruction: one Value per feature.
type Insn []Value

// OpRef names an operand of a block: instruction Insn's explicit operand
// Op (Intel order, destination first), both counted from 0.
type OpRef struct {
	Insn int `json:"insn"`
	Op   int `json:"op"`
}

func (r OpRef) less(s OpRef) bool { return r.Insn < s.Insn || r.Insn == s.Insn && r.Op < s.Op }

// Alias constrains two operands (A before B) to alias (Must) or not to
// alias (!Must): the non-⊤ entries of the aliasing component (thesis
// §8.1.4, Eq. 8.13–8.17). Operands alias when they are registers of one
// alias class (al, ax, eax, rax; xmm3, ymm3) or syntactically identical
// memory references.
type Alias struct {
	A    OpRef `json:"a"`
	B    OpRef `json:"b"`
	Must bool  `json:"must"`
}

// Block is an abstract block (thesis §8.1.4: A = A_in⁺ × A_al): a sequence
// of abstract instructions and the aliasing constraints between their
// operands, sorted by operand.
type Block struct {
	Insns []Insn  `json:"insns"`
	Alias []Alias `json:"alias,omitempty"`
}

// Expansion is one step up the lattice of an abstract block (thesis Eq.
// 8.12, 8.17): it weakens one feature of one instruction, or drops one
// aliasing constraint.
type Expansion struct {
	// Insn and Feature name the feature changed; Elem is the set element
	// removed (set features). Alias ≥ 0 names the aliasing constraint
	// dropped instead.
	Insn, Feature int
	Elem          string
	Alias         int
}

// Domain is the abstract domain over a universe of instruction forms: the
// feature table of every form, the lattices of thesis Table 8.2, β, γ
// (as a membership test and a sampler) and the expansions.
//
// Deviation from Table 8.2: for memory, the empty set means "uses memory"
// (every form with at least one memory access), so that it lies strictly
// below ⊤, as in AnICA's reference implementation; in the thesis' Subset-
// or-None lattice it has the same concretisation as ⊤.
type Domain struct {
	forms    []isa.Form
	feats    [][numFeatures]formValue
	byKey    map[string]int
	parser   *block.Forms
	maxEdit  int
	feasible map[string][]int // abstract instruction key → forms
	Excluded []string         // forms left out of the universe, with the reason
}

// formValue is a feature of a concrete form.
type formValue struct {
	str string
	set []string // sorted
}

// NewDomain builds the domain over forms with the mnemonic edit-distance
// bound maxEdit (thesis footnote 9: 3). Forms the sampler cannot
// instantiate (branches, fixed or templated memory operands, masks,
// broadcasts, registers other than general-purpose and XMM/YMM/ZMM) are
// left out and listed in Excluded. It fails when no form is left.
func NewDomain(forms []isa.Form, maxEdit int) (*Domain, error) {
	if maxEdit < 0 {
		return nil, fmt.Errorf("anica: edit-distance bound %d: must be ≥ 0", maxEdit)
	}
	d := &Domain{byKey: map[string]int{}, maxEdit: maxEdit, feasible: map[string][]int{}}
	for _, f := range forms {
		if _, dup := d.byKey[f.Key()]; dup {
			continue
		}
		if why := unsupported(f); why != "" {
			d.Excluded = append(d.Excluded, f.Key()+": "+why)
			continue
		}
		d.byKey[f.Key()] = len(d.forms)
		d.forms = append(d.forms, f)
		d.feats = append(d.feats, features(f))
	}
	if len(d.forms) == 0 {
		return nil, fmt.Errorf("anica: no instruction form the sampler can instantiate among %d", len(forms))
	}
	d.parser = block.NewForms(d.forms)
	return d, nil
}

// Forms returns the universe of forms.
func (d *Domain) Forms() []isa.Form { return slices.Clone(d.forms) }

// Restrict returns a domain over the forms of d that keep reports true.
func (d *Domain) Restrict(keep func(isa.Form) bool) (*Domain, error) {
	var fs []isa.Form
	for _, f := range d.forms {
		if keep(f) {
			fs = append(fs, f)
		}
	}
	nd, err := NewDomain(fs, d.maxEdit)
	if err != nil {
		return nil, err
	}
	nd.Excluded = append(slices.Clone(d.Excluded), nd.Excluded...)
	return nd, nil
}

func unsupported(f isa.Form) string {
	if f.ISA != isa.X86 {
		return "not x86-64"
	}
	for _, o := range f.Operands {
		if o.Implicit {
			continue
		}
		switch {
		case o.Mask:
			return "write mask"
		case o.Kind == isa.KindLabel:
			return "branch"
		case o.Kind == isa.KindModifier:
			return "modifier"
		case o.Kind == isa.KindMem && (o.Fixed != "" || o.Addr != "" || o.Broadcast != 0):
			return "fixed or templated memory operand"
		case o.Kind == isa.KindReg && o.Fixed == "" && len(o.Regs) == 0 &&
			o.Class != isa.GPR && o.Class != isa.XMM && o.Class != isa.YMM && o.Class != isa.ZMM:
			return "register class " + o.Class.String()
		case o.Kind == isa.KindReg && o.Reserved:
			return "reserved register"
		}
	}
	return ""
}

func features(f isa.Form) [numFeatures]formValue {
	var v [numFeatures]formValue
	v[FeatForm].str = f.Key()
	v[FeatMnemonic].str = mnemonic(f)
	var ops, mem []string
	for _, o := range f.Operands {
		ops = append(ops, o.Scheme())
		if o.Kind == isa.KindMem && o.Access != 0 {
			if o.Access.Reads() {
				mem = append(mem, "R")
			}
			if o.Access.Writes() {
				mem = append(mem, "W")
			}
			mem = append(mem, "S:"+strconv.Itoa(o.Width))
		}
	}
	v[FeatOperands].set = sortedSet(ops)
	v[FeatMemory].set = sortedSet(mem)
	v[FeatCategory].str = f.Category
	v[FeatExtension].str = f.Extension
	return v
}

func mnemonic(f isa.Form) string {
	if f.Prefix != "" {
		return f.Prefix + " " + f.Mnemonic
	}
	return f.Mnemonic
}

func sortedSet(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	return slices.Compact(out)
}

// kinds of the feature lattices.
func isSet(f int) bool { return f == FeatOperands || f == FeatMemory }

// beta returns β of form index i: its exact feature values.
func (d *Domain) betaInsn(i int) Insn {
	in := make(Insn, numFeatures)
	for f := range numFeatures {
		fv := d.feats[i][f]
		switch {
		case f == FeatMemory && len(fv.set) == 0:
			in[f] = Value{None: true}
		case isSet(f):
			in[f] = Value{Set: slices.Clone(fv.set)}
			if in[f].Set == nil {
				in[f].Set = []string{}
			}
		default:
			in[f] = Value{Str: fv.str}
		}
	}
	return in
}

// Top returns ⊤ of length n: n unconstrained instructions, no aliasing
// constraint.
func Top(n int) *Block {
	b := &Block{}
	for range n {
		in := make(Insn, numFeatures)
		for f := range in {
			in[f] = Value{Top: true}
		}
		b.Insns = append(b.Insns, in)
	}
	return b
}

// contains reports whether form i is in γ of feature value v.
func (d *Domain) contains(f int, v Value, i int) bool {
	if v.Top {
		return true
	}
	fv := d.feats[i][f]
	switch f {
	case FeatMnemonic:
		return levenshtein(fv.str, v.Str) <= v.Dist
	case FeatOperands:
		return subset(v.Set, fv.set)
	case FeatMemory:
		if v.None {
			return len(fv.set) == 0
		}
		return len(fv.set) > 0 && subset(v.Set, fv.set)
	}
	return fv.str == v.Str
}

func subset(sub, set []string) bool {
	for _, x := range sub {
		if _, ok := slices.BinarySearch(set, x); !ok {
			return false
		}
	}
	return true
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func (in Insn) key() string {
	var b strings.Builder
	for f, v := range in {
		if f > 0 {
			b.WriteByte('|')
		}
		switch {
		case v.Top:
			b.WriteString("T")
		case v.None:
			b.WriteString("N")
		case isSet(f):
			b.WriteString("{" + strings.Join(v.Set, ";") + "}")
		default:
			b.WriteString(v.Str + "~" + strconv.Itoa(v.Dist))
		}
	}
	return b.String()
}

// Feasible returns the indices (into Forms) of the forms in γ of the
// abstract instruction.
func (d *Domain) Feasible(in Insn) []int {
	k := in.key()
	if fs, ok := d.feasible[k]; ok {
		return fs
	}
	fs := []int{}
	for i := range d.forms {
		ok := true
		for f, v := range in {
			if !d.contains(f, v, i) {
				ok = false
				break
			}
		}
		if ok {
			fs = append(fs, i)
		}
	}
	d.feasible[k] = fs
	return fs
}

// Expansions returns the expansions that apply to a (thesis Eq. 8.12,
// 8.17). While an instruction's form feature is not ⊤, it is the only one
// of that instruction offered: weakening the others first changes nothing
// and could only make later steps fail (as AnICA's reference
// implementation does).
func (d *Domain) Expansions(a *Block) []Expansion {
	var out []Expansion
	for i, in := range a.Insns {
		if !in[FeatForm].Top {
			out = append(out, Expansion{Insn: i, Feature: FeatForm, Alias: -1})
			continue
		}
		for f := 1; f < numFeatures; f++ {
			v := in[f]
			switch {
			case v.Top:
			case isSet(f) && len(v.Set) > 0:
				for _, e := range v.Set {
					out = append(out, Expansion{Insn: i, Feature: f, Elem: e, Alias: -1})
				}
			default:
				out = append(out, Expansion{Insn: i, Feature: f, Alias: -1})
			}
		}
	}
	for k := range a.Alias {
		out = append(out, Expansion{Alias: k})
	}
	return out
}

// Apply returns the block e makes of a; a is not changed.
func (d *Domain) Apply(a *Block, e Expansion) *Block {
	n := a.clone()
	if e.Alias >= 0 {
		n.Alias = slices.Delete(n.Alias, e.Alias, e.Alias+1)
		return n
	}
	v := n.Insns[e.Insn][e.Feature]
	switch {
	case e.Feature == FeatMnemonic && v.Dist < d.maxEdit:
		v.Dist++
	case isSet(e.Feature) && len(v.Set) > 0:
		v.Set = slices.DeleteFunc(slices.Clone(v.Set), func(s string) bool { return s == e.Elem })
		if len(v.Set) == 0 && e.Feature == FeatOperands {
			v = Value{Top: true} // an empty operand set constrains nothing
		}
	default:
		v = Value{Top: true}
	}
	n.Insns[e.Insn][e.Feature] = v
	return n
}

// Describe says what e does to a, e.g. "i2 mnemonic add → add+1".
func (d *Domain) Describe(a *Block, e Expansion) string {
	if e.Alias >= 0 {
		return "drop " + a.Alias[e.Alias].String()
	}
	after := d.Apply(a, e).Insns[e.Insn][e.Feature]
	return fmt.Sprintf("i%d %s %s → %s", e.Insn+1, FeatureName(e.Feature), valueText(e.Feature, a.Insns[e.Insn][e.Feature]), valueText(e.Feature, after))
}

func (b *Block) clone() *Block {
	n := &Block{Alias: slices.Clone(b.Alias)}
	for _, in := range b.Insns {
		n.Insns = append(n.Insns, slices.Clone(in))
	}
	return n
}

func (a Alias) String() string {
	rel := "must alias"
	if !a.Must {
		rel = "must not alias"
	}
	return fmt.Sprintf("op%d of i%d %s op%d of i%d", a.A.Op+1, a.A.Insn+1, rel, a.B.Op+1, a.B.Insn+1)
}

func valueText(f int, v Value) string {
	switch {
	case v.Top:
		return "⊤"
	case f == FeatMnemonic:
		return v.Str + "+" + strconv.Itoa(v.Dist)
	case f == FeatMemory && v.None:
		return "no memory"
	case f == FeatMemory && len(v.Set) == 0:
		return "some memory"
	case !isSet(f) && v.Str == "":
		return "(none)"
	}
	return v.String()
}

// Text returns the abstract block in readable form: one line per abstract
// instruction with its non-⊤ features, then the aliasing constraints.
func (b *Block) Text() string {
	var sb strings.Builder
	for i, in := range b.Insns {
		fmt.Fprintf(&sb, "i%d:", i+1)
		any := false
		for f, v := range in {
			if v.Top {
				continue
			}
			fmt.Fprintf(&sb, " %s %s;", FeatureName(f), valueText(f, v))
			any = true
		}
		if !any {
			sb.WriteString(" any instruction;")
		}
		sb.WriteByte('\n')
	}
	for _, a := range b.Alias {
		sb.WriteString(a.String() + "\n")
	}
	return sb.String()
}

// WithUopsInfo returns forms with the ISA extension and category of
// uops.info (the iwho extract, package dataset) where they have none, as
// the thesis' feature table takes them from uops.info (§8.1.4, Table
// 8.1): the extension and category of the scheme's first encoding
// variant. Forms uops.info does not know are kept as they are.
func WithUopsInfo(forms []isa.Form) ([]isa.Form, error) {
	schemes, err := dataset.UopsInfoSchemes()
	if err != nil {
		return nil, fmt.Errorf("anica: uops.info features: %w", err)
	}
	byName := map[string]int{}
	for i, s := range schemes {
		byName[s.Name] = i
	}
	out := make([]isa.Form, len(forms))
	for i, f := range forms {
		out[i] = f
		if k, ok := byName[f.Key()]; ok && len(schemes[k].Variants) > 0 {
			v := schemes[k].Variants[0]
			if out[i].Extension == "" {
				out[i].Extension = v.Extension
			}
			if out[i].Category == "" {
				out[i].Category = v.Category
			}
		}
	}
	return out, nil
}
