// Command gensubsets writes lib/throughput's subset-scan kernels,
// subsets_amd64.s and subsets_kernels_amd64.go (go generate in
// lib/throughput). See subsets.go for what they compute.
//
// Two kinds of kernels are written. The loop kernels, subsetScan32 (AVX2)
// and subsetScan64 (AVX-512BW), take any layout of up to 11 ports: they add
// the tables 8 vectors at a time into sums on the stack and walk the groups
// of port sets from there. The unrolled kernels are written for one port
// count each, 1 to 10, on the layout without padding between set sizes, in
// straight-line code: subsetScan64n1 to subsetScan64n10 (AVX-512BW) keep
// all the sums (at most 16 vectors of 64 bytes) in registers and mask the
// bytes of other sizes with mask registers; subsetScan32n1 to
// subsetScan32n10 (AVX2) add 12 vectors at a time, store the sums in the
// frame and mask with constants.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"math/bits"
	"os"
	"path/filepath"
)

// maxLoopPorts is the largest port count of the loop kernels
// (maxSubsetPorts in subsets.go); it sizes their frames.
const maxLoopPorts = 11

// maxUnrolled is the largest port count with an unrolled kernel: its sums
// must fit the 32 vector registers with 5 to spare.
const maxUnrolled = 10

// groups returns, for n ports in vectors of w bytes, the vector ranges of the
// port sets of each size 1..n (as newSubsetLayout in subsets.go).
func groups(n, w int) [][2]int {
	var out [][2]int
	v := 0
	for k := 1; k <= n; k++ {
		c := 0
		for q := 1; q < 1<<n; q++ {
			if bits.OnesCount(uint(q)) == k {
				c++
			}
		}
		nv := (c + w - 1) / w
		out = append(out, [2]int{v, v + nv})
		v += nv
	}
	return out
}

// packedGroups returns, for n ports, the byte ranges of the port sets of
// each size 1..n laid out one after the other without padding (as
// newSubsetLayout in subsets.go for the unrolled kernels), and the number of
// 64-byte vectors they take.
func packedGroups(n int) (rs [][2]int, nvec int) {
	b := 0
	for k := 1; k <= n; k++ {
		c := 0
		for q := 1; q < 1<<n; q++ {
			if bits.OnesCount(uint(q)) == k {
				c++
			}
		}
		rs = append(rs, [2]int{b, b + c})
		b += c
	}
	return rs, (b + 63) / 64
}

// span is the part of a group's byte range [s, e) in vector v of vw
// bytes: all of it, or the bytes of mask.
func span(s, e, v, vw int) (mask uint64, all bool) {
	lo, hi := max(s, vw*v)-vw*v, min(e, vw*v+vw)-vw*v
	if lo == 0 && hi == vw {
		return ^uint64(0) >> (64 - vw), true
	}
	return (uint64(1)<<(hi-lo) - 1) << lo, false
}

// vectors returns the vectors of vw bytes that the byte range r touches.
func vectors(r [2]int, vw int) (first, last int) { return r[0] / vw, (r[1] - 1) / vw }

type writer struct{ b bytes.Buffer }

func (w *writer) p(format string, args ...any) { fmt.Fprintf(&w.b, format+"\n", args...) }

