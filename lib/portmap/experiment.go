package portmap

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Item is one instruction of an experiment with its number of occurrences.
type Item struct {
	Insn  string
	Count int
}

// Experiment is a multiset of instructions (thesis Def. 3.1): the model
// ignores order and dependencies, so an experiment is a map from instruction
// to number of occurrences. It is kept canonical — sorted by name, equal names
// merged, no zero counts — so that equal multisets have equal keys.
// The zero value is the empty experiment. Experiments are values: methods
// return new experiments and never modify their receiver.
type Experiment struct {
	items []Item
}

// NewExperiment returns the experiment holding each listed instruction once
// per occurrence in the list, e.g. NewExperiment("add", "add", "mul") is
// {add ↦ 2, mul ↦ 1}. This is how PMEvo's "iseq" lists are read.
// It panics on an empty instruction name (a programming error; data read
// from files goes through the decoders, which report it).
func NewExperiment(insns ...string) Experiment {
	items := make([]Item, len(insns))
	for i, s := range insns {
		if s == "" {
			panic("portmap: NewExperiment: empty instruction name")
		}
		items[i] = Item{s, 1}
	}
	e, err := canonical(items)
	if err != nil {
		panic(err)
	}
	return e
}

// ExperimentOf returns the experiment with the given counts. Zero counts are
// dropped; a negative count, a count above MaxCount or an empty instruction
// name is an error.
func ExperimentOf(counts map[string]int) (Experiment, error) {
	items := make([]Item, 0, len(counts))
	for s, n := range counts {
		items = append(items, Item{s, n})
	}
	return ExperimentOfItems(items...)
}

// ExperimentOfItems is ExperimentOf for a list of items; repeated names are
// added up.
func ExperimentOfItems(items ...Item) (Experiment, error) {
	for _, it := range items {
		if it.Insn == "" {
			return Experiment{}, fmt.Errorf("portmap: experiment has an empty instruction name")
		}
		if it.Count < 0 {
			return Experiment{}, fmt.Errorf("portmap: instruction %q has negative count %d", it.Insn, it.Count)
		}
		if it.Count > MaxCount {
			return Experiment{}, fmt.Errorf("portmap: instruction %q has count %d, more than %d", it.Insn, it.Count, MaxCount)
		}
	}
	return canonical(append([]Item(nil), items...))
}

// mustCanonical is canonical for the methods, which panic on overflow.
func mustCanonical(items []Item) Experiment {
	e, err := canonical(items)
	if err != nil {
		panic(err)
	}
	return e
}

// canonical sorts and merges items (counts within 0..MaxCount).
func canonical(items []Item) (Experiment, error) {
	sort.SliceStable(items, func(a, b int) bool { return items[a].Insn < items[b].Insn })
	out := items[:0]
	for _, it := range items {
		if it.Count == 0 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Insn == it.Insn {
			if out[n-1].Count > MaxCount-it.Count {
				return Experiment{}, fmt.Errorf("portmap: instruction %q: count %d + %d exceeds %d", it.Insn, out[n-1].Count, it.Count, MaxCount)
			}
			out[n-1].Count += it.Count
			continue
		}
		out = append(out, it)
	}
	if len(out) == 0 {
		return Experiment{}, nil
	}
	return Experiment{items: out}, nil
}

// With returns e with n more occurrences of insn (n may be negative to remove
// occurrences; the count never drops below zero). It panics on an empty name
// or a count above MaxCount.
func (e Experiment) With(insn string, n int) Experiment {
	if insn == "" {
		panic("portmap: With: empty instruction name")
	}
	items := append(make([]Item, 0, len(e.items)+1), e.items...)
	for i := range items {
		if items[i].Insn == insn {
			if n > MaxCount-items[i].Count {
				panic(fmt.Sprintf("portmap: With: count of %q exceeds %d", insn, MaxCount))
			}
			items[i].Count = max(0, items[i].Count+n)
			return mustCanonical(items)
		}
	}
	if n > MaxCount {
		panic(fmt.Sprintf("portmap: With: count of %q exceeds %d", insn, MaxCount))
	}
	if n > 0 {
		items = append(items, Item{insn, n})
	}
	return mustCanonical(items)
}

// Plus returns the multiset sum of e and f. It panics if a count would
// exceed MaxCount.
func (e Experiment) Plus(f Experiment) Experiment {
	return mustCanonical(append(append(make([]Item, 0, len(e.items)+len(f.items)), e.items...), f.items...))
}

// Scale returns e with every count multiplied by n ≥ 0. It panics if a count
// would exceed MaxCount.
func (e Experiment) Scale(n int) Experiment {
	if n < 0 {
		panic("portmap: negative scale factor")
	}
	items := append([]Item(nil), e.items...)
	for i := range items {
		if n > 0 && items[i].Count > MaxCount/n {
			panic(fmt.Sprintf("portmap: Scale: count of %q exceeds %d", items[i].Insn, MaxCount))
		}
		items[i].Count *= n
	}
	return mustCanonical(items)
}

// Items returns the instructions of e with their counts, sorted by name.
func (e Experiment) Items() []Item { return append([]Item(nil), e.items...) }

// Count returns the number of occurrences of insn in e.
func (e Experiment) Count(insn string) int {
	i := sort.Search(len(e.items), func(i int) bool { return e.items[i].Insn >= insn })
	if i < len(e.items) && e.items[i].Insn == insn {
		return e.items[i].Count
	}
	return 0
}

// Len returns the size |e| of the experiment: the total number of
// instruction occurrences.
func (e Experiment) Len() int {
	n := 0
	for _, it := range e.items {
		n += it.Count
	}
	return n
}

// Distinct returns the number of distinct instructions in e.
func (e Experiment) Distinct() int { return len(e.items) }

// List returns e as a list of instruction names, each repeated by its count,
// in canonical order (PMEvo's "iseq").
func (e Experiment) List() []string {
	out := make([]string, 0, e.Len())
	for _, it := range e.items {
		for j := 0; j < it.Count; j++ {
			out = append(out, it.Insn)
		}
	}
	return out
}

// Key returns a string that identifies the multiset: two experiments have the
// same key exactly when they hold the same instructions with the same counts.
// Use it as a map key for caching and de-duplication.
func (e Experiment) Key() string {
	var b strings.Builder
	for i, it := range e.items {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Quote(it.Insn))
		if it.Count != 1 {
			b.WriteByte('*')
			b.WriteString(strconv.Itoa(it.Count))
		}
	}
	return b.String()
}

// Equal reports whether e and f are the same multiset.
func (e Experiment) Equal(f Experiment) bool {
	if len(e.items) != len(f.items) {
		return false
	}
	for i := range e.items {
		if e.items[i] != f.items[i] {
			return false
		}
	}
	return true
}

// String formats e in the thesis notation, e.g. "{add ↦ 2, mul ↦ 1}".
func (e Experiment) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, it := range e.items {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s ↦ %d", it.Insn, it.Count)
	}
	b.WriteByte('}')
	return b.String()
}

// Term is one instruction of an indexed experiment: an instruction index into
// an Architecture and its count.
type Term struct {
	Insn  int32
	Count int32
}

// Indexed is an experiment whose instructions are indices into Arch. It is the
// form the throughput engine evaluates millions of times per second; make it
// once with Architecture.Index.
type Indexed struct {
	Arch  *Architecture
	Terms []Term
}

// Experiment returns the named form of x.
func (x Indexed) Experiment() Experiment {
	items := make([]Item, len(x.Terms))
	for j, t := range x.Terms {
		items[j] = Item{x.Arch.insns[t.Insn], int(t.Count)}
	}
	return mustCanonical(items)
}
