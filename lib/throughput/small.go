package throughput

import (
	"math/bits"

	"github.com/portlab/portlab/lib/portmap"
)

// The fast path for the common case: at most 16 ports (after compressing
// the cover) and at most 32 µop kinds. Ports and kinds are bits of one
// word, ratios are compared as whole numbers in units of 1/lcm(1..|cover|),
// and the hot loops avoid data-dependent branches, which cost more than the
// arithmetic here because they are mispredicted.
//
// Up to six kinds, all their sets are enumerated (enumAll). Otherwise the
// µops with a single port are folded into a base load per port: with b_p
// the base load of port p and S a set of kinds with two or more ports, N(S)
// their ports,
//
//	t* = max( max_p b_p,  max_S (w(S) + Σ_{p∈N(S)} b_p) / |N(S)| ),
//
// because a union Q of port sets splits into N(S), S the multi-port kinds
// inside Q, and single ports outside N(S), and its ratio is a mediant of
// theirs; for the same reason every maximizer is a union of maximizing sets
// N(S) and ports with b_p = t*, so the bottleneck ports are the union of
// those. Up to six multi-port kinds, all sets S are enumerated
// (enumFolded); more are scheduled by the flow method of flow.go on bitsets
// (flow).

const (
	smallPorts = 16
	// maxKinds bounds the kinds of an experiment on the fast path.
	maxKinds = 32
	// maxAllKinds is the number of kinds up to which enumAll is used.
	maxAllKinds = 6
	// maxEnumKinds is the number of multi-port kinds up to which
	// enumFolded is used.
	maxEnumKinds = 6
)

// kinds is an experiment's µop mass by kind, on at most 16 ports.
type kinds struct {
	d     int // number of kinds
	cover uint32
	total int64
	km    [maxKinds]uint32 // port set of each kind (0 beyond d)
	kw    [maxKinds]int64  // mass of each kind (0 beyond d)
	// expand, if not zero, is the original cover that ports were
	// compressed from.
	expand portmap.PortSet
}

// folded is the µop mass with single-port µops folded into base loads.
type folded struct {
	base   [smallPorts]int64 // mass of single-port µops per port
	single uint32            // ports with single-port µops
	cover  uint32            // all ports used
	total  int64             // all mass
	m      int               // number of multi-port kinds
	mm     [maxKinds]uint32  // their port sets
	mw     [maxKinds]int64   // their masses
}

// lcmDiv[n][k] = lcm(1..n)/k: a ratio f/k in units of 1/lcm(1..n), exact
// for k ≤ n.
var lcmDiv = func() (t [smallPorts + 1][32]int64) {
	for n := 1; n <= smallPorts; n++ {
		for k := 1; k <= n; k++ {
			t[n][k] = lcmTable[n] / int64(k)
		}
	}
	return t
}()

// gather lists masks and mass in ks and returns false if they do not fit
// (more than 16 ports or 32 masks) or a mask is empty. Equal masks are not
// merged: the methods below allow them.
func (ks *kinds) gather(masks []portmap.PortSet, mass []int64) bool {
	if len(masks) > maxKinds {
		return false
	}
	var cover portmap.PortSet
	for _, mk := range masks {
		cover |= mk
	}
	compressed := cover >= 1<<smallPorts
	if compressed && cover.Len() > smallPorts {
		return false
	}
	ks.cover, ks.d = uint32(cover), len(masks)
	if compressed {
		ks.cover = 1<<cover.Len() - 1
		ks.expand = cover
	}
	mass = mass[:len(masks)]
	for k, mk := range masks {
		if mk == 0 {
			return false
		}
		c := uint32(mk)
		if compressed {
			c = uint32(compress(mk, cover))
		}
		ks.km[k], ks.kw[k] = c, mass[k]
		ks.total += mass[k]
	}
	return true
}