// loopKernel writes subsetScan32 or subsetScan64.
func loopKernel(w *writer, vw int) {
	V, mov, shift := "Y", "VMOVDQU", 5
	if vw == 64 {
		V, mov, shift = "Z", "VMOVDQU8", 6
	}
	maxVec := groups(maxLoopPorts, vw)[maxLoopPorts-1][1]
	frame := (16 + vw + maxVec*vw + 15) / 16 * 16
	name := fmt.Sprintf("subsetScan%d", vw)
	w.p("// func %s(srcs unsafe.Pointer, nsrc, nvec int, ends *uint8, ngroups int, div *int64, order *uint16) (best int64, q uint64)", name)
	w.p("//")
	w.p("// Frame: the groups' maxima at 0(SP), the sums %d-byte aligned from 16(SP).", vw)
	w.p("TEXT ·%s(SB), 0, $%d-72", name, frame)
	w.p("\tMOVQ srcs+0(FP), SI")
	w.p("\tMOVQ nsrc+8(FP), CX")
	w.p("\tMOVQ nvec+16(FP), DX")
	w.p("\tLEAQ %d(SP), BX", 16+vw-1)
	w.p("\tANDQ $%d, BX", -vw)
	w.p("\tXORQ R8, R8")
	w.p("\tMOVQ DX, R9")
	w.p("\tSHRQ $3, R9")
	w.p("\tJZ   tail")
	w.p("")
	w.p("block8: // 8 vectors: the first table, plus the others")
	w.p("\tMOVQ (SI), AX")
	for r := range 8 {
		w.p("\t%s %d(AX)(R8*1), %s%d", mov, r*vw, V, r)
	}
	w.p("\tMOVQ $1, R10")
	w.p("\tCMPQ R10, CX")
	w.p("\tJGE  store8")
	w.p("")
	w.p("add8:")
	w.p("\tMOVQ (SI)(R10*8), AX")
	for r := range 8 {
		w.p("\tVPADDB %d(AX)(R8*1), %s%d, %s%d", r*vw, V, r, V, r)
	}
	w.p("\tINCQ R10")
	w.p("\tCMPQ R10, CX")
	w.p("\tJL   add8")
	w.p("")
	w.p("store8:")
	for r := range 8 {
		w.p("\t%s %s%d, %d(BX)(R8*1)", mov, V, r, r*vw)
	}
	w.p("\tADDQ $%d, R8", 8*vw)
	w.p("\tDECQ R9")
	w.p("\tJNZ  block8")
	w.p("")
	w.p("tail: // the last nvec%%8 vectors, one at a time")
	w.p("\tANDQ $7, DX")
	w.p("\tJZ   groups")
	w.p("")
	w.p("tail1:")
	w.p("\tMOVQ (SI), AX")
	w.p("\t%s (AX)(R8*1), %s0", mov, V)
	w.p("\tMOVQ $1, R10")
	w.p("\tCMPQ R10, CX")
	w.p("\tJGE  store1")
	w.p("")
	w.p("add1:")
	w.p("\tMOVQ (SI)(R10*8), AX")
	w.p("\tVPADDB (AX)(R8*1), %s0, %s0", V, V)
	w.p("\tINCQ R10")
	w.p("\tCMPQ R10, CX")
	w.p("\tJL   add1")
	w.p("")
	w.p("store1:")
	w.p("\t%s %s0, (BX)(R8*1)", mov, V)
	w.p("\tADDQ $%d, R8", vw)
	w.p("\tDECQ DX")
	w.p("\tJNZ  tail1")
	w.p("")
	w.p("groups: // the largest sum of each group g, to g(SP)")
	w.p("\tMOVQ ends+24(FP), SI")
	w.p("\tMOVQ ngroups+32(FP), CX")
	w.p("\tXORQ R8, R8")
	w.p("\tXORQ R9, R9")
	w.p("")
	w.p("group:")
	w.p("\tMOVBQZX (SI)(R9*1), R10")
	w.p("\tSHLQ $%d, R10", shift)
	w.p("\t%s (BX)(R8*1), %s0", mov, V)
	w.p("\tADDQ $%d, R8", vw)
	w.p("")
	w.p("gmax:")
	w.p("\tCMPQ R8, R10")
	w.p("\tJGE  reduce")
	w.p("\tVPMAXUB (BX)(R8*1), %s0, %s0", V, V)
	w.p("\tADDQ $%d, R8", vw)
	w.p("\tJMP  gmax")
	w.p("")
	w.p("reduce:")
	reduce(w, vw, 0, 1)
	w.p("\tMOVB AX, (SP)(R9*1)")
	w.p("\tINCQ R9")
	w.p("\tCMPQ R9, CX")
	w.p("\tJL   group")
	w.p("")
	w.p("\t// best = max over g of gmax[g]·div[g], without branches.")
	w.p("\tMOVQ div+40(FP), R12")
	w.p("\tXORQ DX, DX")
	w.p("\tXORQ R9, R9")
	w.p("")
	w.p("ratio:")
	w.p("\tMOVBQZX (SP)(R9*1), AX")
	w.p("\tIMULQ (R12)(R9*8), AX")
	w.p("\tCMPQ AX, DX")
	w.p("\tCMOVQGT AX, DX")
	w.p("\tINCQ R9")
	w.p("\tCMPQ R9, CX")
	w.p("\tJL   ratio")
	w.p("")
	w.p("\t// q = the largest port set that reaches best: the union of all that do")
	w.p("\t// (they are closed under union), so the only one of its size. The")
	w.p("\t// groups are searched from the largest sets down.")
	w.p("\tMOVQ order+48(FP), DI")
	w.p("\tXORQ R11, R11")
	w.p("\tMOVQ CX, R9")
	w.p("")
	w.p("union:")
	w.p("\tDECQ R9")
	w.p("\tJL   done")
	w.p("\tMOVBQZX (SP)(R9*1), AX")
	w.p("\tVMOVQ AX, X1")
	w.p("\tIMULQ (R12)(R9*8), AX")
	w.p("\tCMPQ AX, DX")
	w.p("\tJNE  union")
	w.p("\tVPBROADCASTB X1, %s1", V)
	w.p("\tXORQ R8, R8")
	w.p("\tTESTQ R9, R9")
	w.p("\tJZ   first")
	w.p("\tMOVBQZX -1(SI)(R9*1), R8")
	w.p("\tSHLQ $%d, R8", shift)
	w.p("")
	w.p("first:")
	w.p("\tMOVBQZX (SI)(R9*1), R10")
	w.p("\tSHLQ $%d, R10", shift)
	w.p("")
	w.p("vloop:")
	w.p("\tCMPQ R8, R10")
	w.p("\tJGE  done")
	if vw == 32 {
		w.p("\tVPCMPEQB (BX)(R8*1), Y1, Y2")
		w.p("\tVPMOVMSKB Y2, R13")
		w.p("\tTESTQ R13, R13")
	} else {
		w.p("\tVPCMPEQB (BX)(R8*1), Z1, K1")
		w.p("\tKMOVQ K1, R13")
		w.p("\tTESTQ R13, R13")
	}
	w.p("\tJNZ  found")
	w.p("\tADDQ $%d, R8", vw)
	w.p("\tJMP  vloop")
	w.p("")
	w.p("found:")
	w.p("\tBSFQ R13, AX")
	w.p("\tADDQ R8, AX")
	w.p("\tMOVWQZX (DI)(AX*2), R11")
	w.p("")
	w.p("done:")
	w.p("\tMOVQ DX, best+56(FP)")
	w.p("\tMOVQ R11, q+64(FP)")
	w.p("\tVZEROUPPER")
	w.p("\tRET")
	w.p("")
}

