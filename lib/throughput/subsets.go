package throughput

import (
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/portlab/portlab/lib/portmap"
)

// The subset-table path: for a mapping with at most 11 ports, every port
// set Q can simply be visited, with vector instructions. Each instruction
// gets a table, built on first use, of the number of its µops that run only
// on Q,
//
//	T_i[Q] = Σ_{µops u of i, ports(u) ⊆ Q} count(u),
//
// one byte per Q. The mass function of an experiment is the sum of its
// instructions' tables, mass(Q) = Σ_i n_i·T_i[Q], added 32 or 64 port sets
// at a time. The port sets are laid out by size, so that the best ratio
// max_k (max_{|Q|=k} mass(Q))/k needs one maximum per size. The bottleneck
// ports, the union of all maximizers, are themselves a maximizer (the
// maximizers of the supermodular mass(Q) − t*·|Q| are closed under union),
// so they are the one maximizer in the largest size that reaches the best
// ratio. The work is (instructions × 2^|P|) byte additions, 64 or 32 at a
// time, whatever the µops look like, where the other methods grow with the
// number of distinct µop kinds; on 10 ports it is 16 AVX-512 additions per
// instruction. Bytes limit an experiment to 255 µops, and the kernels to 32
// instructions; larger experiments, and CPUs without AVX2, take the other
// methods, and so do experiments with at most five µop entries (µops of
// distinct port sets per instruction, times its count), which the
// enumeration of small.go evaluates faster.
//
// The kernels are generated (internal/gensubsets): loop kernels for any
// layout, and for 1 to 10 ports kernels unrolled for the port count, with
// AVX2 and with AVX-512BW; the AVX-512 ones keep all sums in registers.

const (
	// maxSubsetPorts bounds the ports of a mapping for subset tables.
	maxSubsetPorts = 11
	// maxSubsetTerms bounds the instructions (with repetition) of an
	// experiment on this path.
	maxSubsetTerms = 32
	// maxSubsetMass bounds the µops of an experiment on this path.
	maxSubsetMass = 255
)

// subsetLayout orders the non-empty port sets over n ports by size, in
// vectors of w bytes.
type subsetLayout struct {
	n    int
	w    int
	nvec int
	// unrolled says whether the layout is the one of the unrolled kernels
	// (no padding between sizes).
	unrolled bool
	// ends[k-1] is one past the last vector of the sets of size k (for
	// the loop kernels; in an unrolled layout sizes share vectors).
	ends [maxSubsetPorts]uint8
	// order[j] is the port set at byte j of a table (0 for padding), and
	// index[q] the byte of port set q.
	order []uint16
	index []uint16
}

// layouts caches newSubsetLayout's results by w<<8 | n.
var layouts sync.Map

// newSubsetLayout returns the layout of n ports in vectors of w bytes for
// the fastest kernel (shared: layouts are not changed after they are made).
func newSubsetLayout(n, w int) *subsetLayout {
	if l, ok := layouts.Load(w<<8 | n); ok {
		return l.(*subsetLayout)
	}
	l, _ := layouts.LoadOrStore(w<<8|n, newSubsetLayoutOf(n, w, n <= maxUnrolled))
	return l.(*subsetLayout)
}

// newSubsetLayoutOf returns the layout for n ports in vectors of w bytes,
// for the unrolled kernel if unrolled, else for the loop kernels.
func newSubsetLayoutOf(n, w int, unrolled bool) *subsetLayout {
	l := &subsetLayout{n: n, w: w, unrolled: unrolled}
	for k := 1; k <= n; k++ {
		for q := 1; q < 1<<n; q++ {
			if bits.OnesCount(uint(q)) == k {
				l.order = append(l.order, uint16(q))
			}
		}
		for !l.unrolled && len(l.order)%w != 0 {
			l.order = append(l.order, 0)
		}
		l.ends[k-1] = uint8(len(l.order) / w)
	}
	for len(l.order)%w != 0 {
		l.order = append(l.order, 0)
	}
	l.nvec = len(l.order) / w
	l.index = make([]uint16, 1<<n)
	for j, q := range l.order {
		if q != 0 {
			l.index[q] = uint16(j)
		}
	}
	return l
}

// subsetTables are the tables of a Model's instructions.
type subsetTables struct {
	*subsetLayout
	insn []subsetInsn
}

