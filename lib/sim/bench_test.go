package sim

import (
	"testing"
)

// benchBody is a loop body of 12 instructions mixing loads, a store,
// vector and integer arithmetic and the loop branch, with loop-carried
// chains (the accumulator, the counter) and a memory dependency.
const benchBody = `.L1:
	vmovups ymm1, [rsi]
	vfmadd231ps ymm0, ymm1, ymm2
	vaddps ymm3, ymm4, ymm5
	vmulps ymm6, ymm7, ymm8
	mov rax, [rdi]
	add rax, 1
	mov [rdi], rax
	add rbx, [rsi]
	imul rdx, rdx
	lea r8, [rdi+8]
	dec rcx
	jne .L1`

// BenchmarkIterate measures the simulation alone: simulated instructions
// per second on one core, reported as insns/s.
func BenchmarkIterate(b *testing.B) {
	s := newSim(b, Options{})
	p, err := s.compile(parse(b, benchBody))
	if err != nil {
		b.Fatal(err)
	}
	const iterations = 1000
	st := newState(p, s.rob, iterations)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for range iterations {
			s.iterate(p, st)
		}
	}
	b.ReportMetric(float64(b.N)*iterations*float64(len(p.ops))/b.Elapsed().Seconds(), "insns/s")
}

// BenchmarkSimulate measures a whole Simulate call: compiling the block
// and simulating until the steady state.
func BenchmarkSimulate(b *testing.B) {
	s := newSim(b, Options{})
	blk := parse(b, benchBody)
	var r *Result
	var err error
	b.ReportAllocs()
	for range b.N {
		if r, err = s.Simulate(blk); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*float64(r.Iterations*len(blk.Insns))/b.Elapsed().Seconds(), "insns/s")
}

// The inner loop allocates nothing.
func TestIterateAllocates(t *testing.T) {
	s := newSim(t, Options{})
	p, err := s.compile(parse(t, benchBody))
	if err != nil {
		t.Fatal(err)
	}
	st := newState(p, s.rob, 10)
	if a := testing.AllocsPerRun(100, func() { s.iterate(p, st) }); a != 0 {
		t.Errorf("iterate allocates %v times per iteration", a)
	}
}