// reduce writes the horizontal maximum of the bytes of vector register
// a (of vw bytes) into AX, with t as scratch; a and t must be below 16 for
// the VEX-only instructions.
func reduce(w *writer, vw, a, t int) {
	if vw == 64 {
		w.p("\tVEXTRACTI64X4 $1, Z%d, Y%d", a, t)
		w.p("\tVPMAXUB Y%d, Y%d, Y%d", t, a, a)
	}
	w.p("\tVEXTRACTI128 $1, Y%d, X%d", a, t)
	w.p("\tVPMAXUB X%d, X%d, X%d", t, a, a)
	for _, s := range []int{8, 4, 2, 1} {
		w.p("\tVPSRLDQ $%d, X%d, X%d", s, a, t)
		w.p("\tVPMAXUB X%d, X%d, X%d", t, a, a)
	}
	w.p("\tVPEXTRB $0, X%d, AX", a)
}

// unrolledKernel writes subsetScan64n<n>: the sums of vector v live in
// Z(32-nvec+v); the registers below are scratch.
func unrolledKernel(w *writer, n int) (label [16]int) {
	gs, nvec := packedGroups(n)
	base := 32 - nvec
	z := func(v int) string { return fmt.Sprintf("Z%d", base+v) }
	name := fmt.Sprintf("subsetScan64n%d", n)
	w.p("// func %s(srcs unsafe.Pointer, nsrc int, order *uint16) (best int64, q uint64)", name)
	w.p("//")
	w.p("// Sums in Z%d-Z31.", base)
	w.p("TEXT ·%s(SB), NOSPLIT, $0-40", name)
	w.p("\tMOVQ srcs+0(FP), SI")
	w.p("\tMOVQ nsrc+8(FP), CX")
	w.p("\tMOVQ (SI), AX")
	for v := range nvec {
		w.p("\tVMOVDQU8 %d(AX), %s", 64*v, z(v))
	}
	w.p("\tMOVQ $1, R10")
	w.p("\tCMPQ R10, CX")
	w.p("\tJGE  summed")
	w.p("")
	w.p("add:")
	w.p("\tMOVQ (SI)(R10*8), AX")
	for v := range nvec {
		w.p("\tVPADDB %d(AX), %s, %s", 64*v, z(v), z(v))
	}
	w.p("\tINCQ R10")
	w.p("\tCMPQ R10, CX")
	w.p("\tJL   add")
	w.p("")
	w.p("summed:")
	pos, label, fold := groupMaxima(w, gs, z)
	w.p("")
	w.p("\t// The ratios gmax·div of the 16 bytes of X%d, as double words in Z1; best,", fold)
	w.p("\t// their maximum, in every lane of Z3 and in DX; the bytes that reach it")
	w.p("\t// in R9.")
	w.p("\tVPMOVZXBD X%d, Z1", fold)
	w.p("\tVPMULLD %s<>(SB), Z1, Z1", divName(n))
	w.p("\tVSHUFI64X2 $0x4e, Z1, Z1, Z2")
	w.p("\tVPMAXUD Z2, Z1, Z3")
	w.p("\tVSHUFI64X2 $0xb1, Z3, Z3, Z2")
	w.p("\tVPMAXUD Z2, Z3, Z3")
	w.p("\tVPSHUFD $0x4e, Z3, Z2")
	w.p("\tVPMAXUD Z2, Z3, Z3")
	w.p("\tVPSHUFD $0xb1, Z3, Z2")
	w.p("\tVPMAXUD Z2, Z3, Z3")
	w.p("\tVPCMPEQD Z3, Z1, K2")
	w.p("\tKMOVW K2, R9")
	w.p("\tVMOVD X3, DX")
	w.p("")
	w.p("\t// q = the largest port set that reaches best: the union of all that do")
	w.p("\t// (they are closed under union), so the only one of its size. The")
	w.p("\t// groups are searched from the largest sets down.")
	w.p("\tMOVQ order+16(FP), DI")
	bc := max(n, 4) // broadcast register, free by now
	largestMaximizer(w, gs, pos, 64, nvec, func(g int) {
		w.p("\tVPEXTRB $%d, X%d, AX", pos[g], fold)
		w.p("\tVPBROADCASTB AX, Z%d", bc)
	}, func(v int) {
		w.p("\tVPCMPEQB %s, Z%d, K1", z(v), bc)
		w.p("\tKMOVQ K1, R13")
	})
	return label
}

