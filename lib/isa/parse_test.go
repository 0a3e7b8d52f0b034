package isa

import (
	"errors"
	"strings"
	"testing"
)

func TestParseSchemeOperands(t *testing.T) {
	f, err := ParseScheme("vaddps W:ZMM0..31{R:K1..7}{z}, R:ZMM0..31, dword ptr R:MEM(32){1to16}")
	if err != nil {
		t.Fatal(err)
	}
	ex := f.Explicit()
	if len(ex) != 4 {
		t.Fatalf("%d explicit operands: %+v", len(ex), ex)
	}
	if o := ex[0]; o.Class != ZMM || o.Width != 512 || o.Access != W || o.Range != (RegRange{0, 31}) {
		t.Errorf("destination %+v", o)
	}
	if o := ex[1]; !o.Mask || !o.Zeroing || o.Class != K || o.Range != (RegRange{1, 7}) || o.Access != R {
		t.Errorf("mask %+v", o)
	}
	if o := ex[3]; o.Kind != KindMem || o.Width != 32 || o.Ptr != "dword" || o.Broadcast != 16 || o.Access != R {
		t.Errorf("memory %+v", o)
	}
	if got := f.Example(); got != "vaddps zmm17{k1}{z}, zmm18, dword ptr [r14+64]{1to16}" {
		t.Errorf("Example: %s", got)
	}

	f = MustParseSchemeISA(X86, "mul R:GPR:64")
	if got := f.String(); got != "mul R:GPR:64 {implicit RW:rax, W:rdx, W:flags}" {
		t.Errorf("String: %s", got)
	}
	f = MustParseSchemeISA(X86, "movzx W:eax,ebp,ebx,ecx,edi,edx,esi,esp, R:ah,bh,ch,dh")
	if o := f.Operands[1]; len(o.Regs) != 4 || o.Width != 8 || o.Class != GPR {
		t.Errorf("register set %+v", o)
	}
	if c := f.Candidates(0); len(c) != 8 || c[0] != "eax" {
		t.Errorf("Candidates %v", c)
	}
	if c := MustParseSchemeISA(X86, "kandw W:K0..7, R:K1..7, R:K0..7").Candidates(1); strings.Join(c, " ") != "k1 k2 k3 k4 k5 k6 k7" {
		t.Errorf("K1..7 candidates %v", c)
	}
	if c := MustParseSchemeISA(X86, "vaddps W:XMM0..15, R:XMM0..15, R:XMM0..15").Candidates(0); len(c) != 16 || c[15] != "xmm15" {
		t.Errorf("XMM0..15 candidates %v", c)
	}
	if c := MustParseSchemeISA(AArch64, "add W:GPR:32, R:GPR:32, R:GPR:32").Candidates(0); len(c) != 31 || c[30] != "w30" {
		t.Errorf("AArch64 GPR:32 candidates %v", c)
	}

	f = MustParseSchemeISA(X86, "lea W:GPR:64, MEM(0)")
	if o := f.Operands[1]; o.Kind != KindMem || o.Access != 0 || o.Width != 0 {
		t.Errorf("lea address %+v", o)
	}
	f = MustParseSchemeISA(X86, "rep stosq qword ptr W:es:[rdi], R:rax")
	if f.Prefix != "rep" || f.Mnemonic != "stosq" || f.Operands[0].Fixed != "es:[rdi]" || f.Operands[1].Fixed != "rax" {
		t.Errorf("rep stosq: %+v", f)
	}
	f = MustParseSchemeISA(AArch64, "fmla RW:VEC.4s, R:VEC.4s, R:VEC.s[1]")
	if o := f.Operands[2]; o.Class != Vec || o.Arrangement != "s[1]" || o.Width != 32 {
		t.Errorf("indexed element %+v", o)
	}
	f = MustParseSchemeISA(AArch64, "adds W:GPR:64, R:GPR:64, R:GPR:32, sxtw 2")
	if o := f.Operands[3]; o.Kind != KindModifier || o.Fixed != "sxtw 2" {
		t.Errorf("extend %+v", o)
	}
	if imp := f.Implicit(); len(imp) != 1 || imp[0].Fixed != "nzcv" || imp[0].Access != W {
		t.Errorf("adds implicit %+v", imp)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		isa, in, tok string
		pos          int
	}{
		{X86, "", "", 0},
		{X86, " add RW:GPR:64", " ", 0},
		{X86, "ADD RW:GPR:64, R:GPR:64", "ADD", 0},
		{X86, "lock ADD RW:GPR:64", "ADD", 5},
		{X86, "add RW:GPR:65, R:GPR:64", "GPR:65", 7},
		{X86, "add RW:GPR:64, GPR:64", "GPR:64", 15},
		{X86, "add RW:GPR:64,  R:GPR:64", " R:GPR:64", 15},
		{X86, "add RW:GPR:64, ", " ", 14},
		{X86, "add RW:GPR:64,, R:GPR:64", "GPR:64,", 7},
		{X86, "add RW:GPR:64, IMM(x)", "IMM(x)", 15},
		{X86, "add RW:GPR:64, R:foo", "foo", 17},
		{X86, "add RW:al,bx, R:GPR:64", "bx", 10},
		{X86, "add qword ptr RW:MEM(32), R:GPR:64", "qword ptr RW:MEM(32)", 4},
		{X86, "add quad ptr RW:MEM(64), R:GPR:64", "quad", 4},
		{X86, "add qword ptr RW:GPR:64, R:GPR:64", "qword ptr RW:GPR:64", 4},
		{X86, "vaddps W:XMM0..32, R:XMM0..15", "XMM0..32", 9},
		{X86, "vaddps W:ZMM0..31{z}, R:ZMM0..31", "{z}", 17},
		{X86, "vaddps W:ZMM0..31{R:XMM0..15}, R:ZMM0..31", "R:XMM0..15", 18},
		{X86, "vaddps W:ZMM0..31{R:K1..7, R:ZMM0..31", "{R:K1..7, R:ZMM0..31", 17},
		{AArch64, "add W:GPR:16, R:GPR:64", "GPR:16", 6},
		{AArch64, "fadd W:VEC.3s, R:VEC.4s", "3s", 11},
		{AArch64, "add W:GPR:64, R:GPR:64, lsl x", "lsl x", 24},
	} {
		_, err := ParseSchemeISA(c.isa, c.in)
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%q: error %v, want a *ParseError", c.in, err)
			continue
		}
		if pe.Token != c.tok || pe.Pos != c.pos {
			t.Errorf("%q: token %q at %d, want %q at %d (%v)", c.in, pe.Token, pe.Pos, c.tok, c.pos, err)
		}
		if pe.Pos > len(c.in) || !strings.HasPrefix(c.in[pe.Pos:], pe.Token) {
			t.Errorf("%q: token %q is not at offset %d", c.in, pe.Token, pe.Pos)
		}
	}
	if _, err := ParseSchemeISA("mips", "add"); err == nil {
		t.Error("unknown ISA accepted")
	}
}

