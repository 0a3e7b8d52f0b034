package throughput

import (
	"math/bits"
	"sync"

	"github.com/portlab/portlab/lib/portmap"
)

// The flow method finds the port bound by scheduling: it distributes the µop
// mass over the ports with every port's load capped at a candidate λ, and
// raises λ whenever a set R of full ports cannot absorb the mass that has to
// run on R (then mass(µops ⊆ R)/|R| > λ, and that ratio is the next
// candidate). It stops when all mass is placed: λ is then both a lower bound
// (achieved by some R) and an upper bound (a schedule exists), i.e. t*. The
// bottleneck ports are the full ports from which no load can be shifted to a
// port with spare capacity along alternating paths — exactly the ports busy
// in every optimal schedule. Masses are scaled by L = lcm(1..|cover|) so that
// every candidate λ = f(R)/|R| is a whole number of scaled units and the
// flow from one candidate stays valid for the next.

// maxFlowPorts bounds |cover| for the flow method (lcm(1..20) < 2^28).
const maxFlowPorts = 20

// edgeCap is the room for edges (µop kind, port).
const edgeCap = maxFlowKinds * maxFlowPorts

// maxFlowKinds bounds the number of µop kinds (bitmask width).
const maxFlowKinds = 32

var lcmTable = func() [maxFlowPorts + 1]int64 {
	var t [maxFlowPorts + 1]int64
	t[0] = 1
	for n := int64(1); n <= maxFlowPorts; n++ {
		a, b := t[n-1], n
		for b != 0 {
			a, b = b, a%b
		}
		t[n] = t[n-1] / a * n
	}
	return t
}()

type flowState struct {
	d       int
	cm      [maxFlowKinds]uint64 // port set per kind
	w       [maxFlowKinds]int64  // unscaled mass per kind
	rem     [maxFlowKinds]int64  // scaled mass not yet placed
	flowsOn [maxFlowKinds]uint64 // ports on which a kind has flow
	eoff    [maxFlowKinds + 1]int
	ek      [edgeCap]int8  // port of edge
	ekind   [edgeCap]int8  // kind of edge
	fl      [edgeCap]int64 // scaled flow on edge
	load    [portmap.MaxPorts]int64
	onPort  [portmap.MaxPorts]uint32 // kinds with flow on port
	// search bookkeeping
	viaEdge [portmap.MaxPorts]int // forward edge that reached a port
	viaPort [maxFlowKinds]int8    // port whose load a kind was reached from
}

var flowPool = sync.Pool{New: func() any { return new(flowState) }}

