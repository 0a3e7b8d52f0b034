package operands

import (
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
		"add rax, 43", "add dword ptr [r14+128], ecx", "sub edx, r12d", "vmulpd xmm13, xmm14, xmm15",
		"add rbx, 43", "add dword ptr [r14+192], ecx", "sub esi, r12d", "vmulpd xmm13, xmm14, xmm15",
	}
	if strings.Join(body, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(body, "\n"), strings.Join(want, "\n"))
	}
}
