package isa

import (
	"strings"
	"testing"
)

// stringScheme is Form.Scheme built from each operand's scheme string,
// as it was before the scheme was appended into one buffer.
func stringScheme(f Form) string {
	var b strings.Builder
	if f.Prefix != "" {
		b.WriteString(f.Prefix + " ")
	}
	b.WriteString(f.Mnemonic)
	first := true
	for _, o := range f.Operands {
		if o.Implicit {
			continue
		}
		if o.Mask {
			b.WriteString("{" + o.scheme() + "}")
			if o.Zeroing {
				b.WriteString("{z}")
			}
			continue
		}
		if first {
			b.WriteByte(' ')
		} else {
			b.WriteString(", ")
		}
		first = false
		b.WriteString(o.scheme())
	}
	return b.String()
}

// Scheme, appended into one buffer, is the scheme of the operands'
// strings, on every curated form and on forms with the rarer parts of
// the syntax (prefixes, masks, broadcasts, fixed and listed registers,
// AArch64 arrangements and register lists).
func TestSchemeAppend(t *testing.T) {
	forms := append(X86Forms(), AArch64Forms()...)
	for _, c := range []struct{ isa, scheme string }{
		{X86, "rep stosq qword ptr W:es:[rdi], R:rax"},
		{X86, "vaddps W:ZMM0..31{R:K1..7}{z}, R:ZMM0..31, R:MEM(32){1to16}"},
		{X86, "shl RW:GPR:64, R:cl"},
		{X86, "lea W:GPR:64, MEM(64)"},
		{X86, "movsb byte ptr W:MEM(8), byte ptr R:MEM(8)"},
		{AArch64, "tbl W:VEC.16b, {R:VEC.16b}, R:VEC.16b"},
	} {
		f, err := ParseSchemeISA(c.isa, c.scheme)
		if err != nil {
			t.Fatal(err)
		}
		forms = append(forms, f)
	}
	if len(forms) < 500 {
		t.Fatalf("only %d forms", len(forms))
	}
	for _, f := range forms {
		if got, want := f.Scheme(), stringScheme(f); got != want {
			t.Errorf("Scheme %q, want %q", got, want)
		}
	}
}
