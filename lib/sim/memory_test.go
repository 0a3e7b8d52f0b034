package sim

import (
	"maps"
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

// With renaming by address, a load through another base register holding
// the store's address is renamed too; a byte or word store is forwarded,
// not renamed, whichever registers address it (Zen 5 probes:
// bench/results/zen5-renaming-20261128); the result of a read-modify-write
// store is what a later load reads, renamed.
func TestRenamedByAddress(t *testing.T) {
	m := memMachine(t, true)
	m.Memory.RenamingBy = machine.RenameByAddress
	mp := m.Mapping.Clone()
	m.Latencies = maps.Clone(m.Latencies)
	for _, f := range []struct {
		form, usage string
		cycles      int
	}{
		{"mov W:GPR:32, dword ptr R:MEM(32)", "1*p23", 4},
		{"mov dword ptr W:MEM(32), R:GPR:32", "1*p237+1*p4", 1},
		{"add RW:GPR:32, IMM(8)", "1*p0156", 1},
		{"movzx W:GPR:32, byte ptr R:MEM(8)", "1*p23", 4},
		{"mov byte ptr W:MEM(8), R:al,bl,bpl,cl,dil,dl,r10b,r11b,r12b,r13b,r14b,r15b,r8b,r9b,sil,spl", "1*p237+1*p4", 1},
		{"add qword ptr RW:MEM(64), IMM(8)", "1*p0156+1*p23+1*p237+1*p4", 5},
		{"add qword ptr RW:MEM(64), R:GPR:64", "1*p0156+1*p23+1*p237+1*p4", 5},
	} {
		if err := mp.SetUsage(f.form, f.usage); err != nil {
			t.Fatal(err)
		}
		m.Latencies[f.form] = machine.Latency{Cycles: f.cycles}
	}
	m.Mapping = mp
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	s, err := New(m, Options{Aliasing: SameBuffer})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		src  string
		want float64
		why  string
	}{
		{"mov rax, [rdi+8]\nadd rax, 1\nmov [rsi+8], rax", 1, "renamed through another base register: the add"},
		{"mov eax, [rdi+rbx*4]\nadd eax, 1\nmov [rsi+rbx*4], eax", 1, "32 bits, indexed, renamed: the add"},
		{"movzx eax, byte ptr [rdi]\nadd eax, 1\nmov [rsi], al", 5 + 1, "a byte store: forwarded 5, the movzx nothing more, the add 1"},
		{"movzx eax, byte ptr [rdi]\nadd eax, 1\nmov [rdi], al", 5 + 1, "a byte store through the same register: still forwarded"},
		{"mov rax, [rdi+8]\nadd rax, 1\nmov [rsi+16], rax", 1, "another address: no chain through memory, the add"},
		{"add qword ptr [rdi], 1", 1, "a read-modify-write chain renamed: the add"},
	} {
		src := strings.ReplaceAll(c.src, `\n`, "\n")
		if r := simulate(t, s, src); !near(r.Cycles, c.want) {
			t.Errorf("%q: %v cycles/iteration, want %v (%s)", src, r.Cycles, c.want, c.why)
		}
	}
	// A read-modify-write store forwards its own result, not the register
	// it adds: the load of it waits for the add.
	m.Memory.Renaming, m.Memory.RenamingBy = false, ""
	fwd, err := New(m, Options{Aliasing: SameBuffer})
	if err != nil {
		t.Fatal(err)
	}
	if r := simulate(t, fwd, "add qword ptr [rdi], rcx\nmov rcx, [rsi]"); !(r.Cycles >= 5+1) {
		t.Errorf("add [rdi], rcx; mov rcx, [rsi] forwarded: %v cycles/iteration, want ≥ 6 (the add's result forwarded, then added again)", r.Cycles)
	}
	m.Memory.Renaming, m.Memory.RenamingBy = true, "value"
	if err := m.Validate(); err == nil || !strings.Contains(err.Error(), "renamingBy") {
		t.Errorf("renamingBy %q: error %v, want one naming memory.renamingBy", "value", err)
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
	// From the base register only: a chain through the index takes the
	// form's latency.
	m.ComplexLEAFrom = machine.ComplexLEAFromBase
	if s, err = New(&m, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		src  string
		want float64
	}{
		{"lea rax, [rax+r12*2+8]", 2},
		{"lea rax, [r12+rax*2+8]", 1},
		{"lea rax, [r12+rax+8]", 1},
		{"lea rax, [rax+rax*2+8]", 2},
	} {
		if r := simulate(t, s, c.src); !near(r.Cycles, c.want) {
			t.Errorf("%q with complex lea 2 from the base: %v cycles/iteration, want %v", c.src, r.Cycles, c.want)
		}
	}
	m.ComplexLEALatency = 0
	if err := m.Validate(); err == nil || !strings.Contains(err.Error(), "complexLEAFrom") {
		t.Errorf("complexLEAFrom without complexLEALatency: error %v, want one naming complexLEAFrom", err)
	}
}

// A stack engine adjusts rsp for push and pop: a run of pushes and pops is
// bound by the ports, not by a chain through rsp or the stack.
func TestStackEngine(t *testing.T) {
	m := *TestMachine()
	mp := m.Mapping.Clone()
	for _, f := range []struct{ form, usage string }{
		{"push R:GPR:64", "1*p237+1*p4"},
		{"pop W:GPR:64", "1*p23"},
	} {
		if err := mp.SetUsage(f.form, f.usage); err != nil {
			t.Fatal(err)
		}
	}
	m.Mapping = mp
	s, err := New(&m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		src  string
		want float64
	}{
		{"push rax", 1},  // port 4
		{"pop rax", 0.5}, // ports 2 and 3
		{"push rax\npush rbx\npop rbx\npop rax", 2}, // port 4, twice
		{"pop rcx\nadd rax, rcx", 1},                // the add's chain
	} {
		src := strings.ReplaceAll(c.src, `\n`, "\n")
		if r := simulate(t, s, src); !near(r.Cycles, c.want) {
			t.Errorf("%q: %v cycles/iteration, want %v", src, r.Cycles, c.want)
		}
	}
}
