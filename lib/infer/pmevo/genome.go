package pmevo

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/portlab/portlab/lib/portmap"
)

// randomGenome draws an initial candidate (thesis §5.1.3): for every
// instruction i a uniformly random number of 1 to |P| (or maxUops) distinct
// µops, each a
// uniformly random non-empty port set u, with a count drawn uniformly from
// [1, ⌈t(i)·|u|⌉] — more copies would make the singleton slower than
// measured.
func (p *problem) randomGenome(r *rand.Rand, maxUops int) genome {
	if maxUops <= 0 || maxUops > p.nports {
		maxUops = p.nports
	}
	g := make(genome, len(p.insns))
	for i := range g {
		k := 1 + r.IntN(maxUops)
		es := make([]entry, 0, k)
		for len(es) < k {
			u := p.randomPorts(r)
			if slices.ContainsFunc(es, func(e entry) bool { return e.ports == u }) {
				continue
			}
			hi := int(math.Ceil(p.single[i]*float64(u.Len()) - 1e-9))
			es = append(es, entry{u, int32(1 + r.IntN(max(hi, 1)))})
		}
		sortEntries(es)
		g[i] = es
	}
	return g
}

// randomPorts draws a uniformly random non-empty subset of the ports.
func (p *problem) randomPorts(r *rand.Rand) portmap.PortSet {
	for {
		if u := portmap.PortSet(r.Uint64()) & p.all; u != 0 {
			return u
		}
	}
}

// recombine is PMEvo's only evolutionary operator: for every instruction
// the entries of both parents are concatenated, shuffled and split at a
// random point into two non-empty parts, one for each child. Entries with
// equal port sets are merged (this changes neither throughput nor volume).
func recombine(r *rand.Rand, a, b genome) (genome, genome) {
	c1, c2 := make(genome, len(a)), make(genome, len(a))
	var buf []entry
	for i := range a {
		buf = append(append(buf[:0], a[i]...), b[i]...)
		r.Shuffle(len(buf), func(x, y int) { buf[x], buf[y] = buf[y], buf[x] })
		cut := 1 + r.IntN(len(buf)-1)
		c1[i] = merged(buf[:cut])
		c2[i] = merged(buf[cut:])
	}
	return c1, c2
}

// merged returns a fresh, sorted copy of es with equal port sets merged.
func merged(es []entry) []entry {
	out := make([]entry, 0, len(es))
next:
	for _, e := range es {
		for k := range out {
			if out[k].ports == e.ports {
				out[k].n += e.n
				continue next
			}
		}
		out = append(out, e)
	}
	sortEntries(out)
	return out
}

func sortEntries(es []entry) {
	slices.SortFunc(es, func(x, y entry) int {
		if x.ports < y.ports {
			return -1
		}
		if x.ports > y.ports {
			return 1
		}
		return 0
	})
}

// mutate applies one random small change to one random instruction of g
// (which must be a fresh copy): a count ±1, a port added to or removed from a
// µop, or a new single µop. Mutation is not part of PMEvo (the paper found it
// did not pay off at population 100,000); it helps small populations.
func (p *problem) mutate(r *rand.Rand, g genome) {
	i := r.IntN(len(g))
	es := slices.Clone(g[i])
	k := r.IntN(len(es))
	switch r.IntN(4) {
	case 0:
		es[k].n++
	case 1:
		if es[k].n > 1 || len(es) > 1 {
			es[k].n--
		}
	case 2:
		es[k].ports ^= portmap.PortSet(1) << r.IntN(p.nports)
		if es[k].ports == 0 {
			es[k].ports = portmap.PortSet(1) << r.IntN(p.nports)
		}
	case 3:
		es = append(es, entry{portmap.PortSet(1) << r.IntN(p.nports), 1})
	}
	g[i] = compact(es)
}

// compact merges equal port sets, drops zero counts and sorts.
func compact(es []entry) []entry {
	out := merged(es)
	return slices.DeleteFunc(out, func(e entry) bool { return e.n <= 0 })
}

// key returns a hashable identity of g, to find duplicates.
func (g genome) key() string {
	b := make([]byte, 0, 16*len(g))
	for _, es := range g {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(es)))
		for _, e := range es {
			b = binary.LittleEndian.AppendUint64(b, uint64(e.ports))
			b = binary.LittleEndian.AppendUint32(b, uint32(e.n))
		}
	}
	return string(b)
}

// clone returns a deep copy of g.
func (g genome) clone() genome {
	c := make(genome, len(g))
	for i := range g {
		c[i] = slices.Clone(g[i])
	}
	return c
}
