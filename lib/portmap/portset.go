package portmap

import (
	"math/bits"
	"strconv"
	"strings"
)

// MaxCount is the largest count of an instruction in an experiment or of a
// µop in a decomposition (after merging); larger counts are rejected rather
// than overflowing.
const MaxCount = 1<<31 - 1

// MaxPorts is the largest number of ports a Mapping may have: a PortSet is a
// 64-bit mask.
const MaxPorts = 64

// PortSet is a set of ports, bit k standing for the port with index k in the
// mapping's port list. A µop is identified with the PortSet of the ports that
// can execute it (thesis Remark 3.13).
type PortSet uint64

// Ports returns the set of the given port indices. It panics if an index is
// outside [0, MaxPorts).
func Ports(indices ...int) PortSet {
	var s PortSet
	for _, k := range indices {
		if k < 0 || k >= MaxPorts {
			panic("portmap: port index " + strconv.Itoa(k) + " out of range")
		}
		s |= 1 << uint(k)
	}
	return s
}

// Len returns the number of ports in s.
func (s PortSet) Len() int { return bits.OnesCount64(uint64(s)) }

// Has reports whether port k is in s.
func (s PortSet) Has(k int) bool { return k >= 0 && k < MaxPorts && s&(1<<uint(k)) != 0 }

// SubsetOf reports whether every port of s is in t.
func (s PortSet) SubsetOf(t PortSet) bool { return s&^t == 0 }

// Union returns s ∪ t.
func (s PortSet) Union(t PortSet) PortSet { return s | t }

// Intersect returns s ∩ t.
func (s PortSet) Intersect(t PortSet) PortSet { return s & t }

// Indices returns the port indices in s in increasing order.
func (s PortSet) Indices() []int {
	out := make([]int, 0, s.Len())
	for x := uint64(s); x != 0; x &= x - 1 {
		out = append(out, bits.TrailingZeros64(x))
	}
	return out
}

// String formats s by port indices, e.g. "{0,1,5,6}".
func (s PortSet) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range s.Indices() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(k))
	}
	b.WriteByte('}')
	return b.String()
}
