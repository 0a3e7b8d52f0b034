package sim

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/dataset/datasettest"
	"github.com/portlab/portlab/lib/machine"
)

// corpusBlocks returns the blocks of the block corpus in bench/blocks,
// both parts.
func corpusBlocks(t testing.TB) []*block.Block {
	t.Helper()
	if _, err := exec.LookPath("objdump"); err != nil {
		t.Skip("needs binutils' objdump")
	}
	var out []*block.Block
	for _, file := range []string{"tune.csv", "heldout.csv"} {
		f, err := os.Open(filepath.Join("..", "..", "bench", "blocks", file))
		if err != nil {
			t.Fatal(err)
		}
		set, err := ReadBHive(context.Background(), f, file, 1)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, set.Blocks...)
	}
	return out
}

// TestSameAsReference: on every block of the corpus, on the machine
// descriptions committed with the host block benchmark and on the test
// machine, with the options that take the other paths of the model
// (same-buffer aliasing, sensitivity changes, an iteration limit that
// stops before the steady state), the simulator compiles the same
// program, to the bit, as the reference copy of it before it was made
// faster (reference_test.go), and simulates the same result.
func TestSameAsReference(t *testing.T) {
	datasettest.Need(t)
	blocks := corpusBlocks(t)
	// Blocks that write many registers (a call, vzeroupper, a long
	// unrolled body), which the corpus lacks.
	var long strings.Builder
	for i := range 40 {
		fmt.Fprintf(&long, "add r%d, r%d\nvaddps ymm%d, ymm%d, ymm%d\nmov [rdi+%d], r%d\nmov rax, [rdi+%d]\n", 8+i%8, 8+(i+3)%8, i%16, (i+5)%16, (i+9)%16, 8*(i%5), 8+i%8, 8*(i%7))
	}
	for _, src := range []string{
		"mov rdi, rbx\nmov r12, 1\ncall foo\nadd rax, r12\nadd rcx, r10\nmov [rsp+8], rax\nmov rdx, [rsp+8]",
		"vaddps ymm0, ymm1, ymm2\nvzeroupper\nvaddps ymm3, ymm0, ymm4\ndec rcx\njne .L1",
		long.String(),
	} {
		blocks = append(blocks, parse(t, src))
	}
	type machineCase struct {
		name string
		m    *machine.Machine
	}
	var machines []machineCase
	for _, f := range []string{
		"../../bench/results/host-blocks-zen5-20261127/host101.json",
		"../../bench/results/host-blocks-zen5-20261127-sse-zero/host101-tuned.json",
	} {
		m, err := machine.Lookup(f)
		if err != nil {
			t.Fatal(err)
		}
		machines = append(machines, machineCase{filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f), m})
	}
	// The memory file renaming by address and the lea slow from its base
	// only, on the tuned description.
	byAddress := *machines[1].m
	byAddress.Memory.Renaming, byAddress.Memory.RenamingBy = true, machine.RenameByAddress
	byAddress.ComplexLEALatency, byAddress.ComplexLEAFrom = 2, machine.ComplexLEAFromBase
	if err := byAddress.Validate(); err != nil {
		t.Fatal(err)
	}
	machines = append(machines, machineCase{machines[1].name + " renaming by address", &byAddress})
	machines = append(machines, machineCase{"test-icl", corpusMachine(t).Machine()})
	options := []Options{
		{},
		{Aliasing: SameBuffer},
		{Changes: []Change{{Form: "*", Latency: 1.5}, {Form: "*", LatencyAdd: -1}}, MaxIterations: 300, MaxPeriod: 8},
		{MaxIterations: 24},
	}
	if testing.Short() {
		blocks = blocks[:len(blocks)/8]
		options = options[:2]
	}
	for _, mc := range machines {
		for oi, opt := range options {
			if oi == 2 {
				opt.Changes = append(opt.Changes, Change{Resources: mc.m.Mapping.Ports()[:2], Throughput: 0.5})
			}
			s, err := New(mc.m, opt)
			if err != nil {
				t.Fatal(err)
			}
			simulated, bad, n := 0, 0, 0
			for k, b := range blocks {
				if oi >= 2 && k%4 != 0 {
					continue // every fourth block for the other paths
				}
				n++
				if err := sameAsReference(s, b); err != nil {
					if bad < 3 {
						t.Errorf("%s, options %d, block %d:\n%s\n%v", mc.name, oi, k+1, b, err)
					}
					bad++
				} else if _, err := s.compile(b); err == nil {
					simulated++
				}
			}
			if bad > 0 {
				t.Errorf("%s, options %d: %d of %d blocks differ", mc.name, oi, bad, n)
			}
			if simulated < n/3 {
				t.Errorf("%s, options %d: only %d of %d blocks simulated", mc.name, oi, simulated, n)
			}
		}
	}
}

