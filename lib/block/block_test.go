package block

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func mustParse(t *testing.T, src string, syntax Syntax) *Block {
	t.Helper()
	b, err := Parse(src, syntax)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return b
}

func keys(b *Block) []string {
	var ks []string
	for _, in := range b.Insns {
		ks = append(ks, in.Form.Key())
	}
	return ks
}

func depStrings(ds []Dep) []string {
	var s []string
	for _, d := range ds {
		s = append(s, d.String())
	}
	return s
}

// hasDep reports whether ds holds the dependency from → to via the
// location, loop-carried or not.
func hasDep(ds []Dep, from, to int, via string, carried bool) bool {
	for _, d := range ds {
		if d.From == from && d.To == to && d.Via == via && d.LoopCarried == carried {
			return true
		}
	}
	return false
}

// requireTools skips a test when a program is missing, except in CI
// (CI=true), where the programs must be installed.
func requireTools(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("CI=true but %s is missing: %v", n, err)
			}
			t.Skipf("%s not installed: %v", n, err)
		}
	}
}

const intelMix = `
	.intel_syntax noprefix
.L2:
	movzx	edx, BYTE PTR [rdi]
	movsx	rcx, WORD PTR [rsi+8]
	movsxd	r8, eax
	cdqe
	lea	rax, -1[rdx]
	shr	rax
	sar	rdx, 1
	add	DWORD PTR [rdi], 1
	vaddps	ymm0, ymm1, YMMWORD PTR [rdi+rax*4+32]
	cvtsi2sd	xmm0, DWORD PTR [rdi]
	imul	eax, eax, 16777619
	test	al, 7
	setnz	cl
	cmovnb	rax, rbx
	jz	.L2
`

const attMix = `
.L2:
	movzbl	(%rdi), %edx
	movswq	8(%rsi), %rcx
	movslq	%eax, %r8
	cltq
	leaq	-1(%rdx), %rax
	shrq	%rax
	sarq	$1, %rdx
	addl	$1, (%rdi)
	vaddps	32(%rdi,%rax,4), %ymm1, %ymm0
	cvtsi2sdl	(%rdi), %xmm0
	imull	$16777619, %eax, %eax
	testb	$7, %al
	setne	%cl
	cmovae	%rbx, %rax
	je	.L2
`

