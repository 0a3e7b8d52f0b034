package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/resource"
	"github.com/portlab/portlab/lib/throughput"
)

func parse(t testing.TB, src string) *block.Block {
	t.Helper()
	b, err := block.Parse(src, block.Intel)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func simulate(t testing.TB, s *Simulator, src string) *Result {
	t.Helper()
	r, err := s.Simulate(parse(t, src))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Converged {
		t.Fatalf("%s: no steady state: %s", src, r)
	}
	return r
}

func newSim(t testing.TB, opt Options) *Simulator {
	t.Helper()
	s, err := New(TestMachine(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

const (
	fmaLoop   = "vfmadd231ps ymm0, ymm1, ymm2"
	portMix   = "vaddps ymm3, ymm4, ymm5\nvmulps ymm6, ymm7, ymm8\nvaddps ymm9, ymm10, ymm11\nlea rax, [rdi+8]\nlea rdx, [rsi+8]\nmov r8, [rdi]"
	memChain  = "mov rax, [rdi]\nadd rax, 1\nmov [rdi], rax"
	imulChain = "imul rax, rax"
	imulZero  = "xor eax, eax\nimul rax, rax"
)

// The FMA accumulates into ymm0: every iteration waits for the previous
// one's 4 cycles, while its ports (0 and 1) would allow two per cycle.
func TestLatencyBoundFMA(t *testing.T) {
	s := newSim(t, Options{})
	r := simulate(t, s, fmaLoop)
	if !near(r.Cycles, 4) {
		t.Errorf("FMA chain: %v cycles/iteration, want the latency 4", r)
	}
	bound, err := throughput.Bottleneck(s.Machine().Mapping, parse(t, fmaLoop).Experiment())
	if err != nil {
		t.Fatal(err)
	}
	if pc := bound.PortCycles(); !(pc >= 0.5 && pc <= 1) || pc >= r.Cycles {
		t.Errorf("port bound %v, want 0.5–1 and below the simulation's %v", pc, r.Cycles)
	}
}

// Independent instructions run at the port bound.
func TestPortBoundMix(t *testing.T) {
	s := newSim(t, Options{})
	b := parse(t, portMix)
	bound, err := throughput.Bottleneck(s.Machine().Mapping, b.Experiment())
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Simulate(b)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Converged || !near(r.Cycles, bound.PortCycles()) {
		t.Errorf("port-bound mix: %v, want the port bound %v (%d µops on ports %v)", r, bound.PortCycles(), bound.Num, bound.Bottleneck)
	}
	if near(bound.PortCycles(), 1.5) {
		t.Fatal("the mix is front-end bound: the test proves nothing")
	}
}

// A load, an add and a store to the same address form a loop-carried
// chain through memory: load 4 + add 1 + store 1 (the store's share of
// forwarding) cycles.
func TestMemoryChain(t *testing.T) {
	r := simulate(t, newSim(t, Options{}), memChain)
	if !near(r.Cycles, 6) {
		t.Errorf("chain through memory: %v, want 4+1+1 = 6", r)
	}
	// Another address: no chain, the store port (4) bounds.
	r = simulate(t, newSim(t, Options{}), "mov rax, [rdi]\nadd rax, 1\nmov [rsi], rax")
	if !near(r.Cycles, 1) {
		t.Errorf("load and store to distinct arrays: %v, want 1 (store data port)", r)
	}
}

// A zero idiom breaks the loop-carried chain of imul.
func TestZeroIdiomBreaksChain(t *testing.T) {
	s := newSim(t, Options{})
	if r := simulate(t, s, imulChain); !near(r.Cycles, 3) {
		t.Errorf("imul chain: %v, want its latency 3", r)
	}
	if r := simulate(t, s, imulZero); !near(r.Cycles, 1) {
		t.Errorf("imul after a zero idiom: %v, want the port bound 1 (port 1)", r)
	}
}

// A register input and a memory input have their own latencies: the
// accumulator chain of add rax, [rsi] is 1 cycle, not the load's 5.
func TestOperandLatency(t *testing.T) {
	r := simulate(t, newSim(t, Options{}), "add rax, [rsi]")
	if !near(r.Cycles, 1) {
		t.Errorf("add rax, [rsi]: %v, want 1 (register-to-register latency)", r)
	}
	r = simulate(t, newSim(t, Options{}), "add rax, [rax]")
	if !near(r.Cycles, 5) {
		t.Errorf("add rax, [rax]: %v, want 5 (through the address)", r)
	}
}

// The reorder buffer bounds how far independent work runs ahead of a
// long chain: with a tiny one the chain and the loads no longer overlap.
func TestReorderBuffer(t *testing.T) {
	src := "imul rax, rax\n" + strings.Repeat("mov rbx, [rsi]\n", 8)
	r := simulate(t, newSim(t, Options{}), src)
	if !near(r.Cycles, 4) {
		t.Errorf("imul + 8 loads: %v, want the load ports' bound 4", r)
	}
	m := TestMachine()
	m.ReorderBuffer = 4
	s, err := New(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r = simulate(t, s, src)
	if r.Cycles <= 4+1e-6 {
		t.Errorf("with a 4-µop reorder buffer: %v, want more than 4", r)
	}
}

// A conjunctive resource mapping (PALMED) works too: with the dual of
// the port mapping, independent instructions run at its bound, and the
// FMA chain at its latency.
func TestResourceMapping(t *testing.T) {
	m := TestMachine()
	rm := resource.DualClosure(m.Mapping)
	s := newSim(t, Options{Resources: rm})
	b := parse(t, portMix)
	want, _, err := rm.Cycles(b.Experiment())
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Simulate(b)
	if err != nil {
		t.Fatal(err)
	}
	if !near(r.Cycles, want) {
		t.Errorf("resource mapping: %v, want its bound %v", r, want)
	}
	if r := simulate(t, s, fmaLoop); !near(r.Cycles, 4) {
		t.Errorf("FMA chain on resources: %v, want 4", r)
	}
}

func TestUnmappedFormIsAnError(t *testing.T) {
	_, err := newSim(t, Options{}).Simulate(parse(t, "vfmadd231ps ymm0, ymm1, ymm2\nsub rax, rbx"))
	if err == nil || !strings.Contains(err.Error(), "sub rax, rbx") {
		t.Fatalf("got %v, want an error naming the unmapped instruction", err)
	}
}

func TestTestMachine(t *testing.T) {
	m := TestMachine()
	if m.Name != TestMachineName || len(m.Latencies) != m.Mapping.Len() {
		t.Errorf("test machine %s: %d latencies for %d forms", m.Name, len(m.Latencies), m.Mapping.Len())
	}
}

// Random mixes of independent instructions run at the bound of package
// throughput: the port bound, or the front end's where it is higher —
// also without front end and reorder buffer, where the queues grow
// without bound and the steady state is slow to come.
func TestIndependentMixesRunAtTheBound(t *testing.T) {
	t.Run("test machine", func(t *testing.T) { independentMixes(t, TestMachine()) })
	m := TestMachine()
	m.FrontEnd = machine.FrontEnd{}
	m.ReorderBuffer, m.IssueWidth, m.RetireWidth = 0, 0, 0
	t.Run("unbounded", func(t *testing.T) { independentMixes(t, m) })
}

func independentMixes(t *testing.T, m *machine.Machine) {
	s, err := New(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	model := throughput.NewModel(m.Mapping).WithFrontEnd(m.FrontEnd.Bound())
	// Without a reorder buffer the load ports' queue leads for about 20
	// iterations before the store data port's overtakes it.
	slow := "vmulps ymm8, ymm14, ymm15\nmov r9, [rdi]\nvmulps ymm10, ymm14, ymm15\nvmulps ymm11, ymm14, ymm15\nvmovups ymm12, [rsi]\njne .L13\nmov [rsi+48], rdi\nvmovups ymm15, [rsi]\nmov [rsi+64], rdi"
	sb := parse(t, slow)
	want, err := model.Cycles(sb.Experiment())
	if err != nil {
		t.Fatal(err)
	}
	if r, err := s.Simulate(sb); err != nil || !near(r.Cycles, want) {
		t.Errorf("two stores: %v, %v; want the bound %v", r, err, want)
	}
	forms := []string{"vaddps ymm%d, ymm14, ymm15", "vmovups ymm%d, [rsi]", "lea r%d, [rdi+8]", "vmulps ymm%d, ymm14, ymm15",
		"mov r%d, [rdi]", "mov [rsi+%d], rdi", "jne .L%d", "xor r%dd, r%[1]dd"}
	rng := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < 200; k++ {
		var lines []string
		for i := range 2 + rng.IntN(10) {
			j, x := rng.IntN(len(forms)), 8+i%6
			if j == 5 {
				x = 8 * i // distinct addresses: no memory dependency
			}
			lines = append(lines, fmt.Sprintf(forms[j], x))
		}
		b := parse(t, strings.Join(lines, "\n"))
		r, err := s.Simulate(b)
		if err != nil {
			t.Fatal(err)
		}
		want, err := model.Cycles(b.Experiment())
		if err != nil {
			t.Fatal(err)
		}
		if !r.Converged || math.Abs(r.Cycles-want) > 1e-9*want {
			t.Errorf("%q: %v, want the bound %v", strings.Join(lines, "; "), r, want)
		}
	}
}

// Without a reorder buffer, a load of latency 200 retires later than the
// stores for about 130 iterations, at its port's rate; then port 4's
// queue of stores overtakes it. The early rate is no steady state.
func TestSlowTransient(t *testing.T) {
	m := TestMachine()
	m.FrontEnd = machine.FrontEnd{}
	m.ReorderBuffer, m.IssueWidth, m.RetireWidth = 0, 0, 0
	const load = "vmovups W:YMM0..15, ymmword ptr R:MEM(256)"
	m.Latencies[load] = machine.Latency{Cycles: 200}
	s, err := New(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := simulate(t, s, "vmovups ymm1, [rsi]\nmov [rdi], rax\nmov [rdi+8], rax")
	if !near(r.Cycles, 2) || r.Iterations < 130 {
		t.Errorf("%v, want 2 cycles/iteration (two stores on port 4), found after the stores overtake the load", r)
	}
}

// The timeline of the FMA chain: one FMA every 4 cycles from the first.
func TestTimeline(t *testing.T) {
	s := newSim(t, Options{})
	tl, err := s.Timeline(parse(t, fmaLoop), 5)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range tl {
		if !near(x, 4*float64(i+1)) {
			t.Errorf("timeline %v, want 4, 8, 12, 16, 20", tl)
			break
		}
	}
	if _, err := s.Timeline(parse(t, fmaLoop), 0); err == nil {
		t.Error("0 iterations accepted")
	}
}

// One Simulator serves several goroutines (run with -race to check).
func TestConcurrentUse(t *testing.T) {
	s := newSim(t, Options{})
	b := parse(t, memChain)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r, err := s.Simulate(b); err != nil || !near(r.Cycles, 6) {
				t.Errorf("%v, %v", r, err)
			}
		}()
	}
	wg.Wait()
}

// A machine without latencies (the built-in Zen+-like one) is simulated
// with the documented defaults, and the result names the forms that took
// them: a chain of add through a load runs at 1 + 4 cycles.
func TestDefaultLatencies(t *testing.T) {
	m, err := machine.Lookup(machine.ZenPlusLikeName)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := simulate(t, s, "add rax, rbx")
	if !near(r.Cycles, DefaultLatency) || len(r.Defaulted) != 1 || r.Defaulted[0] != "add RW:GPR:64, R:GPR:64" {
		t.Errorf("add chain: %v, defaulted %v", r, r.Defaulted)
	}
	r = simulate(t, s, "mov rax, [rax]")
	if !near(r.Cycles, DefaultLatency+DefaultLoadLatency) {
		t.Errorf("pointer chasing: %v, want %d", r, DefaultLatency+DefaultLoadLatency)
	}
	if r := simulate(t, newSim(t, Options{}), fmaLoop); len(r.Defaulted) != 0 {
		t.Errorf("the test machine has every latency, yet %v defaulted", r.Defaulted)
	}
}

// TestTracedIterationIsTheSame: the critical-path analysis runs its own
// copy of the inner loop (iterateTraced, which records who held each
// value and resource; the plain loop stays free of that for speed). Both
// must retire every iteration at the same time.
func TestTracedIterationIsTheSame(t *testing.T) {
	const n = 40
	for _, src := range []string{fmaLoop, portMix, memChain, imulChain, imulZero, "add rax, [rsi]", "mov rax, [rdi]\nadd rax, rbx\nimul rbx, rax\nmov [rsi], rbx\nvaddps ymm0, ymm0, ymm1"} {
		s := newSim(t, Options{})
		b := parse(t, src)
		plain, err := s.Timeline(b, n)
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.compile(b)
		if err != nil {
			t.Fatal(err)
		}
		st := newState(p, s.rob, n)
		tr := newTracer(p, s.rob)
		var ev []event
		for it := range n {
			ev = s.iterateTraced(p, st, &tr, ev)
			if got := ev[len(ev)-1].retire; !near(got, plain[it]) {
				t.Errorf("%q iteration %d: traced retires at %g, plain at %g", src, it, got, plain[it])
				break
			}
		}
	}
}
