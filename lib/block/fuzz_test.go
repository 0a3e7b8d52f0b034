package block

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParse checks that any text either parses or fails with a
// *ParseError whose lines exist, and that every instruction parsed has a
// form and a line.
func FuzzParse(f *testing.F) {
	for _, s := range []string{intelMix, attMix, objdumpSource, "mov [rdi], rax\nmov rbx, [rdi]\n",
		"vaddps zmm0{k1}{z}, zmm1, DWORD PTR [rdi]{1to16}", "   0:\t48 01 d8 \tadd rax,rbx\n", "rep stos QWORD PTR es:[rdi],rax",
		"lea rax, -1[rdx]", ".L1: /* x */ add rax, 1 ; jne .L1 # y", "movabs %rax, 0x10", "xchg rbx, rax"} {
		f.Add(s)
	}
	t, err := DefaultForms()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(tt *testing.T, src string) {
		b, err := t.Parse(src, Auto)
		lines := strings.Count(src, "\n") + 1
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || len(pe.Lines) == 0 {
				tt.Fatalf("error %v is not a *ParseError with lines", err)
			}
			for _, l := range pe.Lines {
				if l.Line < 1 || l.Line > lines {
					tt.Fatalf("error names line %d of %d", l.Line, lines)
				}
			}
		}
		for _, in := range b.Insns {
			if in.Form.Mnemonic == "" || in.Line < 1 || in.Line > lines {
				tt.Fatalf("instruction %+v", in)
			}
		}
		b.Deps(true)
		_ = b.String()
		b.IsLoop()
	})
}