// unrolledKernel32 writes subsetScan32n<n>, the AVX2 kernel for the
// layout of n ports without padding in 32-byte vectors. Its sums do not fit
// the 16 registers: they are added 12 vectors at a time and stored in the
// frame, and read from there with the bytes of other groups masked by
// constants.
func unrolledKernel32(w *writer, n int, label [16]int) {
	gs, _ := packedGroups(n)
	nvec := (gs[n-1][1] + 31) / 32
	name := fmt.Sprintf("subsetScan32n%d", n)
	maskSym := fmt.Sprintf("subsetMask32n%d", n)
	var masks []uint64
	w.p("// func %s(srcs unsafe.Pointer, nsrc int, order *uint16) (best int64, q uint64)", name)
	w.p("//")
	w.p("// Frame: the sums, 32-byte aligned.")
	w.p("TEXT ·%s(SB), 0, $%d-40", name, 32*nvec+32)
	w.p("\tMOVQ srcs+0(FP), SI")
	w.p("\tMOVQ nsrc+8(FP), CX")
	w.p("\tLEAQ 31(SP), BX")
	w.p("\tANDQ $-32, BX")
	const block = 12
	for b := 0; b < nvec; b += block {
		e := min(nvec, b+block)
		w.p("\tMOVQ (SI), AX")
		for v := b; v < e; v++ {
			w.p("\tVMOVDQU %d(AX), Y%d", 32*v, v-b)
		}
		w.p("\tMOVQ $1, R10")
		w.p("\tCMPQ R10, CX")
		w.p("\tJGE  store%d", b)
		w.p("")
		w.p("add%d:", b)
		w.p("\tMOVQ (SI)(R10*8), AX")
		for v := b; v < e; v++ {
			w.p("\tVPADDB %d(AX), Y%d, Y%d", 32*v, v-b, v-b)
		}
		w.p("\tINCQ R10")
		w.p("\tCMPQ R10, CX")
		w.p("\tJL   add%d", b)
		w.p("")
		w.p("store%d:", b)
		for v := b; v < e; v++ {
			w.p("\tVMOVDQU Y%d, %d(BX)", v-b, 32*v)
		}
	}
	w.p("")
	w.p("\t// The largest sum of each group in Y0-Y%d.", n-1)
	for g, r := range gs {
		first, last := vectors(r, 32)
		w.p("\tVPXOR Y%d, Y%d, Y%d", g, g, g)
		for v := first; v <= last; v++ {
			if mask, all := span(r[0], r[1], v, 32); all {
				w.p("\tVPMAXUB %d(BX), Y%d, Y%d", 32*v, g, g)
			} else {
				w.p("\tVMOVDQU %s<>+%d(SB), Y%d", maskSym, 32*len(masks), n)
				w.p("\tVPAND %d(BX), Y%d, Y%d", 32*v, n, n)
				w.p("\tVPMAXUB Y%d, Y%d, Y%d", n, g, g)
				masks = append(masks, mask)
			}
		}
	}
	pos, lab, foldReg := fold(w, n)
	if lab != label || foldReg != 0 {
		panic("gensubsets: the AVX2 fold differs from the AVX-512 one")
	}
	w.p("")
	w.p("\t// The ratios gmax·div of the 16 bytes of X0, as double words in Y1")
	w.p("\t// (bytes 0-7) and Y2 (8-15); best, their maximum, in every lane of Y3")
	w.p("\t// and in DX; the bytes that reach it in R9.")
	w.p("\tVPMOVZXBD X0, Y1")
	w.p("\tVPSRLDQ $8, X0, X2")
	w.p("\tVPMOVZXBD X2, Y2")
	w.p("\tVPMULLD %s<>+0(SB), Y1, Y1", divName(n))
	w.p("\tVPMULLD %s<>+32(SB), Y2, Y2", divName(n))
	w.p("\tVPMAXUD Y2, Y1, Y3")
	w.p("\tVPERM2I128 $1, Y3, Y3, Y4")
	w.p("\tVPMAXUD Y4, Y3, Y3")
	w.p("\tVPSHUFD $0x4e, Y3, Y4")
	w.p("\tVPMAXUD Y4, Y3, Y3")
	w.p("\tVPSHUFD $0xb1, Y3, Y4")
	w.p("\tVPMAXUD Y4, Y3, Y3")
	w.p("\tVPCMPEQD Y3, Y1, Y4")
	w.p("\tVMOVMSKPS Y4, R9")
	w.p("\tVPCMPEQD Y3, Y2, Y5")
	w.p("\tVMOVMSKPS Y5, R10")
	w.p("\tSHLQ $8, R10")
	w.p("\tORQ  R10, R9")
	w.p("\tVMOVD X3, DX")
	w.p("")
	w.p("\t// q = the largest port set that reaches best (see subsetScan64n%d).", n)
	w.p("\tMOVQ order+16(FP), DI")
	bc := max(n, 6)
	largestMaximizer(w, gs, pos, 32, nvec, func(g int) {
		w.p("\tVPEXTRB $%d, X0, AX", pos[g])
		w.p("\tVMOVD AX, X%d", bc)
		w.p("\tVPBROADCASTB X%d, Y%d", bc, bc)
	}, func(v int) {
		w.p("\tVPCMPEQB %d(BX), Y%d, Y%d", 32*v, bc, bc+1)
		w.p("\tVPMOVMSKB Y%d, R13", bc+1)
	})
	for k, m := range masks {
		for b := 0; b < 4; b++ {
			var x uint64
			for j := 0; j < 8; j++ {
				if m>>(8*b+j)&1 == 1 {
					x |= 0xff << (8 * j)
				}
			}
			w.p("DATA %s<>+%d(SB)/8, $0x%016x", maskSym, 32*k+8*b, x)
		}
	}
	if len(masks) > 0 {
		w.p("GLOBL %s<>(SB), RODATA|NOPTR, $%d", maskSym, 32*len(masks))
		w.p("")
	}
}

