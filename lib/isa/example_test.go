package isa_test

import (
	"fmt"
	"strings"

	"github.com/portlab/portlab/lib/isa"
)

func ExampleParseScheme() {
	f, err := isa.ParseScheme("add qword ptr RW:MEM(64), R:GPR:64")
	if err != nil {
		panic(err)
	}
	for _, o := range f.Operands {
		fmt.Printf("%s class=%s width=%d access=%s implicit=%v fixed=%q\n", o.Kind, o.Class, o.Width, o.Access, o.Implicit, o.Fixed)
	}
	fmt.Println(f.Scheme())
	fmt.Println(f.Example())
	fmt.Println(f.PMEvoName())

	_, err = isa.ParseScheme("add RW:GPR:64, R:GPX:64")
	fmt.Println(err)
	// Output:
	// Mem class=none width=64 access=RW implicit=false fixed=""
	// Reg class=GPR width=64 access=R implicit=false fixed=""
	// Reg class=FLAGS width=64 access=W implicit=true fixed="flags"
	// add qword ptr RW:MEM(64), R:GPR:64
	// add qword ptr [r14+64], rsi
	// ADD_qword_ptr_[((MEM:64))_+_((MIMM:16))],_((REG:R:G:64))
	// isa: scheme "add RW:GPR:64, R:GPX:64": unknown register class "GPX:64" at offset 17
}

// AVX-512 forms extend iwho's syntax with ZMM registers, write masks,
// zeroing and embedded broadcast.
func ExampleParseScheme_avx512() {
	f, _ := isa.ParseScheme("vaddps W:ZMM0..31{R:K1..7}{z}, R:ZMM0..31, dword ptr R:MEM(32){1to16}")
	fmt.Println(f.Example())
	fmt.Println(f.Candidates(1))
	// Output:
	// vaddps zmm17{k1}{z}, zmm18, dword ptr [r14+64]{1to16}
	// [k1 k2 k3 k4 k5 k6 k7]
}

func ExampleParseSchemeISA() {
	f, _ := isa.ParseSchemeISA(isa.AArch64, "fmla RW:VEC.4s, R:VEC.4s, R:VEC.s[1]")
	fmt.Println(f.Example())
	fmt.Println(f.PMEvoName())
	// Output:
	// fmla v1.4s, v2.4s, v3.s[1]
	// _fmla_((REG:RW:F:VEC)).4s,_((REG:R:F:VEC)).4s,_((REG:R:F:VEC)).s[1]
}

func ExampleParsePMEvo() {
	for _, name := range []string{
		"ADD_qword_ptr_[((MEM:64))_+_((MIMM:16))],_((IMM:8))",
		"_add_((REG:W:G:64)),_((REG:R:G:64)),_((REG:R:G:32)),_sxtb",
	} {
		f, err := isa.ParsePMEvo(name)
		if err != nil {
			panic(err)
		}
		fmt.Println(f.ISA, "|", f.Scheme(), "|", f.Example(), "|", f.PMEvoName() == name)
	}
	// Output:
	// x86-64 | add qword ptr RW:MEM(64), IMM(8) | add qword ptr [r14+64], 43 | true
	// aarch64 | add W:GPR:64, R:GPR:64, R:GPR:32, sxtb | add x1, x2, w3, sxtb | true
}

func ExampleSchemeOfPMEvo() {
	for _, name := range []string{
		"ADD_((REG:RW:G:64)),_((IMM:32))",
		"VPSLLD_((REG:W:V:256)),_((REG:R:V:256)),_xmmword_ptr_[((MEM:64))_+_((MIMM:16))]",
		"BT_qword_ptr_[((MEM:64))_+_((MIMM:16))],_((DIV:64))",
		"LEA_((REG:W:G:64)),__[((MEM:64))+2*((DIV:64))+((IMM:8))]",
	} {
		s, ok := isa.SchemeOfPMEvo(name)
		fmt.Println(s, ok)
	}
	// uops.info keeps lea's address shapes apart as variants:
	v, _ := isa.UopsInfoVariant(isa.MustParsePMEvo("LEA_((REG:W:G:64)),__[((MEM:64))+2*((DIV:64))+((IMM:8))]"))
	fmt.Println(v)
	// Output:
	// add RW:GPR:64, IMM(32) true
	// vpslld W:YMM0..15, R:YMM0..15, xmmword ptr R:MEM(128) true
	// bt qword ptr R:MEM(64), R:GPR:64 true
	// lea W:GPR:64, MEM(0) true
	// LEA_B_IS_D8_R64
}

func ExampleX86Forms() {
	forms := isa.X86Forms()
	fmt.Println(len(forms) >= 300, len(isa.AArch64Forms()) >= 150)
	byCategory := map[string]int{}
	for _, f := range forms {
		byCategory[f.Category]++
	}
	fmt.Println(byCategory["gpr-alu"], byCategory["avx512-mask"])
	f := forms[0]
	fmt.Println(f)
	fmt.Println(f.Example())
	// Output:
	// true true
	// 48 29
	// add RW:GPR:64, R:GPR:64 {BASE; implicit W:flags}
	// add rbx, rsi
}

func ExampleRunnableForms() {
	cpuinfo := "processor : 0\nvendor_id : GenuineIntel\ncpu family : 6\nmodel : 94\nflags : sse sse2 avx avx2 bmi1 bmi2\n"
	h, err := isa.ParseCPUInfo(strings.NewReader(cpuinfo), isa.X86)
	if err != nil {
		panic(err)
	}
	var forms []isa.Form
	for _, s := range []struct{ scheme, ext string }{
		{"vpaddd W:YMM0..15, R:YMM0..15, R:YMM0..15", "AVX2"},
		{"vpaddd W:ZMM0..31, R:ZMM0..31, R:ZMM0..31", "AVX512F"},
		{"pdep W:GPR:64, R:GPR:64, R:GPR:64", "BMI2"},
	} {
		f := isa.MustParseSchemeISA(isa.X86, s.scheme)
		f.Extension = s.ext
		forms = append(forms, f)
	}
	ok, skipped := isa.RunnableForms(forms, h)
	fmt.Println(len(ok), "runnable; skipped:", skipped[0].Scheme())
	// Output:
	// 2 runnable; skipped: vpaddd W:ZMM0..31, R:ZMM0..31, R:ZMM0..31
}