// foldedBound returns the port bound of masks and mass by the fast path,
// num µops on the den ports bp, or ok = false if they do not fit it.
func foldedBound(masks []portmap.PortSet, mass []int64) (num int64, den int, bp portmap.PortSet, ok bool) {
	var ks kinds
	if !ks.gather(masks, mass) {
		return 0, 0, 0, false
	}
	b, ok := ks.solve()
	if !ok {
		return 0, 0, 0, false
	}
	num, den = ks.tally(b)
	bp = portmap.PortSet(b)
	if ks.expand != 0 {
		bp = expand(uint(b), ks.expand)
	}
	return num, den, bp, true
}

// solve returns the bottleneck ports of ks (see tally for the bound), and
// ok = false if its masses are too large for the scaled arithmetic (the
// caller then takes the general path).
func (ks *kinds) solve() (bp uint32, ok bool) {
	if ks.total <= 0 {
		return 0, ks.total == 0
	}
	np := bits.OnesCount32(ks.cover)
	if ks.total > (1<<31-1)/lcmTable[np] {
		return 0, false
	}
	switch {
	case ks.d == 1:
		return ks.km[0], true
	case ks.d <= maxAllKinds:
		return ks.enumAll(np), true
	}
	return ks.solveFolded(np)
}

// solveFolded is solve for more than maxAllKinds kinds. The tables of
// enumFolded hold 8 bits of port count below the base loads in 32 bits.
func (ks *kinds) solveFolded(np int) (uint32, bool) {
	var fd folded
	ks.fold(&fd)
	if fd.m <= maxEnumKinds && fd.total < 1<<23 {
		return fd.enumFolded(np), true
	}
	return fd.flow(np), true
}

// fold folds ks into fd without data-dependent branches (they would be
// mispredicted for a quarter of the kinds): a single-port kind adds its
// mass to its port's base load, any other kind adds 0 there and is
// appended to the list.
func (ks *kinds) fold(fd *folded) {
	fd.cover, fd.total = ks.cover, ks.total
	var single uint32
	m := 0
	for k, c := range ks.km[:ks.d] {
		w := ks.kw[k]
		sw, sc, inc := w, c, 0
		if c&(c-1) != 0 {
			sw, sc, inc = 0, 0, 1
		}
		fd.base[bits.TrailingZeros32(c)&(smallPorts-1)] += sw
		single |= sc
		fd.mm[m&(maxKinds-1)], fd.mw[m&(maxKinds-1)] = c, w
		m += inc
	}
	fd.single, fd.m = single, m
	if m < maxKinds {
		fd.mm[m], fd.mw[m] = 0, 0 // a single-port kind may lie there
	}
}

// tally returns the port bound on the bottleneck ports bp: the mass of
// the µops that run only there, and |bp| (1 if bp is empty).
func (ks *kinds) tally(bp uint32) (num int64, den int) {
	for k, c := range ks.km[:ks.d] {
		w := ks.kw[k]
		if c&^bp != 0 {
			w = 0 // a conditional move, not a branch
		}
		num += w
	}
	return num, max(1, bits.OnesCount32(bp))
}