// subsetInsn is an instruction of a Model for the subset tables.
type subsetInsn struct {
	tab  atomic.Pointer[byte] // its table, once built
	uops int64                // its number of µops
	// entries is its number of µops with different port sets.
	entries int64
}

// maxFewEntries is the number of µop entries of an experiment up to which
// the enumeration of small.go is faster than a subset scan.
const maxFewEntries = 5

func newSubsetTables(md *Model) *subsetTables {
	if subsetWidth == 0 || md.nports > maxSubsetPorts || md.nports == 0 {
		return nil
	}
	return newSubsetTablesFor(md, newSubsetLayout(md.nports, subsetWidth))
}

// newSubsetTablesFor returns tables of md in the layout l.
func newSubsetTablesFor(md *Model, l *subsetLayout) *subsetTables {
	st := &subsetTables{subsetLayout: l, insn: make([]subsetInsn, len(md.off)-1)}
	for i := range st.insn {
		for k := md.off[i]; k < md.off[i+1]; k++ {
			st.insn[i].uops += md.ucount[k]
		}
		st.insn[i].entries = int64(md.off[i+1] - md.off[i])
	}
	return st
}

// build makes the table of instruction i.
func (st *subsetTables) build(md *Model, i int32) *byte {
	t := make([]byte, len(st.order))
	st.fill(t, md.umask[md.off[i]:md.off[i+1]], md.ucount[md.off[i]:md.off[i+1]])
	p := &st.insn[i].tab
	p.CompareAndSwap(nil, &t[0])
	return p.Load()
}

// few reports whether the experiment has at most maxFewEntries µops with
// different port sets per instruction (counted with repetition), for which
// the enumeration of small.go is faster than a scan.
func (st *subsetTables) few(terms []portmap.Term) bool {
	var entries int64
	for _, t := range terms {
		entries += int64(t.Count) * st.insn[t.Insn].entries
	}
	return entries <= maxFewEntries
}

// bound is Model.bound on the subset tables; ok is false if the experiment
// does not fit them (more than 255 µops or 32 instructions).
func (st *subsetTables) bound(md *Model, terms []portmap.Term) (num int64, den int, bp portmap.PortSet, ninsn, nuops int64, ok bool) {
	var srcs [maxSubsetTerms]*byte
	ns := 0
	for _, t := range terms {
		c := int(t.Count)
		in := &st.insn[t.Insn]
		ninsn += int64(c)
		nuops += int64(c) * in.uops
		if nuops > maxSubsetMass || ns+c > maxSubsetTerms || c <= 0 {
			return 0, 0, 0, 0, 0, false
		}
		p := in.tab.Load()
		if p == nil {
			p = st.build(md, t.Insn)
		}
		for range c {
			srcs[ns] = p
			ns++
		}
	}
	num, den, bp = st.boundOf(unsafe.Pointer(&srcs[0]), ns, nuops)
	return num, den, bp, ninsn, nuops, true
}

// boundOf returns the port bound of the sum of the ns tables at srcs (an
// array of *byte) with nuops ≤ maxSubsetMass µops in all: num µops on the den
// ports bp.
func (l *subsetLayout) boundOf(srcs unsafe.Pointer, ns int, nuops int64) (num int64, den int, bp portmap.PortSet) {
	if nuops == 0 {
		return 0, 1, 0
	}
	best, q := l.scan(srcs, ns)
	// best is the ratio in units of 1/lcm(1..n) (< 255·27720), and the
	// union q of the maximizers is one: its mass is the ratio times its
	// size.
	den = bits.OnesCount64(q)
	num = int64(uint32(best) * uint32(den) / uint32(lcmTable[l.n]))
	return num, den, portmap.PortSet(q)
}

// fill writes the table of counts[k] µops on masks[k] into t, walking the
// supersets of each mask (2^(n−|mask|) steps, not 2^n).
func (l *subsetLayout) fill(t []byte, masks []portmap.PortSet, counts []int64) {
	clear(t)
	all := 1<<l.n - 1
	for k, mk := range masks {
		c := byte(counts[k])
		for q := int(mk); q <= all; q = (q + 1) | int(mk) {
			t[l.index[q]] += c
		}
	}
}
