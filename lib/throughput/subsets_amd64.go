package throughput

import (
	"os"
	"strings"
	"unsafe"

	"golang.org/x/sys/cpu"
)

//go:generate go run ./internal/gensubsets

// subsetWidth is the vector width of subset tables on this CPU: 64 bytes
// with AVX-512BW, 32 with AVX2, 0 (no subset tables) otherwise. The
// environment variable PORTLAB_SIMD=avx2 keeps to AVX2 and PORTLAB_SIMD=off
// turns the tables off (to compare the methods on one machine); other values
// are ignored.
var subsetWidth = func() int {
	simd := strings.ToLower(os.Getenv("PORTLAB_SIMD"))
	switch {
	case simd == "off":
		return 0
	case cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && simd != "avx2":
		return 64
	case cpu.X86.HasAVX2:
		return 32
	}
	return 0
}()

// scan adds the nsrc subset tables at srcs (an array of *byte) and returns
// the best ratio in units of 1/lcm(1..n), best = max over sizes k of
// (largest sum of a set of size k)·lcm(1..n)/k, and q, the union of the
// port sets whose sum reaches it. The kernels are in subsets_amd64.s,
// written by internal/gensubsets.
func (l *subsetLayout) scan(srcs unsafe.Pointer, nsrc int) (best int64, q uint64) {
	switch {
	case l.unrolled:
		return scanUnrolled(l.w, l.n, srcs, nsrc, &l.order[0])
	case l.w == 64:
		return subsetScan64(srcs, nsrc, l.nvec, &l.ends[0], l.n, &lcmDiv[l.n][1], &l.order[0])
	}
	return subsetScan32(srcs, nsrc, l.nvec, &l.ends[0], l.n, &lcmDiv[l.n][1], &l.order[0])
}

// subsetScan32 is scan for any layout of 32-byte vectors, with AVX2: group
// g of the port sets is the vectors [ends[g-1], ends[g]).
//
//go:noescape
func subsetScan32(srcs unsafe.Pointer, nsrc, nvec int, ends *uint8, ngroups int, div *int64, order *uint16) (best int64, q uint64)

// subsetScan64 is subsetScan32 for 64-byte vectors, with AVX-512BW.
//
//go:noescape
func subsetScan64(srcs unsafe.Pointer, nsrc, nvec int, ends *uint8, ngroups int, div *int64, order *uint16) (best int64, q uint64)
