package sim

import (
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/machine"
)

// memMachine is the test machine with memory described: loads 4 cycles,
// store-to-load forwarding 5, renaming as told, legacy-SSE merges of 2
// cycles, and the few SSE forms the tests need.
func memMachine(t *testing.T, renaming bool) *machine.Machine {
	t.Helper()
	m := *TestMachine()
	mp := m.Mapping.Clone()
	for _, f := range []string{"movapd W:XMM0..15, R:XMM0..15", "vmovapd W:XMM0..15, R:XMM0..15", "pxor RW:XMM0..15, R:XMM0..15"} {
		if err := mp.SetUsage(f, "1*p015"); err != nil {
			t.Fatal(err)
		}
	}
	m.Mapping = mp
	m.Memory = machine.Memory{LoadLatency: 4, StoreForwardLatency: 5, Renaming: renaming}
	m.MergeLatency = 2
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	return &m
}

func memSim(t *testing.T, renaming bool, alias Aliasing) *Simulator {
	t.Helper()
	s, err := New(memMachine(t, renaming), Options{Aliasing: alias})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A chain through memory runs at the forwarding latency plus what the
// add takes: the store's data is forwarded to the load (a move, nothing
// more) 5 cycles later, and the add takes 1.
func TestForwardedChain(t *testing.T) {
	s := memSim(t, false, ByExpression)
	if r := simulate(t, s, memChain); !near(r.Cycles, 5+0+1) {
		t.Errorf("%s: %v cycles/iteration, want 6 (forwarding 5 + add 1)", memChain, r.Cycles)
	}
}

// With memory renaming, a load of the address the store wrote the same
// way is the stored register: only the add remains on the chain (AMD's
// memory file), indexed or not. A vector register is forwarded, not
// renamed, and so is a store through another base register pointing at
// the same address.
func TestRenamedChain(t *testing.T) {
	s := memSim(t, true, ByExpression)
	for _, src := range []string{memChain, "mov rax, [rdi+rbx*8]\nadd rax, 1\nmov [rdi+rbx*8], rax"} {
		if r := simulate(t, s, src); !near(r.Cycles, 1) {
			t.Errorf("%s renamed: %v cycles/iteration, want 1 (the add)", src, r.Cycles)
		}
	}
	vec := "vmovups ymm0, [rdi]\nvaddps ymm0, ymm0, ymm1\nvmovups [rdi], ymm0"
	m := memMachine(t, true)
	if err := m.Mapping.SetUsage("vmovups ymmword ptr W:MEM(256), R:YMM0..15", "1*p237+1*p4"); err != nil {
		t.Fatal(err)
	}
	m.Memory.VectorStoreForwardLatency = 8
	sv, err := New(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := simulate(t, sv, vec); !near(r.Cycles, 8+4) {
		t.Errorf("%s: %v cycles/iteration, want 12 (vector forwarding 8 + vaddps 4)", vec, r.Cycles)
	}
	other := "mov rax, [rdi+8]\nadd rax, 1\nmov [rsi+8], rax"
	if r := simulate(t, memSim(t, true, SameBuffer), other); !near(r.Cycles, 6) {
		t.Errorf("%s in one buffer, renaming: %v cycles/iteration, want 6 (forwarded: another base register)", other, r.Cycles)
	}
}

// Under SameBuffer every base register points at one address, so a
// store through rsi feeds a load through rdi of the same displacement;
// by expression they are distinct arrays and the block is port-bound.
func TestSameBufferAliasing(t *testing.T) {
	src := "mov rax, [rdi+8]\nadd rax, 1\nmov [rsi+8], rax"
	if r := simulate(t, memSim(t, false, ByExpression), src); r.Cycles > 2 {
		t.Errorf("%s by expression: %v cycles/iteration, want no chain through memory", src, r.Cycles)
	}
	if r := simulate(t, memSim(t, false, SameBuffer), src); !near(r.Cycles, 6) {
		t.Errorf("%s in one buffer: %v cycles/iteration, want 6 (forwarding 5 + add 1)", src, r.Cycles)
	}
	// A pointer advanced by 8 reads, 8 bytes behind, what the previous
	// iteration stored: a loop-carried chain.
	walk := "mov rax, [rdi-8]\nadd rax, 1\nmov [rdi], rax\nadd rdi, 8"
	if r := simulate(t, memSim(t, false, SameBuffer), walk); !near(r.Cycles, 6) {
		t.Errorf("%s in one buffer: %v cycles/iteration, want 6", walk, r.Cycles)
	}
	// An lea reading the index register (a loop's next index, computed
	// beside it) does not make it a base: the harness sets up only the
	// registers of accesses, so [rsi+rax] and [rdx+rax] stay one location
	// and the store feeds the next iteration's load (a compiled loop body
	// measured at the chain's length).
	leaIndex := "mov rax, [rsi+rbx+3]\nadd rax, 1\nmov [rdx+rbx+3], rax\nlea rcx, [rbx+4]\nadd rcx, rdi"
	if r := simulate(t, memSim(t, false, SameBuffer), leaIndex); !near(r.Cycles, 6) {
		t.Errorf("%s in one buffer: %v cycles/iteration, want 6 (forwarding 5 + add 1)", leaIndex, r.Cycles)
	}
	// Reading ahead of the stores meets none of them.
	ahead := "mov rax, [rdi+8]\nadd rax, 1\nmov [rdi], rax\nadd rdi, 8"
	if r := simulate(t, memSim(t, false, SameBuffer), ahead); r.Cycles > 2 {
		t.Errorf("%s in one buffer: %v cycles/iteration, want no chain", ahead, r.Cycles)
	}
}

// A legacy-SSE write of an XMM register merges into its old value: a
// movapd into one register every iteration is a chain of the merge
// latency, the VEX form is not, and neither breaks a zero idiom's chain
// where the machine merges.
func TestMerge(t *testing.T) {
	s := memSim(t, false, ByExpression)
	for _, c := range []struct {
		src  string
		want float64
	}{
		{"movapd xmm0, xmm1", 2},
		{"pxor xmm0, xmm0", 2},
		{"vmovapd xmm0, xmm1", 1.0 / 3},
		{"movapd xmm0, xmm1\nmovapd xmm2, xmm3", 2},
	} {
		if r := simulate(t, s, c.src); !near(r.Cycles, c.want) {
			t.Errorf("%q: %v cycles/iteration, want %v", c.src, r.Cycles, c.want)
		}
	}
}

// A chain of the machine's Chains passes a value between its forms in
// its cycles: two dependent vaddps take 2 each instead of their latency
// 4, while a vmulps feeding a vaddps (not of the chain) keeps 4 + 4.
func TestChains(t *testing.T) {
	m := *TestMachine()
	m.Chains = []machine.Chain{{Forms: []string{"vaddps W:YMM0..15, R:YMM0..15, R:YMM0..15"}, Cycles: 2}}
	s, err := New(&m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := New(TestMachine(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		src          string
		plain, chain float64
	}{
		{"vaddps ymm0, ymm0, ymm1\nvaddps ymm0, ymm0, ymm2", 8, 4},
		{"vaddps ymm0, ymm0, ymm1", 4, 2},
		{"vmulps ymm0, ymm0, ymm1\nvaddps ymm0, ymm0, ymm2", 8, 8},
	} {
		if r := simulate(t, plain, c.src); !near(r.Cycles, c.plain) {
			t.Errorf("%q without chains: %v cycles/iteration, want %v", c.src, r.Cycles, c.plain)
		}
		if r := simulate(t, s, c.src); !near(r.Cycles, c.chain) {
			t.Errorf("%q with the vaddps chain: %v cycles/iteration, want %v", c.src, r.Cycles, c.chain)
		}
	}
	m.Chains[0].Forms = append(m.Chains[0].Forms, "vsubps W:YMM0..15, R:YMM0..15, R:YMM0..15")
	if _, err := New(&m, Options{}); err == nil || !strings.Contains(err.Error(), "chains[0].forms") {
		t.Errorf("a chain of an unmapped form: %v", err)
	}
}

// With ComplexLEALatency, an lea that adds base, index and displacement
// takes that latency from its address registers; a simpler one keeps the
// form's latency (1 on the test machine), a scaled index included.
func TestComplexLEA(t *testing.T) {
	m := *TestMachine()
	m.ComplexLEALatency = 2
	s, err := New(&m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := New(TestMachine(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		src          string
		plain, cplex float64
	}{
		{"lea rax, [rax+r12*2+8]", 1, 2},
		{"lea rax, [rax+rax*2]", 1, 1},
		{"lea rax, [rax+rbx*8]", 1, 1},
		{"lea rax, [rax+rbx+8]", 1, 2},
		{"lea rax, [rax+8]", 1, 1},
		{"lea rax, [rax+rbx]", 1, 1},
	} {
		if r := simulate(t, plain, c.src); !near(r.Cycles, c.plain) {
			t.Errorf("%q: %v cycles/iteration, want %v", c.src, r.Cycles, c.plain)
		}
		if r := simulate(t, s, c.src); !near(r.Cycles, c.cplex) {
			t.Errorf("%q with complex lea 2: %v cycles/iteration, want %v", c.src, r.Cycles, c.cplex)
		}
	}
}
