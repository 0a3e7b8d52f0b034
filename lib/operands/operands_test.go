package operands

import (
	"fmt"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/isa"
)

// TestInstantiateThesisExample reproduces thesis Example 3.15 / Fig. 3.5:
// the allocation gives every instruction operands no earlier instruction of
// the same copy writes.
func TestInstantiateThesisExample(t *testing.T) {
	var forms []isa.Form
	for _, s := range []string{"add RW:GPR:64, IMM(8)", "add dword ptr RW:MEM(32), R:GPR:32", "sub RW:GPR:32, R:GPR:32", "vmulpd W:XMM0..15, R:XMM0..15, R:XMM0..15"} {
		forms = append(forms, isa.MustParseSchemeISA(isa.X86, s))
	}
	body, err := Instantiate(append(append([]isa.Form{}, forms...), forms...))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"add rax, 43", "add dword ptr [r14+1024], ecx", "sub edx, r12d", "vmulpd xmm13, xmm14, xmm15",
		"add rbx, 43", "add dword ptr [r14+1088], ecx", "sub esi, r12d", "vmulpd xmm13, xmm14, xmm15",
	}
	if strings.Join(body, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(body, "\n"), strings.Join(want, "\n"))
	}
}

// unrolled instantiates four copies of the form with the given scheme.
func unrolled(t *testing.T, scheme string, l Layout) []string {
	t.Helper()
	f := isa.MustParseSchemeISA(isa.X86, scheme)
	body, err := InstantiateLayout([]isa.Form{f, f, f, f}, l)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// destination returns the first operand of an instantiated instruction.
func destination(insn string) string {
	_, ops, _ := strings.Cut(insn, " ")
	d, _, _ := strings.Cut(ops, ",")
	return d
}

// TestMergingWritesDoNotChain checks that a write-only operand that really
// reads its register (cmov keeps it when the condition is false, setcc and
// 16-bit writes merge into the full register, bsr keeps it for a zero
// source, legacy-SSE writes keep the rest of the vector register) gets a fresh
// register in every copy, while true writes share the one write-only
// register.
func TestMergingWritesDoNotChain(t *testing.T) {
	for _, tc := range []struct {
		scheme string
		fresh  bool
	}{
		{"cmove W:GPR:64, R:GPR:64", true},
		{"sete W:al,bl,bpl,cl,dil,dl,r10b,r11b,r12b,r13b,r14b,r15b,r8b,r9b,sil,spl", true},
		{"mov W:GPR:16, R:GPR:16", true},
		{"bsr W:GPR:64, R:GPR:64", true},
		{"sqrtss W:XMM0..15, R:XMM0..15", true},
		{"movss W:XMM0..15, R:XMM0..15", true},
		{"mov W:GPR:64, R:GPR:64", false},
		{"mov W:GPR:32, R:GPR:32", false},
		{"movss W:XMM0..15, dword ptr R:MEM(32)", true},
		{"movapd W:XMM0..15, R:XMM0..15", true},
		{"vmovapd W:XMM0..15, R:XMM0..15", false},
		{"vsqrtss W:XMM0..15, R:XMM0..15, R:XMM0..15", false},
	} {
		body := unrolled(t, tc.scheme, Layout{})
		seen := map[string]bool{}
		for _, insn := range body {
			seen[destination(insn)] = true
		}
		if fresh := len(seen) == len(body); fresh != tc.fresh {
			t.Errorf("%s: destinations %v, want fresh registers: %v", tc.scheme, body, tc.fresh)
		}
		// Under WritesRead every written register is fresh.
		body = unrolled(t, tc.scheme, Layout{WritesRead: true})
		seen = map[string]bool{}
		for _, insn := range body {
			seen[destination(insn)] = true
		}
		if len(seen) != len(body) {
			t.Errorf("%s with WritesRead: destinations %v, want four registers", tc.scheme, body)
		}
	}
}

// TestMemoryLayout checks that consecutive stores, loads and
// read-modify-writes go to distinct cache lines of one page, disjoint
// between the pools, and that OneLine puts each pool into one line.
func TestMemoryLayout(t *testing.T) {
	lines := func(body []string) map[int]bool {
		set := map[int]bool{}
		for _, insn := range body {
			i := strings.Index(insn, "[r14+")
			if i < 0 {
				t.Fatalf("no memory operand in %q", insn)
			}
			var off int
			if _, err := fmt.Sscanf(insn[i:], "[r14+%d]", &off); err != nil {
				t.Fatalf("%q: %v", insn, err)
			}
			if off%64 != 0 || off < 0 || off+64 > BufferSize || BufferSize > 4096 {
				t.Errorf("%q: offset %d is not a cache line of the first page", insn, off)
			}
			set[off/64] = true
		}
		return set
	}
	pools := map[string]map[int]bool{}
	for _, scheme := range []string{"mov qword ptr W:MEM(64), R:GPR:64", "mov W:GPR:64, qword ptr R:MEM(64)", "add qword ptr RW:MEM(64), R:GPR:64"} {
		got := lines(unrolled(t, scheme, Layout{}))
		if len(got) != 4 {
			t.Errorf("%s: four copies use lines %v, want four distinct lines", scheme, got)
		}
		for other, o := range pools {
			for l := range got {
				if o[l] {
					t.Errorf("%s and %s share cache line %d", scheme, other, l)
				}
			}
		}
		pools[scheme] = got
		if one := lines(unrolled(t, scheme, Layout{OneLine: true})); len(one) != 1 {
			t.Errorf("%s with OneLine: lines %v, want one", scheme, one)
		}
	}
}

func TestInstantiateLatency(t *testing.T) {
	for _, c := range []struct {
		scheme string
		pair   LatencyPair
		want   []string
	}{
		// Other inputs come from the read-only pool, least recently used first.
		{"add RW:GPR:64, R:GPR:64", LatencyPair{0, 0}, []string{"add rax, rcx", "add rax, r12"}},
		// The output is read too: copies alternate between two registers.
		{"add RW:GPR:64, R:GPR:64", LatencyPair{1, 0}, []string{"add rax, rdx", "add rdx, rax", "add rax, rdx"}},
		{"vaddps W:XMM0..15, R:XMM0..15, R:XMM0..15", LatencyPair{1, 0}, []string{"vaddps xmm0, xmm0, xmm14", "vaddps xmm0, xmm0, xmm15"}},
		{"vaddps W:XMM0..15, R:XMM0..15, R:XMM0..15", LatencyPair{2, 0}, []string{"vaddps xmm0, xmm14, xmm0", "vaddps xmm0, xmm15, xmm0"}},
	} {
		f := isa.MustParseSchemeISA(isa.X86, c.scheme)
		got, err := InstantiateLatency(f, c.pair, len(c.want))
		if err != nil {
			t.Errorf("%s %v: %v", c.scheme, c.pair, err)
			continue
		}
		if strings.Join(got, "; ") != strings.Join(c.want, "; ") {
			t.Errorf("%s %v: %q, want %q", c.scheme, c.pair, got, c.want)
		}
	}
	pairs, why := LatencyPairs(isa.MustParseSchemeISA(isa.X86, "imul RW:GPR:64, R:GPR:64"))
	if why != "" || len(pairs) != 2 || pairs[0] != (LatencyPair{0, 0}) || pairs[1] != (LatencyPair{1, 0}) {
		t.Errorf("imul pairs %v (%s), want 0→0 and 1→0", pairs, why)
	}
	if _, why := LatencyPairs(isa.MustParseSchemeISA(isa.X86, "mov qword ptr W:MEM(64), R:GPR:64")); why == "" {
		t.Errorf("a store has no register output: want a reason")
	}
	if _, err := InstantiateLatency(isa.MustParseSchemeISA(isa.X86, "add RW:GPR:64, R:GPR:64"), LatencyPair{0, 1}, 2); err == nil {
		t.Errorf("add 0→1: no error (operand 1 is not written)")
	}
}
