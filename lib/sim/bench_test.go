package sim

import (
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/machine"
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

// BenchmarkCorpus measures the simulator on the block corpus of
// bench/blocks, in simulated instructions (a block's instructions times
// the iterations simulated) per second of wall-clock time (Minsn/s) and
// of the process's CPU time (Minsn/cpu-s, the speed on a shared
// machine). One operation is one block, the blocks taken in turn:
//
//   - parse+simulate: the block parsed again from its text (block.Parse,
//     Intel syntax), then Simulate: end to end from assembly text;
//   - simulate: Simulate on the parsed block, compiling it and iterating
//     to the steady state (what bench/cmd/simspeed times);
//   - steady: the iterations alone, on programs compiled beforehand.
//
// The machine is the test machine on the uops.info Ice Lake mapping, or
// the machine PORTLAB_SIM_MACHINE names (a built-in name or a machine
// file, e.g. a host description of bench/results). Run with -cpu 1.
func BenchmarkCorpus(b *testing.B) {
	s := corpusMachine(b)
	if name := os.Getenv("PORTLAB_SIM_MACHINE"); name != "" {
		m, err := machine.Lookup(name)
		if err != nil {
			b.Fatal(err)
		}
		if s, err = New(m, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	var blocks []*block.Block
	var texts []string
	var progs []*program
	for _, blk := range corpusBlocks(b) {
		p, err := s.compile(blk)
		if err != nil {
			continue // not mapped
		}
		blocks, progs = append(blocks, blk), append(progs, p)
		lines := make([]string, len(blk.Insns))
		for i, in := range blk.Insns {
			lines[i] = in.Text
		}
		texts = append(texts, strings.Join(lines, "\n"))
	}
	b.Logf("%s: %d blocks simulated", s.Name(), len(blocks))
	measure := func(b *testing.B, one func(k int) int) {
		b.ReportAllocs()
		insns := 0
		runtime.GC() // not the garbage of the sub-benchmark before
		cpu0 := cpuTime()
		b.ResetTimer()
		for i := range b.N {
			insns += one(i % len(blocks))
		}
		b.StopTimer()
		cpu := cpuTime() - cpu0
		b.ReportMetric(float64(insns)/b.Elapsed().Seconds()/1e6, "Minsn/s")
		if cpu > 0 {
			b.ReportMetric(float64(insns)/cpu.Seconds()/1e6, "Minsn/cpu-s")
		}
	}
	b.Run("parse+simulate", func(b *testing.B) {
		// The texts that parse to the same forms as the decoded blocks.
		var ok []int
		for k, text := range texts {
			blk, err := block.Parse(text, block.Intel)
			if err == nil && len(blk.Insns) == len(blocks[k].Insns) {
				if _, err := s.compile(blk); err == nil {
					ok = append(ok, k)
				}
			}
		}
		b.Logf("%d of %d block texts parse and map", len(ok), len(texts))
		measure(b, func(k int) int {
			blk, err := block.Parse(texts[ok[k%len(ok)]], block.Intel)
			if err != nil {
				b.Fatal(err)
			}
			r, err := s.Simulate(blk)
			if err != nil {
				b.Fatal(err)
			}
			return r.Iterations * len(blk.Insns)
		})
	})
	b.Run("simulate", func(b *testing.B) {
		measure(b, func(k int) int {
			r, err := s.Simulate(blocks[k])
			if err != nil {
				b.Fatal(err)
			}
			return r.Iterations * len(blocks[k].Insns)
		})
	})
	b.Run("steady", func(b *testing.B) {
		measure(b, func(k int) int {
			return s.run(progs[k]).Iterations * len(progs[k].ops)
		})
	})
}

// cpuTime returns the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