// sameAsReference compares b's dependencies, and s's program and
// result on b, with the reference's.
func sameAsReference(s *Simulator, b *block.Block) error {
	for _, loop := range []bool{true, false} {
		if got, want := b.Deps(loop), refDeps(b, loop); !reflect.DeepEqual(got, want) {
			return fmt.Errorf("Deps(%v) %v, reference %v", loop, got, want)
		}
	}
	p, err := s.compile(b)
	rp, rerr := s.refCompile(b)
	if err != nil || rerr != nil {
		if fmt.Sprint(err) != fmt.Sprint(rerr) {
			return fmt.Errorf("compile: error %v, reference %v", err, rerr)
		}
		if _, serr := s.Simulate(b); fmt.Sprint(serr) != fmt.Sprint(rerr) {
			return fmt.Errorf("Simulate: error %v, reference %v", serr, rerr)
		}
		return nil
	}
	if want := fromRef(rp); !reflect.DeepEqual(p, want) {
		return fmt.Errorf("compiled\n%+v\nreference\n%+v", *p, *want)
	}
	want := s.refRun(rp)
	// Simulate compiles into the buffers of the blocks before.
	r, err := s.Simulate(b)
	if err != nil {
		return fmt.Errorf("Simulate: %v", err)
	}
	for _, r := range []*Result{s.run(p), r} {
		if math.Float64bits(r.Cycles) != math.Float64bits(want.Cycles) || math.Float64bits(r.FirstPass) != math.Float64bits(want.FirstPass) ||
			!reflect.DeepEqual(r, want) {
			return fmt.Errorf("result %+v, reference %+v", *r, *want)
		}
	}
	return nil
}

// fromRef converts the reference's program to a program.
func fromRef(rp *refProgram) *program {
	p := &program{uses: make([]use, len(rp.uses)), choices: rp.choices, reads: rp.reads, lat: rp.lat, base: rp.base,
		nslots: rp.nslots, uops: rp.uops, nres: rp.nres, defaulted: rp.defaulted}
	for i, u := range rp.uses {
		p.uses[i] = use(u)
	}
	for _, o := range rp.ops {
		p.ops = append(p.ops, op(o))
	}
	return p
}

// One Simulator serves several goroutines: the buffers it reuses are
// never shared by two simulations at once (run with -race).
func TestConcurrentSimulate(t *testing.T) {
	s := newSim(t, Options{})
	srcs := []string{fmaLoop, portMix, memChain, imulChain, imulZero, benchBody}
	want := make([]*Result, len(srcs))
	blocks := make([]*block.Block, len(srcs))
	for i, src := range srcs {
		blocks[i] = parse(t, src)
		want[i] = simulate(t, s, src)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8*len(srcs))
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 20 * len(srcs) {
				i := (g + k) % len(srcs)
				r, err := s.Simulate(blocks[i])
				if err != nil || !reflect.DeepEqual(r, want[i]) {
					errs <- fmt.Errorf("goroutine %d, block %d: %+v, %v; alone %+v", g, i, r, err, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
