// Command kernels holds loops in Go for the block corpus: the generator
// builds it with the Go toolchain and takes the basic blocks of package
// main's functions from the binary.
package main

import (
	"fmt"
	"os"
)

//go:noinline
func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

//go:noinline
func axpy(alpha float64, x, y []float64) {
	for i := range x {
		y[i] += alpha * x[i]
	}
}

//go:noinline
func gemm(n int, a, b, c []float64) {
	for i := 0; i < n; i++ {
		for k := 0; k < n; k++ {
			aik := a[i*n+k]
			for j := 0; j < n; j++ {
				c[i*n+j] += aik * b[k*n+j]
			}
		}
	}
}

//go:noinline
func sumInts(a []int) int {
	s := 0
	for _, v := range a {
		s += v
	}
	return s
}

//go:noinline
func sumInt32(a []int32) int32 {
	var s int32
	for _, v := range a {
		s += v
	}
	return s
}

//go:noinline
func maxInt(a []int) int {
	m := a[0]
	for _, v := range a[1:] {
		if v > m {
			m = v
		}
	}
	return m
}

//go:noinline
func fnv(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

//go:noinline
func countByte(b []byte, c byte) int {
	n := 0
	for _, x := range b {
		if x == c {
			n++
		}
	}
	return n
}

//go:noinline
func insertionSort(a []int) {
	for i := 1; i < len(a); i++ {
		v := a[i]
		j := i
		for j > 0 && a[j-1] > v {
			a[j] = a[j-1]
			j--
		}
		a[j] = v
	}
}

//go:noinline
func binarySearch(a []int, v int) int {
	lo, hi := 0, len(a)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if a[m] < v {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

//go:noinline
func jacobi(a, b []float64) {
	for i := 1; i < len(a)-1; i++ {
		b[i] = (a[i-1] + a[i] + a[i+1]) / 3
	}
}

//go:noinline
func prefixSum(a []int64) {
	for i := 1; i < len(a); i++ {
		a[i] += a[i-1]
	}
}

//go:noinline
func xorshift(a []uint64, s uint64) uint64 {
	for i := range a {
		s ^= s << 13
		s ^= s >> 7
		s ^= s << 17
		a[i] = s
	}
	return s
}

//go:noinline
func toUpper(b []byte) {
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 32
		}
	}
}

//go:noinline
func reverse(b []byte) {
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
}

//go:noinline
func horner(c []float64, x float64) float64 {
	r := 0.0
	for i := len(c) - 1; i >= 0; i-- {
		r = r*x + c[i]
	}
	return r
}

//go:noinline
func atoi(s string) int {
	v := 0
	for i := 0; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
		v = v*10 + int(s[i]-'0')
	}
	return v
}

//go:noinline
func popcount(a []uint64) int {
	n := 0
	for _, x := range a {
		for x != 0 {
			x &= x - 1
			n++
		}
	}
	return n
}

type node struct {
	next *node
	val  int
}

//go:noinline
func listSum(p *node) int {
	s := 0
	for ; p != nil; p = p.next {
		s += p.val
	}
	return s
}

//go:noinline
func transpose(n int, a, b []float64) {
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			b[j*n+i] = a[i*n+j]
		}
	}
}

//go:noinline
func gcd(a, b uint) uint {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

//go:noinline
func histogram(x []float32, bins []int) {
	for _, v := range x {
		b := int(v * float32(len(bins)))
		if b < 0 {
			b = 0
		} else if b >= len(bins) {
			b = len(bins) - 1
		}
		bins[b]++
	}
}

func main() {
	const n = 64
	a := make([]float64, n*n)
	b := make([]float64, n*n)
	c := make([]float64, n*n)
	for i := range a {
		a[i], b[i] = float64(i%7), float64(i%5)
	}
	gemm(n, a, b, c)
	axpy(2, a, b)
	jacobi(a, b)
	transpose(n, a, c)
	ints := make([]int, 1000)
	for i := range ints {
		ints[i] = (i * 7919) % 1000
	}
	insertionSort(ints)
	i64 := make([]int64, 100)
	prefixSum(i64)
	u64 := make([]uint64, 100)
	bs := []byte("hello, world")
	toUpper(bs)
	reverse(bs)
	bins := make([]int, 10)
	histogram([]float32{0.1, 0.5, 0.9}, bins)
	l := &node{val: 1, next: &node{val: 2}}
	fmt.Fprintln(os.Stdout, dot(a, b), sumInts(ints), sumInt32([]int32{1, 2}), maxInt(ints), fnv(bs),
		countByte(bs, 'L'), binarySearch(ints, 500), xorshift(u64, 1), horner(a[:8], 0.5),
		atoi("1234"), popcount(u64), listSum(l), gcd(12, 18), bins[0])
}