func TestParsePMEvoErrors(t *testing.T) {
	for _, c := range []struct {
		in, tok string
		pos     int
	}{
		{"", "", 0},
		{"add_((REG:RW:G:64))", "add", 0},
		{"ADD_((REG:RW:G:65)),_((IMM:32))", "((REG:RW:G:65))", 4},
		{"ADD_((REG:RW:Q:64)),_((IMM:32))", "((REG:RW:Q:64))", 4},
		{"ADD_((REG:RW:G:64)),_((IMM:x))", "((IMM:x))", 21},
		{"ADD_quad_ptr_[((MEM:64))_+_((MIMM:16))],_((IMM:8))", "quad", 4},
		{"ADD_qword_ptr_[((MEM:64))_+_rax],_((IMM:8))", "[((MEM:64)) + rax]", 14},
		{"_fadd_((REG:W:F:VEC)),_((REG:R:F:VEC)).4s", "((REG:W:F:VEC))", 6},
		{"_fadd_((REG:W:F:VEC)).5s,_((REG:R:F:VEC)).4s", "5s", 22},
		{"_add_((REG:W:G:64)),_((REG:R:G:64)),_lsl_x", "lsl x", 37},
	} {
		_, err := ParsePMEvo(c.in)
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%q: error %v, want a *ParseError", c.in, err)
			continue
		}
		if pe.Token != c.tok || pe.Pos != c.pos {
			t.Errorf("%q: token %q at %d, want %q at %d (%v)", c.in, pe.Token, pe.Pos, c.tok, c.pos, err)
		}
	}
}

