package resource

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"sort"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// Mapping is a conjunctive resource mapping: named abstract resources of
// throughput 1 and, per instruction, its normalised load on each resource
// in cycles per instance. Loads are exact rationals; Cycles evaluates with
// floats, CyclesExact with rationals. The zero value is not usable; make
// one with New.
type Mapping struct {
	name      string
	resources []string
	resIdx    map[string]int
	insns     []string
	insnIdx   map[string]int
	exact     [][]*big.Rat // per instruction, per resource; nil = 0
	load      [][]float64  // the same as floats
}

// New returns a mapping with the named resources and no instructions. It
// returns an error for an empty or repeated resource name.
func New(name string, resources ...string) (*Mapping, error) {
	m := &Mapping{name: name, resIdx: map[string]int{}, insnIdx: map[string]int{}}
	for _, r := range resources {
		if _, err := m.AddResource(r); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// MustNew is New that panics on error, for examples and literals.
func MustNew(name string, resources ...string) *Mapping {
	m, err := New(name, resources...)
	if err != nil {
		panic(err)
	}
	return m
}

// AddResource adds a resource no instruction uses yet and returns its
// index. It returns an error for an empty or repeated name.
func (m *Mapping) AddResource(name string) (int, error) {
	if name == "" {
		return 0, fmt.Errorf("resource: mapping %q: empty resource name", m.name)
	}
	if _, dup := m.resIdx[name]; dup {
		return 0, fmt.Errorf("resource: mapping %q: resource %q given twice", m.name, name)
	}
	m.resIdx[name] = len(m.resources)
	m.resources = append(m.resources, name)
	for i := range m.exact {
		m.exact[i] = append(m.exact[i], nil)
		m.load[i] = append(m.load[i], 0)
	}
	return len(m.resources) - 1, nil
}

// Name returns the mapping's name, the predictor name.
func (m *Mapping) Name() string { return m.name }

// SetName sets the mapping's name.
func (m *Mapping) SetName(name string) { m.name = name }

// Resources returns the resource names in index order.
func (m *Mapping) Resources() []string { return append([]string(nil), m.resources...) }

// NumResources returns the number of resources.
func (m *Mapping) NumResources() int { return len(m.resources) }

// Resource returns the index of the named resource.
func (m *Mapping) Resource(name string) (int, bool) {
	r, ok := m.resIdx[name]
	return r, ok
}

// Instructions returns the mapped instructions in the order they were
// added.
func (m *Mapping) Instructions() []string { return append([]string(nil), m.insns...) }

// Len returns the number of mapped instructions.
func (m *Mapping) Len() int { return len(m.insns) }

// Has reports whether insn is mapped.
func (m *Mapping) Has(insn string) bool { _, ok := m.insnIdx[insn]; return ok }

// AddInstruction maps insn with no load on any resource (it then costs
// nothing) unless it is mapped already; it returns its index.
func (m *Mapping) AddInstruction(insn string) (int, error) {
	if insn == "" {
		return 0, fmt.Errorf("resource: mapping %q: empty instruction name", m.name)
	}
	if i, ok := m.insnIdx[insn]; ok {
		return i, nil
	}
	m.insnIdx[insn] = len(m.insns)
	m.insns = append(m.insns, insn)
	m.exact = append(m.exact, make([]*big.Rat, len(m.resources)))
	m.load = append(m.load, make([]float64, len(m.resources)))
	return len(m.insns) - 1, nil
}

// SetLoad sets the load ρ(insn, resource) in cycles per instance, adding
// insn if it is not mapped. It returns an error for an unknown resource or
// a negative load; a zero load removes the edge.
func (m *Mapping) SetLoad(insn, resource string, rho *big.Rat) error {
	r, ok := m.resIdx[resource]
	if !ok {
		return fmt.Errorf("resource: mapping %q: instruction %q: unknown resource %q", m.name, insn, resource)
	}
	return m.SetLoadAt(insn, r, rho)
}

// SetLoadAt is SetLoad with the resource given by index.
func (m *Mapping) SetLoadAt(insn string, r int, rho *big.Rat) error {
	if r < 0 || r >= len(m.resources) {
		return fmt.Errorf("resource: mapping %q: instruction %q: resource index %d outside 0..%d", m.name, insn, r, len(m.resources)-1)
	}
	if rho.Sign() < 0 {
		return fmt.Errorf("resource: mapping %q: instruction %q: negative load %s on %s", m.name, insn, rho.RatString(), m.resources[r])
	}
	i, err := m.AddInstruction(insn)
	if err != nil {
		return err
	}
	if rho.Sign() == 0 {
		m.exact[i][r], m.load[i][r] = nil, 0
		return nil
	}
	v := new(big.Rat).Set(rho)
	f, _ := v.Float64()
	m.exact[i][r], m.load[i][r] = v, f
	return nil
}

// MustSetLoad is SetLoad with the load written as a fraction ("1/3", "2")
// that panics on error; it returns m so that small mappings can be written
// as one expression.
func (m *Mapping) MustSetLoad(insn, resource, rho string) *Mapping {
	v, ok := new(big.Rat).SetString(rho)
	if !ok {
		panic(fmt.Sprintf("resource: load %q of %s on %s is not a fraction", rho, insn, resource))
	}
	if err := m.SetLoad(insn, resource, v); err != nil {
		panic(err)
	}
	return m
}

// Load returns ρ(insn, resource) exactly (0 when there is no edge or insn
// or resource is unknown). The result is a copy.
func (m *Mapping) Load(insn, resource string) *big.Rat {
	i, ok1 := m.insnIdx[insn]
	r, ok2 := m.resIdx[resource]
	if !ok1 || !ok2 || m.exact[i][r] == nil {
		return new(big.Rat)
	}
	return new(big.Rat).Set(m.exact[i][r])
}

// Loads returns the loads of insn as floats, indexed like Resources, and
// whether insn is mapped.
func (m *Mapping) Loads(insn string) ([]float64, bool) {
	i, ok := m.insnIdx[insn]
	if !ok {
		return nil, false
	}
	return append([]float64(nil), m.load[i]...), true
}

// Users returns the instructions with a non-zero load on resource r.
func (m *Mapping) Users(r int) []string {
	var out []string
	for i, insn := range m.insns {
		if m.exact[i][r] != nil {
			out = append(out, insn)
		}
	}
	return out
}

// Clone returns a deep copy of m.
func (m *Mapping) Clone() *Mapping {
	c := MustNew(m.name, m.resources...)
	for i, insn := range m.insns {
		c.AddInstruction(insn)
		for r, v := range m.exact[i] {
			if v != nil {
				c.exact[i][r] = new(big.Rat).Set(v)
				c.load[i][r] = m.load[i][r]
			}
		}
	}
	return c
}

// UnknownInstructionError reports an experiment naming an instruction the
// mapping does not map.
type UnknownInstructionError struct {
	Insn, Mapping string
}

func (e *UnknownInstructionError) Error() string {
	return fmt.Sprintf("resource: unknown instruction %q (not in mapping %q)", e.Insn, e.Mapping)
}

// Cycles returns the modelled inverse throughput of e, t(e) = max_r Σ
// σ·ρ, in cycles per execution of the multiset, and the bottleneck
// resource (the first reaching the maximum; -1 when e uses no resource).
// It returns an *UnknownInstructionError for an instruction m does not map.
func (m *Mapping) Cycles(e portmap.Experiment) (float64, int, error) {
	items := e.Items()
	rows := make([]int, len(items))
	for j, it := range items {
		i, ok := m.insnIdx[it.Insn]
		if !ok {
			return 0, -1, &UnknownInstructionError{Insn: it.Insn, Mapping: m.name}
		}
		rows[j] = i
	}
	best, arg := 0.0, -1
	for r := range m.resources {
		s := 0.0
		for j, it := range items {
			s += float64(it.Count) * m.load[rows[j]][r]
		}
		if s > best {
			best, arg = s, r
		}
	}
	return best, arg, nil
}

// CyclesExact is Cycles in exact rational arithmetic.
func (m *Mapping) CyclesExact(e portmap.Experiment) (*big.Rat, int, error) {
	items := e.Items()
	rows := make([]int, len(items))
	for j, it := range items {
		i, ok := m.insnIdx[it.Insn]
		if !ok {
			return nil, -1, &UnknownInstructionError{Insn: it.Insn, Mapping: m.name}
		}
		rows[j] = i
	}
	best, arg := new(big.Rat), -1
	s, term := new(big.Rat), new(big.Rat)
	for r := range m.resources {
		s.SetInt64(0)
		for j, it := range items {
			if v := m.exact[rows[j]][r]; v != nil {
				term.SetInt64(int64(it.Count))
				s.Add(s, term.Mul(term, v))
			}
		}
		if s.Cmp(best) > 0 {
			best.Set(s)
			arg = r
		}
	}
	return best, arg, nil
}

// Predict returns the modelled inverse throughputs of exps; experiments
// with an instruction m does not map get NaN and are listed in an
// *oracle.UnsupportedError (see oracle.Predictor).
func (m *Mapping) Predict(ctx context.Context, exps []portmap.Experiment) ([]float64, error) {
	values := make([]float64, len(exps))
	var failures []portmap.Failure
	for i, e := range exps {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		t, _, err := m.Cycles(e)
		if err != nil {
			insn := ""
			if u, ok := err.(*UnknownInstructionError); ok {
				insn = u.Insn
			}
			failures = append(failures, portmap.Failure{Index: i, Experiment: e, Insn: insn, Reason: err.Error()})
			values[i] = math.NaN()
			continue
		}
		values[i] = t
	}
	return oracle.Unsupported(m.name, values, failures)
}

var _ oracle.Predictor = (*Mapping)(nil)

// Usage is the load one resource carries in an Explanation.
type Usage struct {
	Resource string
	// Cycles is Σ σ·ρ over the kernel, Utilisation Cycles/t(K): 1 for the
	// bottleneck.
	Cycles, Utilisation float64
}

// Explanation is a kernel's modelled throughput with the load on every
// resource it uses, largest first.
type Explanation struct {
	Experiment portmap.Experiment
	Cycles     float64 // t(K)
	IPC        float64 // |K| / t(K); +Inf when t(K) = 0
	Bottleneck string  // "" when K uses no resource
	Usage      []Usage
}

// Explain returns the modelled throughput of e with its bottleneck and the
// load on every resource e uses.
func (m *Mapping) Explain(e portmap.Experiment) (*Explanation, error) {
	t, arg, err := m.Cycles(e)
	if err != nil {
		return nil, err
	}
	ex := &Explanation{Experiment: e, Cycles: t, IPC: math.Inf(1)}
	if t > 0 {
		ex.IPC = float64(e.Len()) / t
		ex.Bottleneck = m.resources[arg]
	}
	for r, name := range m.resources {
		s := 0.0
		for _, it := range e.Items() {
			s += float64(it.Count) * m.load[m.insnIdx[it.Insn]][r]
		}
		if s > 0 {
			ex.Usage = append(ex.Usage, Usage{Resource: name, Cycles: s, Utilisation: s / t})
		}
	}
	sort.SliceStable(ex.Usage, func(a, b int) bool { return ex.Usage[a].Cycles > ex.Usage[b].Cycles })
	return ex, nil
}

// String formats x as "K: T cycles (IPC x), bottleneck R; R1 100%, R2 67%".
func (x *Explanation) String() string {
	s := fmt.Sprintf("%v: %.4g cycles (IPC %.4g)", x.Experiment, x.Cycles, x.IPC)
	if x.Bottleneck != "" {
		s += ", bottleneck " + x.Bottleneck
	}
	for j, u := range x.Usage {
		if j == 0 {
			s += "; "
		} else {
			s += ", "
		}
		s += fmt.Sprintf("%s %.0f%%", u.Resource, 100*u.Utilisation)
	}
	return s
}

// Rational returns a simple fraction within tol of x (absolute): the first
// continued-fraction convergent that close, so that 0.33333333 becomes
// 1/3. Inferred loads are floats; Rational makes them readable exact
// loads. It returns x's exact binary value when no convergent with a
// denominator up to 10⁶ is close enough, and 0 for x ≤ 0 or not finite.
func Rational(x, tol float64) *big.Rat {
	if !(x > 0) || math.IsInf(x, 0) {
		return new(big.Rat)
	}
	// Convergents h/k of the continued fraction of x.
	h0, h1 := int64(0), int64(1)
	k0, k1 := int64(1), int64(0)
	y := x
	for range 40 {
		a := math.Floor(y)
		if a > 1e12 {
			break
		}
		ai := int64(a)
		h0, h1 = h1, ai*h1+h0
		k0, k1 = k1, ai*k1+k0
		if k1 > 1e6 {
			break
		}
		if math.Abs(float64(h1)/float64(k1)-x) <= tol {
			return big.NewRat(h1, k1)
		}
		f := y - a
		if f < 1e-15 {
			break
		}
		y = 1 / f
	}
	return new(big.Rat).SetFloat64(x)
}
