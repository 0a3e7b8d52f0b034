//go:build !amd64

package throughput

import "unsafe"

// subsetWidth is 0: the subset kernels are written for AMD64 only.
var subsetWidth = 0

// maxUnrolled is 0: there are no unrolled kernels.
const maxUnrolled = 0

func (l *subsetLayout) scan(srcs unsafe.Pointer, nsrc int) (best int64, q uint64) {
	panic("throughput: the subset scan needs AMD64")
}