func TestPMEvoForms(t *testing.T) {
	f := MustParsePMEvo("ADD_qword_ptr_[((MEM:64))_+_((MIMM:16))],_((REG:R:G:64))")
	if s := f.Scheme(); s != "add qword ptr RW:MEM(64), R:GPR:64" {
		t.Errorf("scheme %s", s)
	}
	if e := f.Example(); e != "add qword ptr [r14+64], rsi" {
		t.Errorf("example %s", e)
	}
	lea := MustParsePMEvo("LEA_((REG:W:G:64)),__[((MEM:64))+2*((DIV:64))+((IMM:8))]")
	if s := lea.Scheme(); s != "lea W:GPR:64, MEM(0)" {
		t.Errorf("lea scheme %s", s)
	}
	if k := lea.Key(); k != "lea W:GPR:64, MEM(0) ~ LEA_((REG:W:G:64)),__[((MEM:64))+2*((DIV:64))+((IMM:8))]" {
		t.Errorf("lea key %s", k)
	}
	if e := lea.Example(); e != "lea rbx, [r14+2*r13+43]" {
		t.Errorf("lea example %s", e)
	}
	for name, want := range map[string]string{
		"LEA_((REG:W:G:64)),__[((MEM:64))+2*((DIV:64))+((IMM:8))]": "LEA_B_IS_D8_R64",
		"LEA_((REG:W:G:64)),__[((MEM:64))_+_((MIMM:16))]":          "LEA_B_D32_R64",
		"LEA_((REG:W:G:64)),__[2*((DIV:64))]":                      "LEA_IS_R64",
		"LEA_((REG:W:G:64)),__[((IMM:8))]":                         "LEA_D8_R64",
	} {
		if v, ok := UopsInfoVariant(MustParsePMEvo(name)); !ok || v != want {
			t.Errorf("UopsInfoVariant(%s) = %s, %v; want %s", name, v, ok, want)
		}
	}
	if _, ok := UopsInfoVariant(f); ok {
		t.Error("UopsInfoVariant of an add")
	}
	bt := MustParsePMEvo("BT_qword_ptr_[((MEM:64))_+_((MIMM:16))],_((DIV:64))")
	if s := bt.Scheme(); s != "bt qword ptr R:MEM(64), R:GPR:64" || !bt.Operands[1].Reserved {
		t.Errorf("bt: %s %+v", s, bt.Operands[1])
	}
	a := MustParsePMEvo("_ldr_((REG:W:F:128)),_[((MEM:64)),_((MIMM:16))]")
	if s := a.Scheme(); s != "ldr W:FPR:128, R:MEM(128)" {
		t.Errorf("ldr scheme %s", s)
	}
	if k := a.Key(); k != a.Scheme() {
		t.Errorf("ldr key %s", k)
	}
	m := MustParsePMEvo("MOV_((REG:W:G:64)),_((IMM:64))")
	if m.Mnemonic != "movabs" || m.PMEvoName() != "MOV_((REG:W:G:64)),_((IMM:64))" {
		t.Errorf("mov imm64: %s / %s", m.Scheme(), m.PMEvoName())
	}
	// PMEvo names of forms that came from schemes.
	for scheme, want := range map[string]string{
		"shl RW:GPR:64, R:cl":                     "SHL_((REG:RW:G:64)),_((REG:R:cl))",
		"vaddps RW:ZMM0..31{R:K1..7}, R:ZMM0..31": "VADDPS_((REG:RW:V:512)){((REG:R:K:64))},_((REG:R:V:512))",
		"lock add qword ptr RW:MEM(64), IMM(8)":   "LOCK_ADD_qword_ptr_[((MEM:64))_+_((MIMM:16))],_((IMM:8))",
		"cqo":                                     "CQO",
	} {
		f := MustParseSchemeISA(X86, scheme)
		if got := f.PMEvoName(); got != want {
			t.Errorf("PMEvoName(%s) = %s, want %s", scheme, got, want)
		}
		if g := MustParsePMEvo(want); g.Scheme() != f.Scheme() {
			t.Errorf("ParsePMEvo(%s).Scheme() = %s, want %s", want, g.Scheme(), f.Scheme())
		}
	}
}