// enumAll enumerates all sets of at most six kinds with few data-dependent
// branches: missing kinds are empty (no ports, no mass), which only repeats
// sets; the unions and masses of the sets of the first three kinds are
// tabulated, and every set is one of them joined with a set of the others,
// in steps that do not wait for each other.
func (ks *kinds) enumAll(np int) uint32 {
	km, kw := &ks.km, &ks.kw
	var ql [8]uint32
	var fl [8]int64
	ql[1], fl[1] = km[0], kw[0]
	ql[2], fl[2] = km[1], kw[1]
	ql[3], fl[3] = km[0]|km[1], kw[0]+kw[1]
	for i := 4; i < 8; i++ {
		ql[i], fl[i] = ql[i-4]|km[2], fl[i-4]+kw[2]
	}
	div := &lcmDiv[np]
	var best int64
	var bp uint32
	for h := 0; h < 1<<max(ks.d-3, 0); h++ {
		qh, fh := km[3]&-uint32(h&1), kw[3]&-int64(h&1)
		qh, fh = qh|km[4]&-uint32(h>>1&1), fh+kw[4]&-int64(h>>1&1)
		qh, fh = qh|km[5]&-uint32(h>>2&1), fh+kw[5]&-int64(h>>2&1)
		best, bp = betterSet(best, bp, qh|ql[0], fh+fl[0], div)
		best, bp = betterSet(best, bp, qh|ql[1], fh+fl[1], div)
		best, bp = betterSet(best, bp, qh|ql[2], fh+fl[2], div)
		best, bp = betterSet(best, bp, qh|ql[3], fh+fl[3], div)
		best, bp = betterSet(best, bp, qh|ql[4], fh+fl[4], div)
		best, bp = betterSet(best, bp, qh|ql[5], fh+fl[5], div)
		best, bp = betterSet(best, bp, qh|ql[6], fh+fl[6], div)
		best, bp = betterSet(best, bp, qh|ql[7], fh+fl[7], div)
	}
	return bp
}

// betterSet returns the best ratio and the union of the port sets
// reaching it after the port set q with mass f: ratios are f·div[|q|]. It
// compiles to conditional moves.
func betterSet(best int64, bp, q uint32, f int64, div *[32]int64) (int64, uint32) {
	key := f * div[bits.OnesCount32(q)&31]
	nb := bp | q
	if key > best {
		nb = q
	}
	if key >= best {
		bp = nb
	}
	return max(best, key), bp
}

// enumFolded enumerates all sets of multi-port kinds with few
// data-dependent branches, in blocks of 16 sets: the sets of the first four
// kinds (missing ones empty) joined with one set of the others. For a port
// set q the sum v(q) = Σ_{p∈q} (b_p<<8 | 1) gives both the base load inside
// q, v>>8, and |q| = v&255; it is read from four tables of 16, one per
// group of four ports (solveFolded has checked that the mass fits 23
// bits).
func (fd *folded) enumFolded(np int) uint32 {
	var tab [4][16]int32
	for g := range tab {
		t := &tab[g]
		u0 := int32(fd.base[4*g])<<8 | 1
		u1 := int32(fd.base[4*g+1])<<8 | 1
		u2 := int32(fd.base[4*g+2])<<8 | 1
		u3 := int32(fd.base[4*g+3])<<8 | 1
		t[1], t[2], t[3] = u0, u1, u0+u1
		t[4], t[5], t[6], t[7] = u2, u0+u2, u1+u2, u0+u1+u2
		for i := 0; i < 8; i++ {
			t[8+i] = t[i] + u3
		}
	}
	div := &lcmDiv[np]
	var best int64
	var bp uint32
	for x := fd.single; x != 0; x &= x - 1 {
		p := bits.TrailingZeros32(x) & (smallPorts - 1)
		best, bp = betterSet(best, bp, 1<<p, fd.base[p], div)
	}
	var ql [16]uint32
	var wl [16]int64
	for i := 1; i < 16; i++ {
		low := bits.TrailingZeros32(uint32(i)) & 15
		prev := i & (i - 1) & 15
		ql[i&15], wl[i&15] = ql[prev]|fd.mm[low], wl[prev]+fd.mw[low]
	}
	var keys [16]int64
	var qs [16]uint32
	for h := 0; h < 1<<max(fd.m-4, 0); h++ {
		var qh uint32
		var wh int64
		for y := uint32(h); y != 0; y &= y - 1 {
			k := (4 + bits.TrailingZeros32(y)) & (maxKinds - 1)
			qh |= fd.mm[k]
			wh += fd.mw[k]
		}
		var hb int64
		for i := range keys {
			q := qh | ql[i]
			v := tab[0][q&15] + tab[1][q>>4&15] + tab[2][q>>8&15] + tab[3][q>>12&15]
			key := (wh + wl[i] + int64(v>>8)) * div[v&31]
			keys[i], qs[i] = key, q
			hb = max(hb, key)
		}
		var hp uint32
		for i := range keys {
			q := qs[i]
			if keys[i] != hb {
				q = 0
			}
			hp |= q
		}
		if hb > best {
			best, bp = hb, hp
		} else if hb == best {
			bp |= hp
		}
	}
	return bp
}