// largestMaximizer writes the end of an unrolled kernel: with the winning
// bytes of the fold in R9 (bit pos[g] for group g), best in DX and order in
// DI, it finds the largest winning group, then the vector of vw bytes in
// which a sum equals that group's maximum, and returns best and order at
// that byte as q. bcast(g) broadcasts the maximum of group g; cmp(v)
// leaves the bit mask of the bytes of vector v equal to it in R13.
func largestMaximizer(w *writer, gs [][2]int, pos []int, vw, nvec int, bcast, cmp func(int)) {
	w.p("\tXORQ R11, R11")
	for g := len(gs) - 1; g >= 0; g-- {
		w.p("\tTESTL $%d, R9", 1<<pos[g])
		w.p("\tJNZ  group%d", g+1)
	}
	w.p("\tJMP  done")
	for g := len(gs) - 1; g >= 0; g-- {
		r := gs[g]
		first, last := vectors(r, vw)
		w.p("")
		w.p("group%d:", g+1)
		bcast(g)
		for v := first; v <= last; v++ {
			cmp(v)
			if mask, all := span(r[0], r[1], v, vw); all {
				w.p("\tTESTQ R13, R13")
			} else {
				w.p("\tMOVQ $%d, AX", int64(mask))
				w.p("\tANDQ AX, R13")
			}
			w.p("\tJNZ  vector%d", v)
		}
		w.p("\tJMP  done")
	}
	for v := range nvec {
		w.p("")
		w.p("vector%d:", v)
		w.p("\tBSFQ R13, AX")
		w.p("\tMOVWQZX %d(DI)(AX*2), R11", 2*vw*v)
		w.p("\tJMP  done")
	}
	w.p("")
	w.p("done:")
	w.p("\tMOVQ DX, best+24(FP)")
	w.p("\tMOVQ R11, q+32(FP)")
	w.p("\tVZEROUPPER")
	w.p("\tRET")
	w.p("")
}