// flowBound computes the port bound of one component with |cover| ≤
// maxFlowPorts and at most maxFlowKinds kinds. ok is false when the scaled
// masses could overflow; the caller then uses another method.
func flowBound(masks []portmap.PortSet, mass []int64, cover portmap.PortSet) (Result, bool) {
	np := cover.Len()
	L := lcmTable[np]
	var total int64
	for _, w := range mass {
		total += w
	}
	if total > (1<<62)/L {
		return Result{}, false
	}
	st := flowPool.Get().(*flowState)
	defer flowPool.Put(st)
	st.d = len(masks)
	e := 0
	// Initial candidate: the whole component or the densest single kind.
	capNum, capDen := total, np
	for u, mk := range masks {
		c := uint64(mk)
		st.cm[u], st.w[u], st.rem[u], st.flowsOn[u] = c, mass[u], mass[u]*L, 0
		if n := bits.OnesCount64(c); mass[u]*int64(capDen) > capNum*int64(n) {
			capNum, capDen = mass[u], n
		}
		st.eoff[u] = e
		for x := c; x != 0; x &= x - 1 {
			k := bits.TrailingZeros64(x)
			st.ek[e], st.ekind[e], st.fl[e] = int8(k), int8(u), 0
			st.load[k], st.onPort[k] = 0, 0
			e++
		}
	}
	st.eoff[len(masks)] = e
	capacity := capNum * (L / int64(capDen))
	// Greedy start: fill ports in order up to the capacity.
	for u := 0; u < st.d; u++ {
		for ed := st.eoff[u]; ed < st.eoff[u+1] && st.rem[u] > 0; ed++ {
			k := st.ek[ed]
			if room := capacity - st.load[k]; room > 0 {
				δ := min(room, st.rem[u])
				st.fl[ed] += δ
				st.load[k] += δ
				st.rem[u] -= δ
				st.onPort[k] |= 1 << u
				st.flowsOn[u] |= 1 << k
			}
		}
	}
	for u := 0; u < st.d; u++ {
		for st.rem[u] > 0 {
			if full, ok := st.augment(u, capacity); !ok {
				// The full ports reached from u cannot take u's rest: raise
				// the capacity to their density.
				var f int64
				for v := 0; v < st.d; v++ {
					if st.cm[v]&^full == 0 {
						f += st.w[v]
					}
				}
				capacity = f * (L / int64(bits.OnesCount64(full)))
			}
		}
	}
	// Ports that can pass load on to a port with spare capacity: a port
	// with room, and every port where a kind that can use such a port has
	// flow.
	var spare uint64
	for x := uint64(cover); x != 0; x &= x - 1 {
		if k := bits.TrailingZeros64(x); st.load[k] < capacity {
			spare |= 1 << k
		}
	}
	for changed := true; changed; {
		changed = false
		for v := 0; v < st.d; v++ {
			if st.cm[v]&spare != 0 && st.flowsOn[v]&^spare != 0 {
				spare |= st.flowsOn[v]
				changed = true
			}
		}
	}
	bp := uint64(cover) &^ spare
	var num int64
	for v := 0; v < st.d; v++ {
		if st.cm[v]&^bp == 0 {
			num += st.w[v]
		}
	}
	return Result{Num: num, Den: bits.OnesCount64(bp), Bottleneck: portmap.PortSet(bp)}, true
}

// augment moves as much of kind s's unplaced mass as one augmenting path
// allows: s → port k (forward) ← kind v (undo v's flow on k) → port k' … →
// a port below capacity. If there is none it returns the set of full ports
// reached, and false.
func (st *flowState) augment(s int, capacity int64) (uint64, bool) {
	var seenPorts uint64
	seenKinds := uint32(1) << s
	frontier := uint32(1) << s
	st.viaPort[s] = -1
	for frontier != 0 {
		var next uint32
		for f := frontier; f != 0; f &= f - 1 {
			u := bits.TrailingZeros32(f)
			for ed := st.eoff[u]; ed < st.eoff[u+1]; ed++ {
				k := st.ek[ed]
				if seenPorts&(1<<k) != 0 {
					continue
				}
				seenPorts |= 1 << k
				st.viaEdge[k] = ed
				if st.load[k] < capacity {
					st.push(s, int(k), capacity)
					return 0, true
				}
				next |= st.onPort[k] &^ seenKinds
				for x := st.onPort[k] &^ seenKinds; x != 0; x &= x - 1 {
					st.viaPort[bits.TrailingZeros32(x)] = k
				}
				seenKinds |= st.onPort[k]
			}
		}
		frontier = next
	}
	return seenPorts, false
}

// push applies the augmenting path ending at port end.
func (st *flowState) push(s, end int, capacity int64) {
	δ := min(st.rem[s], capacity-st.load[end])
	// Walk back to find the bottleneck of the undone flows.
	for k := end; ; {
		ed := st.viaEdge[k]
		u := int(st.ekind[ed])
		back := st.viaPort[u]
		if back < 0 {
			break
		}
		δ = min(δ, st.fl[st.edge(u, int(back))])
		k = int(back)
	}
	st.rem[s] -= δ
	st.load[end] += δ
	for k := end; ; {
		ed := st.viaEdge[k]
		u := int(st.ekind[ed])
		st.fl[ed] += δ
		st.onPort[k] |= 1 << u
		st.flowsOn[u] |= 1 << k
		back := st.viaPort[u]
		if back < 0 {
			break
		}
		be := st.edge(u, int(back))
		st.fl[be] -= δ
		if st.fl[be] == 0 {
			st.onPort[back] &^= 1 << u
			st.flowsOn[u] &^= 1 << back
		}
		k = int(back)
	}
}

func (st *flowState) edge(u, k int) int {
	for ed := st.eoff[u]; ; ed++ {
		if int(st.ek[ed]) == k {
			return ed
		}
	}
}