// bitFlow is the schedule of the flow method on bitsets. Masses are
// scaled by lcm(1..np) so that every candidate capacity f(R)/|R| is whole
// (solve has checked that they fit 31 bits).
type bitFlow struct {
	rem     [maxKinds]int32  // mass of a kind not yet placed
	flowsOn [maxKinds]uint32 // ports on which a kind has flow
	load    [smallPorts]int32
	onPort  [smallPorts]uint32 // kinds with flow on a port
	fl      [maxKinds][smallPorts]int32
	viaKind [smallPorts]int8 // kind from which the search reached a port
	viaPort [maxKinds]int8   // port whose load the search moved to a kind
}

// flow schedules the multi-port kinds on the ports' room above their base
// loads under a capacity that starts at a lower bound of t* and is raised
// to the density of any set of full ports that cannot take the mass that
// has to run there; see flow.go. The bottleneck ports are the full ports
// that cannot pass load on to a port with room.
func (fd *folded) flow(np int) uint32 {
	var st bitFlow
	div := &lcmDiv[np]
	L := div[1]
	// Start capacity: the busiest single port or the whole cover. (Better
	// lower bounds, such as each kind with the single-port µops on its
	// ports, cost more than the raises they save.)
	bn, bd := fd.total, np
	for x := fd.single; x != 0; x &= x - 1 {
		if b := fd.base[bits.TrailingZeros32(x)&(smallPorts-1)]; b*int64(bd) > bn {
			bn, bd = b, 1
		}
	}
	capacity := int32(bn * div[bd&31])
	var full uint32 // ports at capacity
	for x := fd.single; x != 0; x &= x - 1 {
		p := bits.TrailingZeros32(x) & (smallPorts - 1)
		if st.load[p] = int32(fd.base[p] * L); st.load[p] == capacity {
			full |= 1 << p
		}
	}
	// Greedy start: each kind on its ports with room, kinds with fewer
	// ports first.
	m := fd.m
	var bySize [4]uint32 // kinds with 2, 3, 4 and more ports
	for k := 0; k < m; k++ {
		bySize[(min(bits.OnesCount32(fd.mm[k]), 5)-2)&3] |= 1 << k
	}
	for _, set := range bySize {
		for x := set; x != 0; x &= x - 1 {
			k := bits.TrailingZeros32(x) & (maxKinds - 1)
			st.greedy(k, int32(fd.mw[k]*L), fd.mm[k], capacity, &full)
		}
	}
	for k := 0; k < m; k++ {
		for st.rem[k] > 0 {
			seen, ok := st.augment(fd, k, capacity, full)
			if ok {
				full = seen
				continue
			}
			// The full ports seen cannot take k's rest: raise the capacity
			// to their density.
			var f int64
			for y := seen & fd.single; y != 0; y &= y - 1 {
				f += fd.base[bits.TrailingZeros32(y)&(smallPorts-1)]
			}
			for v := 0; v < m; v++ {
				if fd.mm[v]&^seen == 0 {
					f += fd.mw[v]
				}
			}
			capacity = int32(f * div[bits.OnesCount32(seen)&31])
			full = 0
			for y := fd.cover; y != 0; y &= y - 1 {
				if p := bits.TrailingZeros32(y) & (smallPorts - 1); st.load[p] == capacity {
					full |= 1 << p
				}
			}
		}
	}
	// Ports that can pass load on to a port with room: a port below
	// capacity, and every port where a kind that can use such a port has
	// flow.
	spare := fd.cover &^ full
	for todo := uint32(1)<<m - 1; ; {
		var more uint32
		for x := todo; x != 0; x &= x - 1 {
			if k := bits.TrailingZeros32(x) & (maxKinds - 1); fd.mm[k]&spare != 0 {
				more |= st.flowsOn[k]
				todo &^= 1 << k
			}
		}
		if more&^spare == 0 {
			break
		}
		spare |= more
	}
	return fd.cover &^ spare
}