// groupMaxima writes code that leaves the largest sum of each group (byte
// ranges gs of the vectors in registers z(v)) folded to 32 bytes in
// Y0..Y(n-1), masking the bytes of other groups where a vector holds
// several, and then folds them (see fold).
func groupMaxima(w *writer, gs [][2]int, z func(int) string) (pos []int, label [16]int, foldReg int) {
	n := len(gs)
	w.p("\t// The largest sum of each group, folded to 32 bytes in Y0-Y%d.", n-1)
	for g, r := range gs {
		w.p("\tVPXORQ Z%d, Z%d, Z%d", g, g, g)
		for v := r[0] / 64; v <= (r[1]-1)/64; v++ {
			if mask, all := span(r[0], r[1], v, 64); all {
				w.p("\tVPMAXUB %s, Z%d, Z%d", z(v), g, g)
			} else {
				w.p("\tMOVQ $%d, AX", int64(mask))
				w.p("\tKMOVQ AX, K1")
				w.p("\tVPMAXUB %s, Z%d, K1, Z%d", z(v), g, g)
			}
		}
		w.p("\tVEXTRACTI64X4 $1, Z%d, Y%d", g, n)
		w.p("\tVPMAXUB Y%d, Y%d, Y%d", n, g, g)
	}
	return fold(w, n)
}