func TestIntelAndATTAgree(t *testing.T) {
	intel := mustParse(t, intelMix, Auto)
	att := mustParse(t, attMix, Auto)
	want := []string{
		"movzx W:GPR:32, byte ptr R:MEM(8)",
		"movsx W:GPR:64, word ptr R:MEM(16)",
		"movsxd W:GPR:64, R:GPR:32",
		"cdqe",
		"lea W:GPR:64, MEM(0)",
		"shr RW:GPR:64",
		"sar RW:GPR:64",
		"add dword ptr RW:MEM(32), IMM(8)",
		"vaddps W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)",
		"cvtsi2sd RW:XMM0..15, dword ptr R:MEM(32)",
		"imul W:GPR:32, R:GPR:32, IMM(32)",
		"test R:al, IMM(8)",
		"setne W:al,bl,bpl,cl,dil,dl,r10b,r11b,r12b,r13b,r14b,r15b,r8b,r9b,sil,spl",
		"cmovae W:GPR:64, R:GPR:64",
		"je SYM",
	}
	if got := keys(intel); !reflect.DeepEqual(got, want) {
		t.Errorf("Intel forms:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := keys(att); !reflect.DeepEqual(got, want) {
		t.Errorf("AT&T forms:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, loop := range []bool{false, true} {
		di, da := depStrings(intel.Deps(loop)), depStrings(att.Deps(loop))
		if !reflect.DeepEqual(di, da) {
			t.Errorf("loop=%v: Intel deps %v, AT&T deps %v", loop, di, da)
		}
	}
	if !intel.IsLoop() || !att.IsLoop() {
		t.Error("a block ending in je is a loop body")
	}
	for i := range intel.Insns {
		if intel.Insns[i].Line != att.Insns[i].Line+1 {
			t.Errorf("insn %d: lines %d and %d (the Intel text has one more line)", i, intel.Insns[i].Line, att.Insns[i].Line)
		}
	}
}

func TestCorpusIntelAndATTAgree(t *testing.T) {
	for _, name := range []string{"dot", "fnv1a", "count_below"} {
		intel, err := ParseFile(filepath.Join("testdata", name+".s"))
		if err != nil {
			t.Fatal(err)
		}
		att, err := ParseFile(filepath.Join("testdata", name+"_att.s"))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(keys(intel), keys(att)) {
			t.Errorf("%s: forms differ:\n%s\n%s", name, intel, att)
		}
		if di, da := depStrings(intel.Deps(true)), depStrings(att.Deps(true)); !reflect.DeepEqual(di, da) {
			t.Errorf("%s: deps differ: %v vs %v", name, di, da)
		}
	}
}

const objdumpSource = `
	.text
	.globl f
f:
	xor	eax, eax
	mov	rcx, 0x123456789
	and	rax, -16
.Lloop:
	add	rax, QWORD PTR [rdi+rcx*8+0x40]
	vpaddd	ymm2, ymm1, YMMWORD PTR [rsi]
	movabs	rdx, 0x1122334455667788
	mov	QWORD PTR [rdi], rdx
	rep stosq
	add	eax, 1000
	add	rbx, 1000
	cmp	al, 0
	test	al, 0x80
	shl	rdx, 1
	sar	edx, 1
	pshufd	xmm0, xmm1, 0xe0
	xchg	rbx, rax
	xchg	rcx, rdx
	push	QWORD PTR [rdi]
	pop	rbx
	movzx	ecx, BYTE PTR [rsi+1]
	setg	dl
	cmovl	rax, rbx
	rep movsb
	mov	eax, 0xffffffff
	and	edx, 0xfffffff0
	imul	rcx, rdx, -3
	vpternlogd	zmm1, zmm2, zmm3, 0x96
	sub	rcx, 1
	jne	.Lloop
	ret
`

// TestObjdumpListing assembles objdumpSource with GNU as and reads the
// object's objdump -d listings in both syntaxes: the forms read from the
// source text (where the assembler's choice of encoding is predicted)
// must equal those read from the listing (where the bytes decide).
func TestObjdumpListing(t *testing.T) {
	requireTools(t, "as", "objdump")
	dir := t.TempDir()
	src := filepath.Join(dir, "f.s")
	obj := filepath.Join(dir, "f.o")
	if err := os.WriteFile(src, []byte(".intel_syntax noprefix\n"+objdumpSource), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("as", "--64", "-o", obj, src).CombinedOutput(); err != nil {
		t.Fatalf("as: %v\n%s", err, out)
	}
	want := keys(mustParse(t, objdumpSource, Intel))
	for _, args := range [][]string{{"-d", "-M", "intel"}, {"-d"}} {
		out, err := exec.Command("objdump", append(args, obj)...).Output()
		if err != nil {
			t.Fatalf("objdump %v: %v", args, err)
		}
		b, err := Parse(string(out), Auto)
		if err != nil {
			t.Fatalf("objdump %v listing:\n%s\n%v", args, out, err)
		}
		if got := keys(b); !reflect.DeepEqual(got, want) {
			t.Errorf("objdump %v: forms\n%s\nwant\n%s\nlisting:\n%s", args, strings.Join(got, "\n"), strings.Join(want, "\n"), out)
		}
		if len(b.Insns) != len(want) {
			t.Fatalf("objdump %v: %d instructions, want %d", args, len(b.Insns), len(want))
		}
		for _, in := range b.Insns {
			if len(in.Encoding) == 0 {
				t.Errorf("objdump %v: %q without its encoding", args, in.Text)
			}
		}
		if b.Insns[0].Addr != 0 || b.Insns[1].Addr != 2 {
			t.Errorf("objdump %v: addresses %d, %d, want 0, 2", args, b.Insns[0].Addr, b.Insns[1].Addr)
		}
		if !b.Insns[0].ZeroIdiom {
			t.Errorf("objdump %v: %q is a zero idiom", args, b.Insns[0].Text)
		}
	}
}

func TestDecodeHex(t *testing.T) {
	requireTools(t, "objdump")
	ctx := context.Background()
	// add rax, rbx; imul rax, rax; and rax, -16; vaddps zmm0, zmm0, [rdi]; jne back
	b, err := DecodeHex(ctx, "4801d8 480fafc0 4883e0f0 62f17c485807 75ed")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"add RW:GPR:64, R:GPR:64", "imul RW:GPR:64, R:GPR:64", "and RW:GPR:64, IMM(8)",
		"vaddps W:ZMM0..31, R:ZMM0..31, zmmword ptr R:MEM(512)", "jne SYM"}
	if got := keys(b); !reflect.DeepEqual(got, want) {
		t.Errorf("forms %q, want %q", got, want)
	}
	if b.Insns[2].Addr != 7 || b.Insns[2].Line != 3 {
		t.Errorf("third instruction at %d, line %d; want offset 7, line 3", b.Insns[2].Addr, b.Insns[2].Line)
	}
	if !b.IsLoop() {
		t.Error("ends in jne: a loop")
	}
	if _, err := DecodeHex(ctx, "48 01 dx"); err == nil || !strings.Contains(err.Error(), "1:8") {
		t.Errorf("bad hex digit: error %v, want one naming column 8", err)
	}
}

func TestReadBHiveCSV(t *testing.T) {
	requireTools(t, "objdump")
	csv := strings.Join([]string{
		"4889de4889c24c89ff,91.00", // mov rsi, rbx; mov rdx, rax; mov rdi, r15
		"",
		"48,12",               // truncated: a REX prefix alone
		"4801d8f4,50",         // add rax, rbx; hlt (no uops.info form)
		"480fafc0,300.5",      // imul rax, rax
		"zz,1",                // not hex
		"4801d8",              // no cycles
		"c5fd5807c5fd5807,99", // vaddpd ymm0, ymm0, [rdi] twice
		"480fafc0, ",          // not measured yet
		"480fafc0,-3",         // negative cycles
	}, "\n")
	rows, err := ReadBHiveCSV(context.Background(), strings.NewReader(csv))
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v, want a *ParseError", err)
	}
	var lines []int
	for _, l := range pe.Lines {
		lines = append(lines, l.Line)
	}
	if !reflect.DeepEqual(lines, []int{3, 4, 6, 7, 10}) {
		t.Errorf("bad lines %v, want [3 4 6 7 10]:\n%v", lines, err)
	}
	if !strings.Contains(err.Error(), "hlt") {
		t.Errorf("error does not name the hlt instruction: %v", err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%d %g %d", r.Line, r.Cycles, len(r.Block.Insns)))
	}
	if want := []string{"1 91 3", "5 300.5 1", "8 99 2", "9 NaN 1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("blocks %q, want %q", got, want)
	}
	if k := rows[1].Block.Insns[0].Form.Key(); k != "imul RW:GPR:64, R:GPR:64" {
		t.Errorf("line 5 decoded as %q", k)
	}
}

func TestLatencyChain(t *testing.T) {
	b := mustParse(t, "imul rax, rax\nimul rax, rax\nimul rax, rax\n", Intel)
	loop := b.Deps(true)
	want := []string{"2 -> 0 rax (loop-carried)", "0 -> 1 rax", "1 -> 2 rax"}
	if got := depStrings(loop); !reflect.DeepEqual(got, want) {
		t.Errorf("loop deps %q, want %q", got, want)
	}
	if got := depStrings(b.Deps(false)); !reflect.DeepEqual(got, want[1:]) {
		t.Errorf("block deps %q, want %q", got, want[1:])
	}
}

func TestIndependentMix(t *testing.T) {
	b := mustParse(t, `
		add rax, 1
		imul rbx, rcx
		vaddps ymm0, ymm1, ymm2
		mov rdx, QWORD PTR [rsi]
		lea r8, [r9+r10*2]
		mov QWORD PTR [rdi+8], r11
	`, Intel)
	// add rax, 1 and imul rbx, rcx read what they write: only the
	// loop-carried self-dependencies remain.
	for _, d := range b.Deps(true) {
		if !(d.LoopCarried && d.From == d.To && (d.Via == "rax" || d.Via == "rbx" || d.Via == "flags")) {
			t.Errorf("unexpected dependency %v", d)
		}
	}
	if ds := b.Deps(false); len(ds) != 0 {
		t.Errorf("deps %v, want none", ds)
	}
}

func TestFlags(t *testing.T) {
	b := mustParse(t, "cmp rdi, rsi\njne .L1\nadd rax, rbx\nadc rdx, rcx\n", Intel)
	ds := b.Deps(false)
	if !hasDep(ds, 0, 1, "flags", false) {
		t.Errorf("cmp -> jne missing: %v", ds)
	}
	if !hasDep(ds, 2, 3, "flags", false) {
		t.Errorf("add -> adc missing: %v", ds)
	}
	if hasDep(ds, 0, 3, "flags", false) {
		t.Errorf("adc reads the flags of add, not of cmp: %v", ds)
	}
	if b.Insns[1].Branch != true || b.Insns[0].Branch {
		t.Error("only jne is a branch")
	}
}

func TestPartialRegisters(t *testing.T) {
	b := mustParse(t, "mov rax, rcx\nmov al, 1\nadd rax, rbx\nmov eax, 2\nadd rdx, rax\n", Intel)
	ds := b.Deps(false)
	for _, w := range [][2]int{{0, 1}, {1, 2}, {3, 4}} {
		if !hasDep(ds, w[0], w[1], "rax", false) {
			t.Errorf("missing %d -> %d rax in %v", w[0], w[1], ds)
		}
	}
	for _, d := range ds {
		if d.To == 3 {
			t.Errorf("mov eax, 2 writes all of rax and reads nothing: %v", d)
		}
	}
	if r := b.Insns[1].Reads; len(r) != 1 || r[0].Name != "rax" {
		t.Errorf("mov al, 1 reads %v, want rax (the merge)", r)
	}
	if w := b.Insns[3].Writes; len(w) != 1 || w[0].Name != "rax" {
		t.Errorf("mov eax, 2 writes %v, want rax", w)
	}
	v := mustParse(t, "vmovaps ymm1, ymm2\naddps xmm1, xmm3\nvaddps zmm4, zmm1, zmm1\n", Intel)
	vd := v.Deps(false)
	if !hasDep(vd, 0, 1, "zmm1", false) || !hasDep(vd, 1, 2, "zmm1", false) {
		t.Errorf("xmm1, ymm1, zmm1 are one register: %v", vd)
	}
}

func TestMemory(t *testing.T) {
	cases := []struct {
		src  string
		want []string
	}{
		{"mov [rdi], rax\nmov rbx, [rdi]\n", []string{"0 -> 1 qword ptr [rdi]"}},
		{"mov DWORD PTR [rdi+4], eax\nmov rbx, QWORD PTR [rdi]\n", []string{"0 -> 1 qword ptr [rdi]"}},
		{"mov [rdi], rax\nmov rbx, [rdi+8]\n", nil},
		{"mov [rdi], rax\nmov rbx, [rsi]\n", nil},
		{"mov [rdi], rax\nadd rdi, 8\nmov rbx, [rdi]\n", nil},
	}
	for _, c := range cases {
		b := mustParse(t, c.src, Intel)
		var got []string
		for _, d := range b.Deps(false) {
			if d.Kind == Mem {
				got = append(got, d.String())
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: memory deps %q, want %q", c.src, got, c.want)
		}
	}
	// A counter in memory carries a dependency from one iteration to
	// the next; an advancing pointer does not.
	b := mustParse(t, "mov rax, [rdi]\nadd rax, 1\nmov [rdi], rax\n", Intel)
	if ds := b.Deps(true); !hasDep(ds, 2, 0, "qword ptr [rdi]", true) {
		t.Errorf("missing loop-carried memory dependency: %v", ds)
	}
	b = mustParse(t, "mov rax, [rdi]\nadd rax, 1\nmov [rdi], rax\nadd rdi, 8\n", Intel)
	for _, d := range b.Deps(true) {
		if d.Kind == Mem {
			t.Errorf("the pointer advances, yet %v", d)
		}
	}
	b = mustParse(t, "push rbx\npop rcx\n", Intel)
	if ds := b.Deps(false); !hasDep(ds, 0, 1, "stack", false) || !hasDep(ds, 0, 1, "rsp", false) {
		t.Errorf("push -> pop: %v", ds)
	}
}

func TestZeroIdioms(t *testing.T) {
	b := mustParse(t, `
		imul eax, eax
		xor eax, eax
		add eax, 1
		sub rbx, rbx
		pxor xmm0, xmm0
		vpxor xmm2, xmm3, xmm3
		xor eax, ebx
		pcmpeqd xmm4, xmm4
	`, Intel)
	idiom := []bool{false, true, false, true, true, true, false, false}
	for i, in := range b.Insns {
		if in.ZeroIdiom != idiom[i] {
			t.Errorf("%q: ZeroIdiom %v", in.Text, in.ZeroIdiom)
		}
		if (in.ZeroIdiom || in.DepBreaking) && len(in.Reads) != 0 {
			t.Errorf("%q reads %v", in.Text, in.Reads)
		}
	}
	if !b.Insns[7].DepBreaking {
		t.Error("pcmpeqd xmm4, xmm4 breaks dependencies")
	}
	ds := b.Deps(true)
	if hasDep(ds, 0, 1, "rax", false) || !hasDep(ds, 1, 2, "rax", false) {
		t.Errorf("xor eax, eax cuts the chain: %v", ds)
	}
	if w := b.Insns[5].Writes; len(w) != 1 || w[0].Name != "zmm2" {
		t.Errorf("vpxor xmm2, xmm3, xmm3 writes %v", w)
	}
}

func TestErrorsNameEveryLine(t *testing.T) {
	src := "add rax, rbx\nfrobnicate rax\nmov rax, [rdi\n\tadd QWORD PTR [rdi], 1\nadd [rdi], 1\ncpuid\n"
	b, err := Parse(src, Intel)
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v, want *ParseError", err)
	}
	var got []string
	for _, l := range pe.Lines {
		got = append(got, fmt.Sprintf("%d:%d", l.Line, l.Column))
	}
	if want := []string{"2:1", "3:10", "5:1", "6:1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("error positions %v, want %v:\n%v", got, want, err)
	}
	for _, s := range []string{"frobnicate", "unbalanced", "ambiguous", "cpuid"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error does not mention %q:\n%v", s, err)
		}
	}
	if len(b.Insns) != 2 || b.Insns[1].Line != 4 {
		t.Errorf("the good lines are kept: %v", b)
	}
	if _, err := Parse("addq $1, %rfoo\n", ATT); err == nil || !strings.Contains(err.Error(), "1:10: unknown register") {
		t.Errorf("unknown AT&T register: error %v", err)
	}
}

func TestImmediates(t *testing.T) {
	b := mustParse(t, `
		and rax, 0xfffffffffffffff0
		and eax, 0xfffffff0
		add rax, 1000
		mov rax, 0x123456789
		mov eax, 0xffffffff
		cmp rax, 0
		shl rax, 1
		mov al, 255
	`, Intel)
	want := []string{
		"and RW:GPR:64, IMM(8)", "and RW:GPR:32, IMM(8)", "add RW:rax, IMM(32)",
		"movabs W:GPR:64, IMM(64)", "mov W:GPR:32, IMM(32)", "cmp R:GPR:64, 0x0", "shl RW:GPR:64",
		"mov W:al,bl,bpl,cl,dil,dl,r10b,r11b,r12b,r13b,r14b,r15b,r8b,r9b,sil,spl, IMM(8)",
	}
	if got := keys(b); !reflect.DeepEqual(got, want) {
		t.Errorf("forms\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCorpus parses the inner loops of testdata/loops.c as gcc compiled
// them and requires every instruction to match a form.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.s"))
	if err != nil || len(files) < 5 {
		t.Fatalf("corpus: %v, %v", files, err)
	}
	n := 0
	for _, f := range files {
		b, err := ParseFile(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if !b.IsLoop() {
			t.Errorf("%s does not end in its loop branch", f)
		}
		n += len(b.Insns)
	}
	t.Logf("%d files, %d instructions, all matched", len(files), n)
}

// TestCompiledFunctions compiles testdata/loops.c whole (every function,
// not only the loops) at several optimisation levels and parses gcc's
// output and the objdump listing of the object.
func TestCompiledFunctions(t *testing.T) {
	requireTools(t, "gcc", "objdump")
	dir := t.TempDir()
	for _, flags := range [][]string{{"-O2", "-masm=intel"}, {"-O3", "-mavx2", "-mfma"}, {"-O1"}} {
		s := filepath.Join(dir, "loops.s")
		o := filepath.Join(dir, "loops.o")
		args := append(append([]string{"-S", "-o", s}, flags...), filepath.Join("testdata", "loops.c"))
		if out, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
			t.Fatalf("gcc %v: %v\n%s", args, err, out)
		}
		b, err := ParseFile(s)
		if err != nil {
			t.Errorf("gcc %v: %v", flags, err)
			continue
		}
		if out, err := exec.Command("gcc", "-c", "-o", o, s).CombinedOutput(); err != nil {
			t.Fatalf("gcc -c: %v\n%s", err, out)
		}
		listing, err := exec.Command("objdump", "-d", "-M", "intel", o).Output()
		if err != nil {
			t.Fatal(err)
		}
		d, err := Parse(string(listing), Auto)
		if err != nil {
			t.Errorf("objdump of gcc %v: %v", flags, err)
			continue
		}
		t.Logf("gcc %v: %d instructions, objdump: %d, all matched", flags, len(b.Insns), len(d.Insns))
	}
}

func TestMoreForms(t *testing.T) {
	cases := []struct {
		src, key, reads, writes string
	}{
		{"vaddps zmm0, zmm1, DWORD PTR [rdi]{1to16}", "vaddps W:ZMM0..31, R:ZMM0..31, dword ptr R:MEM(32){1to16}", "zmm1 rdi dword ptr [rdi]", "zmm0"},
		{"vaddps zmm0, zmm1, DWORD BCST [rdi]", "vaddps W:ZMM0..31, R:ZMM0..31, dword ptr R:MEM(32){1to16}", "zmm1 rdi dword ptr [rdi]", "zmm0"},
		{"vaddps (%rdi){1to16}, %zmm1, %zmm0", "vaddps W:ZMM0..31, R:ZMM0..31, dword ptr R:MEM(32){1to16}", "zmm1 rdi dword ptr [rdi]", "zmm0"},
		{"vaddps zmm0{k1}, zmm1, zmm2", "vaddps RW:ZMM0..31{R:K1..7}, R:ZMM0..31, R:ZMM0..31", "zmm0 k1 zmm1 zmm2", "zmm0"},
		{"vaddps zmm0{k1}{z}, zmm1, zmm2", "vaddps W:ZMM0..31{R:K1..7}{z}, R:ZMM0..31, R:ZMM0..31", "k1 zmm1 zmm2", "zmm0"},
		{"vaddps ymm0, ymm1, ymm2", "vaddps W:YMM0..15, R:YMM0..15, R:YMM0..15", "zmm1 zmm2", "zmm0"},
		{"vaddps ymm17, ymm1, ymm2", "vaddps W:YMM0..31, R:YMM0..31, R:YMM0..31", "zmm1 zmm2", "zmm17"},
		{"incl foo", "inc dword ptr RW:MEM(32)", "dword ptr foo", "dword ptr foo flags"},
		{"mov rax, QWORD PTR fs:0x28", "mov W:GPR:64, qword ptr R:MEM(64)", "qword ptr fs:[40]", "rax"},
		{"movsd xmm0, QWORD PTR .LC1[rip]", "movsd W:XMM0..15, qword ptr R:MEM(64)", "qword ptr .LC1[rip]", "zmm0"},
		{"sqrtsd xmm0, xmm1", "sqrtsd W:XMM0..15, R:XMM0..15", "zmm0 zmm1", "zmm0"},
		{"lock xadd DWORD PTR [rdi], eax", "lock xadd dword ptr RW:MEM(32), RW:GPR:32", "rdi dword ptr [rdi] rax", "dword ptr [rdi] rax flags"},
		{"rep movsb", "rep movsb byte ptr W:es:[rdi], byte ptr R:[rsi]", "rdi rsi byte ptr [rsi] rcx", "byte ptr es:[rdi] rsi rdi rcx"},
		{"repz ret", "ret", "rsp stack", "rsp"},
		{"rep bsf eax, ecx", "tzcnt W:GPR:32, R:GPR:32", "rcx", "rax flags"},
		{"rep nop", "pause", "", ""},
		{"rep stosl", "rep stosd dword ptr W:es:[rdi], R:eax", "rdi rax rcx", "dword ptr es:[rdi] rdi rcx"},
		{"div rcx", "div R:GPR:64", "rcx rax rdx", "rax rdx flags"},
		{"mulx rax, rbx, rcx", "mulx W:GPR:64, W:GPR:64, R:GPR:64", "rcx rdx", "rax rbx"},

		{"xchg rax, rbx", "xchg RW:rax, RW:GPR:64", "rax rbx", "rax rbx"},
		{"xchg rbx, rax", "xchg RW:rax, RW:GPR:64", "rax rbx", "rax rbx"},
		{"xchg rcx, QWORD PTR [rdi]", "xchg qword ptr RW:MEM(64), RW:GPR:64", "rdi qword ptr [rdi] rcx", "qword ptr [rdi] rcx"},
		{"cs nopw 0x0(%rax,%rax,1)", "nop word ptr R:MEM(16)", "rax word ptr [rax+rax*1]", ""},
		{"blendvps xmm1, xmm2, xmm0", "blendvps RW:XMM0..15, R:XMM0..15, R:xmm0", "zmm1 zmm2 zmm0", "zmm1"},
		{"blendvps xmm1, xmm2", "blendvps RW:XMM0..15, R:XMM0..15, R:xmm0", "zmm1 zmm2 zmm0", "zmm1"},
		{"blendvps %xmm0, %xmm2, %xmm1", "blendvps RW:XMM0..15, R:XMM0..15, R:xmm0", "zmm1 zmm2 zmm0", "zmm1"},
		{"movsx rax, DWORD PTR [rdi]", "movsxd W:GPR:64, dword ptr R:MEM(32)", "rdi dword ptr [rdi]", "rax"},
		{"movsx rax, ecx", "movsxd W:GPR:64, R:GPR:32", "rcx", "rax"},
		{"sall $3, %eax", "shl RW:GPR:32, IMM(8)", "rax", "rax flags"},
		{"pcmpistrm xmm1, xmm2, 0x40", "pcmpistrm R:XMM0..15, R:XMM0..15, IMM(8)", "zmm1 zmm2", "zmm0 flags"},
		{"pcmpistri xmm1, XMMWORD PTR [rdi], 0x0c", "pcmpistri R:XMM0..15, xmmword ptr R:MEM(128), IMM(8)", "zmm1 rdi xmmword ptr [rdi]", "flags rcx"},
		{"blcfill rax, rbx", "blcfill W:GPR:64, R:GPR:64", "rbx", "rax flags"},
		{"cmovnb eax, ecx", "cmovae W:GPR:32, R:GPR:32", "rax rcx flags", "rax"},
	}
	for _, c := range cases {
		b, err := Parse(c.src, Auto)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		in := b.Insns[0]
		names := func(ls []Location) string {
			var s []string
			for _, l := range ls {
				s = append(s, l.Name)
			}
			return strings.Join(s, " ")
		}
		if in.Form.Key() != c.key || names(in.Reads) != c.reads || names(in.Writes) != c.writes {
			t.Errorf("%q: %q reads [%s] writes [%s]; want %q reads [%s] writes [%s]",
				c.src, in.Form.Key(), names(in.Reads), names(in.Writes), c.key, c.reads, c.writes)
		}
	}
	// Forms neither list has are refused, not guessed.
	for _, s := range []string{"endbr64", "rep add rax, rbx", "vgatherdps ymm0, DWORD PTR [rdi+ymm1*4], ymm2"} {
		if _, err := Parse(s, Intel); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
}

func TestAArch64Refused(t *testing.T) {
	_, err := Parse("loop:\n\tadd x0, x0, #1\n\tfmla v0.4s, v1.4s, v2.4s\n\tb.ne loop\n", Auto)
	var pe *ParseError
	if !errors.As(err, &pe) || len(pe.Lines) != 3 {
		t.Fatalf("error %v, want three lines", err)
	}
	for _, l := range pe.Lines {
		if !strings.Contains(l.Msg, "AArch64 assembly is not supported") {
			t.Errorf("line %d: %s", l.Line, l.Msg)
		}
	}
}

func TestSourceText(t *testing.T) {
	src := `	.section .rodata
.LC0:
	.string "a;b#c \"q;\""
	.text
f:	add rax, 1 ; add rbx, 2   # two statements
	/* a comment
	   over two lines */ sub rcx, 1
	// a line comment
	.att_syntax
	subq $1, %rdx
	.intel_syntax noprefix
	jne f
`
	b := mustParse(t, src, Auto)
	var got []string
	for _, in := range b.Insns {
		got = append(got, fmt.Sprintf("%d %s", in.Line, in.Text))
	}
	want := []string{"5 add rax, 1", "5 add rbx, 2", "7 sub rcx, 1", "10 subq $1, %rdx", "12 jne f"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("instructions %q, want %q", got, want)
	}
	if k := b.Insns[3].Form.Key(); k != "sub RW:GPR:64, IMM(8)" {
		t.Errorf("subq $1, %%rdx: %s", k)
	}
}

// The bytes decide between forms the text cannot tell apart.
func TestEncodingDecides(t *testing.T) {
	requireTools(t, "objdump")
	cases := []struct{ hex, key string }{
		{"4883c010", "add RW:GPR:64, IMM(8)"},                                                         // add rax, 16: 83 /0 ib
		{"4881c010000000", "add RW:GPR:64, IMM(32)"},                                                  // 81 /0 id
		{"480510000000", "add RW:rax, IMM(32)"},                                                       // the accumulator form 05 id
		{"4881c3e8030000", "add RW:GPR:64, IMM(32)"},                                                  // add rbx, 1000
		{"4893", "xchg RW:rax, RW:GPR:64"},                                                            // xchg rax, rbx: 90+r
		{"4887d8", "xchg RW:GPR:64, RW:GPR:64"},                                                       // 87 /r
		{"3c05", "cmp R:al, IMM(8)"},                                                                  // cmp al, 5: 3c ib
		{"80f805", "cmp R:al,bl,bpl,cl,dil,dl,r10b,r11b,r12b,r13b,r14b,r15b,r8b,r9b,sil,spl, IMM(8)"}, // 80 /7 ib
		{"3c00", "cmp R:al, 0x0"},
		{"f3aa", "rep stosb byte ptr W:es:[rdi], R:al"},
		{"660f70c1e0", "pshufd W:XMM0..15, R:XMM0..15, IMM(8)"}, // pshufd xmm0, xmm1, 0xe0
	}
	for _, c := range cases {
		b, err := DecodeHex(context.Background(), c.hex)
		if err != nil {
			t.Errorf("%s: %v", c.hex, err)
			continue
		}
		if k := b.Insns[0].Form.Key(); k != c.key {
			t.Errorf("%s (%s): %q, want %q", c.hex, b.Insns[0].Text, k, c.key)
		}
		if len(b.Insns[0].Encoding)*2 != len(c.hex) {
			t.Errorf("%s: encoding % x", c.hex, b.Insns[0].Encoding)
		}
	}
	// The same from an objdump listing, whose encodings span lines.
	listing := "   0:\t48 81 c0 10 00 00 \tadd    rax,0x10\n   6:\t00 \n"
	b := mustParse(t, listing, Auto)
	if k := b.Insns[0].Form.Key(); k != "add RW:GPR:64, IMM(32)" || len(b.Insns[0].Encoding) != 7 {
		t.Errorf("listing: %q, encoding % x", k, b.Insns[0].Encoding)
	}
}

// The corpus loops have the dependencies that bound their throughput.
func TestCorpusDependencies(t *testing.T) {
	cases := []struct {
		file string
		want []string // loop-carried dependencies, all of them
	}{
		// dot: the addsd accumulator and the induction variable.
		{"dot.s", []string{"2 -> 0 rax (loop-carried)", "2 -> 1 rax (loop-carried)", "2 -> 2 rax (loop-carried)",
			"3 -> 3 zmm1 (loop-carried)"}},
		// strlen: only the pointer.
		{"strlen.s", []string{"0 -> 0 rax (loop-carried)"}},
		// fnv1a: the hash goes through xor and imul.
		{"fnv1a.s", []string{"1 -> 0 rdi (loop-carried)", "1 -> 1 rdi (loop-carried)", "3 -> 2 rax (loop-carried)"}},
		// count_below: xor ecx, ecx cuts the setl chain; the count and the pointer remain.
		{"count_below.s", []string{"3 -> 1 rdi (loop-carried)", "3 -> 3 rdi (loop-carried)", "4 -> 4 rax (loop-carried)"}},
	}
	for _, c := range cases {
		b, err := ParseFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range b.Deps(true) {
			if d.LoopCarried {
				got = append(got, d.String())
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: loop-carried %q, want %q\n%s", c.file, got, c.want, b)
		}
	}
}

// LLVM prints Intel syntax differently (llvm-mc --output-asm-variant=1,
// clang -masm=intel): spaces in addresses, the scale first, lower-case
// size keywords, comments after '#'.
func TestLLVMIntelStyle(t *testing.T) {
	llvm := mustParse(t, `
	mov	rax, qword ptr [rdi + 8*rcx + 16]
	vfmadd231pd	ymm0, ymm1, ymmword ptr [rsi + 8*rax] # ymm0 = (ymm1 * mem) + ymm0
	lea	rax, [rip + foo]
	movabs	rax, 4886718345
	jne	foo
`, Intel)
	gnu := mustParse(t, `
	mov	rax, QWORD PTR [rdi+rcx*8+16]
	vfmadd231pd	ymm0, ymm1, YMMWORD PTR [rsi+rax*8]
	lea	rax, foo[rip]
	movabs	rax, 0x123456789
	jne	foo
`, Intel)
	if !reflect.DeepEqual(keys(llvm), keys(gnu)) {
		t.Errorf("LLVM style\n%s\nGNU style\n%s", llvm, gnu)
	}
	for i := range llvm.Insns {
		if !reflect.DeepEqual(llvm.Insns[i].Reads, gnu.Insns[i].Reads) {
			t.Errorf("%q reads %v, %q reads %v", llvm.Insns[i].Text, llvm.Insns[i].Reads, gnu.Insns[i].Text, gnu.Insns[i].Reads)
		}
	}
}

func TestIsLoop(t *testing.T) {
	cases := []struct {
		src  string
		loop bool
	}{
		{".L1:\n add rax, 1\n jne .L1\n", true},
		{".L1:\n add rax, 1\n.L2:\n sub rbx, 1\n jne .L2\n", false}, // jumps into the block
		{" add rax, 1\n jne .Lelsewhere\n", true},                   // the head is not in the text
		{" add rax, 1\n jmp rax\n", true},
		{".L1:\n add rax, 1\n ret\n", false},
		{"   0:\t48 01 d8 \tadd rax,rbx\n   3:\t75 fb \tjne 0x0\n", true},
		{"   0:\t48 01 d8 \tadd rax,rbx\n   3:\t75 fe \tjne 0x3\n", false},
	}
	for _, c := range cases {
		if got := mustParse(t, c.src, Auto).IsLoop(); got != c.loop {
			t.Errorf("%q: IsLoop %v", c.src, got)
		}
	}
}

// A call reads the argument registers and clobbers the caller-saved ones
// (System V AMD64 ABI); callee-saved registers pass through.
func TestCallClobbers(t *testing.T) {
	b := mustParse(t, "mov rdi, rbx\nmov r12, 1\nmov r10, 2\ncall foo\nadd rax, r12\nadd rcx, r10\n", Intel)
	ds := b.Deps(false)
	if !hasDep(ds, 0, 3, "rdi", false) {
		t.Errorf("the call reads its argument rdi: %v", ds)
	}
	if !hasDep(ds, 3, 4, "rax", false) || !hasDep(ds, 1, 4, "r12", false) {
		t.Errorf("rax comes from the call, r12 from before it: %v", ds)
	}
	if !hasDep(ds, 3, 5, "r10", false) || hasDep(ds, 2, 5, "r10", false) {
		t.Errorf("the call clobbers r10: %v", ds)
	}
	in := b.Insns[3]
	if in.Form.Key() != "call SYM" || len(in.Writes) != 1+1+10+32+8 {
		t.Errorf("%s writes %d locations: %v", in.Form.Key(), len(in.Writes), in.Writes)
	}
}

// TestComparePseudoOps: objdump writes cmpps and its kin with the
// predicate in the mnemonic (cmpltps, vcmpneq_oqpd); they are the forms
// with the predicate's immediate, in Intel and AT&T syntax alike.
func TestComparePseudoOps(t *testing.T) {
	requireTools(t, "objdump")
	b, err := DecodeHex(context.Background(), "0fc2c101 f30fc2c101 c5f8c2c101 c5fdc2c10c c5fbc2c11f")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Parse("cmpps xmm0, xmm1, 1\ncmpss xmm0, xmm1, 1\nvcmpps xmm0, xmm0, xmm1, 1\nvcmppd ymm0, ymm0, ymm1, 12\nvcmpsd xmm0, xmm0, xmm1, 31", Intel)
	if err != nil {
		t.Fatal(err)
	}
	att, err := Parse("cmpltps %xmm1, %xmm0\ncmpltss %xmm1, %xmm0\nvcmpltps %xmm1, %xmm0, %xmm0\nvcmpneq_oqpd %ymm1, %ymm0, %ymm0\nvcmptrue_ussd %xmm1, %xmm0, %xmm0", ATT)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want.Insns {
		w := want.Insns[i]
		for _, got := range []Insn{b.Insns[i], att.Insns[i]} {
			if got.Form.Key() != w.Form.Key() || fmt.Sprint(got.Operands) != fmt.Sprint(w.Operands) {
				t.Errorf("%q: %s %v, want %s %v", got.Text, got.Form.Key(), got.Operands, w.Form.Key(), w.Operands)
			}
		}
	}
	// The legacy-SSE instructions have 8 predicates only.
	if _, err := Parse("cmpneq_oqps xmm0, xmm1", Intel); err == nil {
		t.Error("cmpneq_oqps: want an error, the predicate needs VEX")
	}
}