func TestImmediateValue(t *testing.T) {
	for w, want := range map[int]uint64{8: 43, 16: 298, 32: 1<<24 + 42, 64: 1<<56 + 42, 12: 58, 6: 33, 5: 17, 1: 1} {
		if got := ImmediateValue(w); got != want {
			t.Errorf("ImmediateValue(%d) = %d, want %d", w, got, want)
		}
	}
}

func TestLookupRegister(t *testing.T) {
	for _, c := range []struct {
		isa, name, alias string
		class            Class
		width, number    int
	}{
		{X86, "eax", "rax", GPR, 32, 0},
		{X86, "ah", "rax", GPR, 8, 4},
		{X86, "r13b", "r13", GPR, 8, 13},
		{X86, "ymm17", "zmm17", YMM, 256, 17},
		{X86, "k3", "k3", K, 64, 3},
		{AArch64, "w7", "x7", GPR, 32, 7},
		{AArch64, "d5", "v5", FPR, 64, 5},
		{AArch64, "v31", "v31", Vec, 128, 31},
	} {
		r, ok := LookupRegister(c.isa, c.name)
		if !ok || r.Alias != c.alias || r.Class != c.class || r.Width != c.width || r.Number != c.number {
			t.Errorf("%s: %+v, %v", c.name, r, ok)
		}
	}
	if _, ok := LookupRegister(X86, "x0"); ok {
		t.Error("x0 is an x86 register")
	}
}

func TestReadFormsErrors(t *testing.T) {
	for _, in := range []string{
		"@category\nadd RW:GPR:64, R:GPR:64\n",
		"@frobnicate x\n",
		"add RW:GPR:64, R:GPR:64\nadd RW:GPR:64, R:GPR:64\n",
		"add RW:GPR:64, Q:GPR:64\n",
	} {
		if _, err := ReadForms(strings.NewReader(in), X86); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
	fs, err := ReadForms(strings.NewReader("# x\n@category c\n@ext BMI2\n\npdep W:GPR:64, R:GPR:64, R:GPR:64\n"), X86)
	if err != nil || len(fs) != 1 || fs[0].Category != "c" || fs[0].Extension != "BMI2" {
		t.Errorf("%+v, %v", fs, err)
	}
}

// Anything ParseScheme accepts prints to a scheme that parses to the same
// form.
func FuzzParseScheme(f *testing.F) {
	for _, s := range []string{
		"add RW:GPR:64, R:GPR:64", "mov qword ptr W:MEM(64), R:GPR:64", "lea W:GPR:64, MEM(0)",
		"vaddps W:ZMM0..31{R:K1..7}{z}, R:ZMM0..31, dword ptr R:MEM(32){1to16}", "rep stosb byte ptr W:es:[rdi], R:al",
		"add RW:al,bl,cl,dl, R:ah,bh,ch,dh", "rol RW:GPR:32, 0x0", "jmp SYM", "cqo",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, isa := range []string{X86, AArch64} {
			form, err := ParseSchemeISA(isa, s)
			if err != nil {
				continue
			}
			g, err := ParseSchemeISA(isa, form.Scheme())
			if err != nil {
				t.Fatalf("%q -> %q: %v", s, form.Scheme(), err)
			}
			if !g.Equal(form) {
				t.Fatalf("%q -> %q parses to a different form", s, form.Scheme())
			}
			_ = form.Example()
			_ = form.PMEvoName()
		}
	})
}

// Anything ParsePMEvo accepts prints back to the same name.
func FuzzParsePMEvo(f *testing.F) {
	for _, s := range []string{
		"ADD_((REG:RW:G:64)),_((IMM:32))", "LEA_((REG:W:G:64)),__[((MEM:64))+2*((DIV:64))+((IMM:8))]",
		"_add_((REG:W:G:64)),_((REG:R:G:64)),_((REG:R:G:32)),_sxth_3",
		"_tbl_((REG:W:F:VEC)).16b,_{((REG:R:F:VEC)).16b},_((REG:R:F:VEC)).16b",
		"_ldr_((REG:W:G:64)),_[((MEM:64)),_((MIMM:16))]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		form, err := ParsePMEvo(s)
		if err != nil {
			return
		}
		if got := form.PMEvoName(); got != s {
			t.Fatalf("%q prints back as %q", s, got)
		}
		_ = form.Scheme()
		_ = form.Example()
	})
}