// fold writes code that folds the 32 bytes of each of Y0..Y(n-1) (Y(n) is
// scratch) to one byte per register in X0, keeping maxima, and returns the
// byte of each register and the register at each byte. Pairs of registers
// are interleaved by bytes, words, double and quad words, keeping the larger
// of each pair of positions, so that every step halves the positions a
// register takes, until all (at most 16) take one byte each; a register
// without a partner is paired with itself. Which byte holds which register
// is followed by simulating the interleaves.
func fold(w *writer, n int) (pos []int, label [16]int, foldReg int) {
	tmp := n
	type reg struct {
		r     int
		label [32]int // group at each byte
	}
	var regs []reg
	for g := range n {
		var rg reg
		rg.r = g
		for i := range rg.label {
			rg.label[i] = g
		}
		regs = append(regs, rg)
	}
	// Interleave elements of 1, 2, 4 and 8 bytes per 128-bit lane.
	for _, step := range []struct {
		size   int
		lo, hi string
	}{{1, "VPUNPCKLBW", "VPUNPCKHBW"}, {2, "VPUNPCKLWD", "VPUNPCKHWD"}, {4, "VPUNPCKLDQ", "VPUNPCKHDQ"}, {8, "VPUNPCKLQDQ", "VPUNPCKHQDQ"}} {
		var next []reg
		for i := 0; i < len(regs); i += 2 {
			a, b := regs[i], regs[i]
			if i+1 < len(regs) {
				b = regs[i+1]
			}
			w.p("\t%s Y%d, Y%d, Y%d", step.hi, b.r, a.r, tmp)
			w.p("\t%s Y%d, Y%d, Y%d", step.lo, b.r, a.r, a.r)
			w.p("\tVPMAXUB Y%d, Y%d, Y%d", tmp, a.r, a.r)
			var out reg
			out.r = a.r
			for lane := 0; lane < 2; lane++ {
				// lo takes the low halves of the lane of a and b, hi the
				// high halves, element by element: a0 b0 a1 b1 ...
				for e := 0; e < 16/step.size; e++ {
					src := a
					if e%2 == 1 {
						src = b
					}
					k := e / 2
					for j := 0; j < step.size; j++ {
						l := src.label[16*lane+k*step.size+j]
						h := src.label[16*lane+8+k*step.size+j]
						if l != h {
							panic("gensubsets: interleave mixes groups")
						}
						out.label[16*lane+e*step.size+j] = l
					}
				}
			}
			next = append(next, out)
		}
		regs = next
	}
	r := regs[0]
	w.p("\tVEXTRACTI128 $1, Y%d, X%d", r.r, tmp)
	w.p("\tVPMAXUB X%d, X%d, X%d", tmp, r.r, r.r)
	pos = make([]int, n)
	for g := range pos {
		pos[g] = -1
	}
	for i := 15; i >= 0; i-- {
		if r.label[i] != r.label[16+i] {
			panic("gensubsets: lanes differ")
		}
		pos[r.label[i]] = i
		label[i] = r.label[i]
	}
	for g, p := range pos {
		if p < 0 {
			panic(fmt.Sprintf("gensubsets: group %d lost", g))
		}
	}
	if r.r != 0 {
		panic("gensubsets: the fold is not in X0")
	}
	return pos, label, r.r
}