// greedy places r scaled mass of kind k on its ports c with room, in
// order, and records the rest.
func (st *bitFlow) greedy(k int, r int32, c uint32, capacity int32, full *uint32) {
	f := *full
	for y := c &^ f; y != 0 && r > 0; y &= y - 1 {
		p := bits.TrailingZeros32(y) & (smallPorts - 1)
		δ := min(r, capacity-st.load[p])
		st.fl[k][p] = δ
		r -= δ
		st.onPort[p] |= 1 << k
		st.flowsOn[k] |= 1 << p
		if st.load[p] += δ; st.load[p] == capacity {
			f |= 1 << p
		}
	}
	st.rem[k] = r
	*full = f
}

// augment moves as much of kind s's unplaced mass as one augmenting path
// allows and returns the new set of full ports and true, or, if there is no
// path, the set of full ports reached from s and false.
func (st *bitFlow) augment(fd *folded, s int, capacity int32, full uint32) (uint32, bool) {
	var seenPorts uint32
	seenKinds := uint32(1) << s
	frontier := uint32(1) << s
	st.viaPort[s] = -1
	for frontier != 0 {
		var newPorts uint32
		for f := frontier; f != 0; f &= f - 1 {
			u := bits.TrailingZeros32(f) & (maxKinds - 1)
			np := fd.mm[u] &^ seenPorts
			if np == 0 {
				continue
			}
			seenPorts |= np
			newPorts |= np
			for y := np; y != 0; y &= y - 1 {
				st.viaKind[bits.TrailingZeros32(y)&(smallPorts-1)] = int8(u)
			}
			if room := np &^ full; room != 0 {
				return st.push(s, bits.TrailingZeros32(room)&(smallPorts-1), capacity, full), true
			}
		}
		var next uint32
		for y := newPorts; y != 0; y &= y - 1 {
			p := bits.TrailingZeros32(y) & (smallPorts - 1)
			nk := st.onPort[p] &^ seenKinds
			seenKinds |= nk
			next |= nk
			for x := nk; x != 0; x &= x - 1 {
				st.viaPort[bits.TrailingZeros32(x)&(maxKinds-1)] = int8(p)
			}
		}
		frontier = next
	}
	return seenPorts, false
}

// push applies the augmenting path ending at port end and returns the new
// set of full ports.
func (st *bitFlow) push(s, end int, capacity int32, full uint32) uint32 {
	δ := min(st.rem[s], capacity-st.load[end])
	for p := end; ; {
		u := st.viaKind[p] & (maxKinds - 1)
		back := st.viaPort[u]
		if back < 0 {
			break
		}
		δ = min(δ, st.fl[u][back&(smallPorts-1)])
		p = int(back & (smallPorts - 1))
	}
	st.rem[s] -= δ
	if st.load[end] += δ; st.load[end] == capacity {
		full |= 1 << end
	}
	for p := end; ; {
		u := st.viaKind[p] & (maxKinds - 1)
		st.fl[u][p] += δ
		st.onPort[p] |= 1 << u
		st.flowsOn[u] |= 1 << p
		back := st.viaPort[u]
		if back < 0 {
			break
		}
		b := back & (smallPorts - 1)
		if st.fl[u][b] -= δ; st.fl[u][b] == 0 {
			st.onPort[b] &^= 1 << u
			st.flowsOn[u] &^= 1 << b
		}
		p = int(b)
	}
	return full
}