// divName is the symbol of the ratio factors of the unrolled kernel for n
// ports.
func divName(n int) string { return fmt.Sprintf("subsetDiv%d", n) }

// divData writes the factors lcm(1..n)/k of the 16 bytes of the fold of
// the unrolled kernel for n ports, as double words: byte i holds the
// maximum of the sets of size label[i]+1.
func divData(w *writer, n int, label [16]int) {
	l := 1
	for k := 2; k <= n; k++ {
		a, b := l, k
		for b != 0 {
			a, b = b, a%b
		}
		l = l / a * k
	}
	for i, g := range label {
		w.p("DATA %s<>+%d(SB)/4, $%d", divName(n), 4*i, l/(g+1))
	}
	w.p("GLOBL %s<>(SB), RODATA|NOPTR, $64", divName(n))
	w.p("")
}

func main() {
	dir := flag.String("dir", ".", "write the files into `directory`")
	flag.Parse()
	var s writer
	s.p("// Code generated by internal/gensubsets; DO NOT EDIT.")
	s.p("")
	s.p("#include \"textflag.h\"")
	s.p("")
	loopKernel(&s, 32)
	loopKernel(&s, 64)
	for n := 1; n <= maxUnrolled; n++ {
		label := unrolledKernel(&s, n)
		divData(&s, n, label)
		unrolledKernel32(&s, n, label)
	}
	if err := os.WriteFile(filepath.Join(*dir, "subsets_amd64.s"), s.b.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}

	var g writer
	g.p("// Code generated by internal/gensubsets; DO NOT EDIT.")
	g.p("")
	g.p("package throughput")
	g.p("")
	g.p("import \"unsafe\"")
	g.p("")
	g.p("// maxUnrolled is the largest port count with an unrolled kernel.")
	g.p("const maxUnrolled = %d", maxUnrolled)
	g.p("")
	g.p("// scanUnrolled is scan for a layout of the unrolled kernels (n ≤")
	g.p("// maxUnrolled ports in vectors of w bytes without padding). The kernels")
	g.p("// are called directly, not through func values, so that srcs does not")
	g.p("// escape.")
	g.p("func scanUnrolled(w, n int, srcs unsafe.Pointer, nsrc int, order *uint16) (best int64, q uint64) {")
	g.p("\tswitch w<<8 | n {")
	for _, vw := range []int{64, 32} {
		for n := 1; n <= maxUnrolled; n++ {
			g.p("\tcase %d<<8 | %d:", vw, n)
			g.p("\t\treturn subsetScan%dn%d(srcs, nsrc, order)", vw, n)
		}
	}
	g.p("\t}")
	g.p("\tpanic(\"throughput: no unrolled subset kernel\")")
	g.p("}")
	for _, vw := range []int{64, 32} {
		for n := 1; n <= maxUnrolled; n++ {
			g.p("")
			g.p("//go:noescape")
			g.p("func subsetScan%dn%d(srcs unsafe.Pointer, nsrc int, order *uint16) (best int64, q uint64)", vw, n)
		}
	}
	src, err := format.Source(g.b.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*dir, "subsets_kernels_amd64.go"), src, 0o644); err != nil {
		log.Fatal(err)
	}
}
