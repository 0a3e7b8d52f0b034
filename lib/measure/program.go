package measure

import (
	"bytes"
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Kernel is one benchmark: a loop whose body is executed Iterations times
// per timing. Body lines are x86-64 instructions in Intel syntax without
// register prefixes. The body may use every register except rsp, r14 (the
// base of the memory buffer, valid for [r14 + 0 .. BufferSize)) and r15
// (the loop counter).
type Kernel struct {
	Name string   // for error messages
	Body []string // loop body
	Init []string // run once before timing, after the default initialisation
	// Entry runs once right before the loop, after the clock started
	// (whose rdtsc overwrites rax and rdx): set-up of those registers.
	// Its few cycles count once in a timing of about a million.
	Entry []string
	// Exit runs once after the loop, before the clock stops.
	Exit []string
}

// Vector selects the widest vector registers the default initialisation
// and clean-up touch: the host's widest usable width.
type Vector int

const (
	NoVector Vector = iota // no AVX: SSE registers only
	AVX                    // ymm0..15, vzeroupper at the end
	AVX512                 // zmm0..31 and k1..k7
)

// BufferSize is the size of the memory buffer kernels address through r14.
// It is filled with the 32-bit pattern 0x3f800000 (float 1.0; as a double
// it is a normal number too), a benign value for every operand type.
const BufferSize = 1 << 20

// Object is assembled code for a list of kernels, ready to be loaded into a
// worker. Code is position independent.
type Object struct {
	Code    []byte
	Entry   []int // offset of each kernel's function in Code
	Kernels []Kernel
}

// Assemble writes the kernels as functions of one assembly file, runs the
// system assembler (GNU as) once on it, and extracts the code. An error
// names the kernel and the instruction the assembler rejected.
func Assemble(ctx context.Context, kernels []Kernel, vec Vector) (*Object, error) {
	var src bytes.Buffer
	lineOf := []lineRef{} // source line → kernel, body index
	emit := func(ref lineRef, format string, args ...any) {
		fmt.Fprintf(&src, format+"\n", args...)
		lineOf = append(lineOf, ref)
	}
	none := lineRef{kernel: -1}
	emit(none, ".intel_syntax noprefix")
	emit(none, ".text")
	for k, kern := range kernels {
		emit(none, ".p2align 6")
		emit(none, ".globl portlab_kernel_%d", k)
		emit(none, "portlab_kernel_%d:", k)
		for _, l := range prologue(vec) {
			emit(none, "  %s", l)
		}
		for i, l := range kern.Init {
			emit(lineRef{k, i, true}, "  %s", l)
		}
		if vec != NoVector && legacySSEOnly(kern.Body) {
			emit(none, "  vzeroupper")
		}
		for _, l := range startClock {
			emit(none, "  %s", l)
		}
		for i, l := range kern.Entry {
			emit(lineRef{k, len(kern.Init) + i, true}, "  %s", l)
		}
		emit(none, "  .p2align 5")
		emit(none, "1:")
		for i, l := range kern.Body {
			if strings.ContainsAny(l, "\n;") {
				return nil, fmt.Errorf("measure: kernel %q line %d: one instruction per line, got %q", kern.Name, i+1, l)
			}
			emit(lineRef{k, i, false}, "  %s", l)
		}
		emit(none, "  dec r15")
		emit(none, "  jnz 1b")
		for _, l := range kern.Exit {
			emit(none, "  %s", l)
		}
		for _, l := range epilogue(vec) {
			emit(none, "  %s", l)
		}
	}
	dir, err := os.MkdirTemp("", "portlab-asm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	srcPath, objPath := filepath.Join(dir, "kernels.s"), filepath.Join(dir, "kernels.o")
	if err := os.WriteFile(srcPath, src.Bytes(), 0o644); err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "as", "--64", "-o", objPath, srcPath)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			// as did not run: the machinery is missing, not the code wrong.
			return nil, infra(fmt.Errorf("measure: running the assembler: %w (install GNU as: Debian package binutils)", err))
		}
		return nil, asmError(stderr.String(), lineOf, kernels, err)
	}
	return readObject(objPath, kernels)
}

type lineRef struct {
	kernel int
	index  int
	init   bool
}

var asLine = regexp.MustCompile(`^[^:]*:(\d+): (Error|Warning): (.*)$`)

// asmError turns GNU as diagnostics into an error naming kernels and
// instructions.
func asmError(out string, lineOf []lineRef, kernels []Kernel, runErr error) error {
	var msgs []string
	// The copies of one instruction in an unrolled body fail alike: report
	// each instruction and message once, with the number of copies.
	type key struct {
		kernel     int
		text, what string
	}
	at := map[key]int{} // → index in msgs
	copies := map[key]int{}
	for _, l := range strings.Split(out, "\n") {
		m := asLine.FindStringSubmatch(l)
		if m == nil || m[2] != "Error" {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		if n < 1 || n > len(lineOf) || lineOf[n-1].kernel < 0 {
			msgs = append(msgs, m[3])
			continue
		}
		ref := lineOf[n-1]
		kern := kernels[ref.kernel]
		part, text := "body", ""
		if ref.init && ref.index >= len(kern.Init) {
			part, text = "entry", kern.Entry[ref.index-len(kern.Init)]
		} else if ref.init {
			part, text = "init", kern.Init[ref.index]
		} else {
			text = kern.Body[ref.index]
		}
		k := key{ref.kernel, text, m[3]}
		if i, dup := at[k]; dup {
			copies[k]++
			msgs[i] = fmt.Sprintf("%q in kernel %d (%s), %s line %d and %d more: %s", text, ref.kernel, kern.Name, part, firstLine(msgs[i]), copies[k], m[3])
			continue
		}
		at[k] = len(msgs)
		msgs = append(msgs, fmt.Sprintf("%q in kernel %d (%s), %s line %d: %s", text, ref.kernel, kern.Name, part, ref.index+1, m[3]))
	}
	if len(msgs) == 0 {
		return fmt.Errorf("measure: as failed: %v: %s", runErr, strings.TrimSpace(out))
	}
	if len(msgs) > 10 {
		msgs = append(msgs[:10], fmt.Sprintf("… and %d more", len(msgs)-10))
	}
	return &AssemblyError{Messages: msgs}
}

// firstLine returns the line number of the first report of an assembler
// message built by asmError.
func firstLine(msg string) int {
	var n int
	if i := strings.Index(msg, " line "); i >= 0 {
		fmt.Sscanf(msg[i+len(" line "):], "%d", &n)
	}
	return n
}

// AssemblyError lists what the assembler rejected.
type AssemblyError struct {
	Messages []string
}

func (e *AssemblyError) Error() string {
	return "measure: the assembler rejected " + strings.Join(e.Messages, "; ")
}

func readObject(path string, kernels []Kernel) (*Object, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("measure: reading %s: %w", path, err)
	}
	defer f.Close()
	text := f.Section(".text")
	if text == nil {
		return nil, fmt.Errorf("measure: %s has no .text section", path)
	}
	code, err := text.Data()
	if err != nil {
		return nil, err
	}
	syms, err := f.Symbols()
	if err != nil {
		return nil, err
	}
	if rels := f.Section(".rela.text"); rels != nil && rels.Size > 0 {
		data, _ := rels.Data()
		var names []string
		for i := 0; i+24 <= len(data); i += 24 {
			si := int(f.ByteOrder.Uint64(data[i+8:]) >> 32)
			if si >= 1 && si <= len(syms) {
				names = append(names, syms[si-1].Name)
			}
		}
		return nil, fmt.Errorf("measure: the kernels refer to symbols %q (a misspelt register?); kernels may use registers, immediates and [r14 + offset] only", names)
	}
	obj := &Object{Code: code, Entry: make([]int, len(kernels)), Kernels: kernels}
	found := 0
	for _, s := range syms {
		var k int
		if _, err := fmt.Sscanf(s.Name, "portlab_kernel_%d", &k); err == nil && k >= 0 && k < len(kernels) {
			obj.Entry[k] = int(s.Value)
			found++
		}
	}
	if found != len(kernels) {
		return nil, fmt.Errorf("measure: found %d of %d kernel symbols in %s", found, len(kernels), path)
	}
	return obj, nil
}

// legacySSEOnly reports whether a loop body uses vector registers only
// through legacy-SSE instructions (no VEX or EVEX encoding, no mask
// registers). Such a body starts with the upper halves of the vector
// registers zero, the state compiled SSE code runs in (the x86-64 ABI's
// callers clear them with vzeroupper after AVX code): with them in use, a
// legacy-SSE write keeps the upper half and so waits for the register's
// old value — on a Zen 5 host movapd xmm, xmm then runs at 2 cycles a
// copy instead of 0.25, sqrtps at 14 instead of 4.5 — and on Intel cores
// it costs a blend µop each (Intel's optimization reference manual, "Mixing
// AVX code with SSE code"). A body that uses VEX or EVEX instructions runs
// as initialised, its upper halves holding the benign pattern.
func legacySSEOnly(body []string) bool {
	sse := false
	for _, l := range body {
		l = strings.ToLower(l)
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		switch {
		case strings.HasPrefix(f[0], "v") && (strings.Contains(l, "mm") || maskRegister.MatchString(l)),
			strings.HasPrefix(f[0], "k"), strings.Contains(l, "ymm"), strings.Contains(l, "zmm"):
			return false
		case strings.Contains(l, "xmm"):
			sse = true
		}
	}
	return sse
}

// maskRegister matches an AVX-512 mask register operand.
var maskRegister = regexp.MustCompile(`\bk[0-7]\b`)

// prologue saves the callee-saved registers and MXCSR, sets flush-to-zero
// and denormals-are-zero, and puts the arguments into r14 (memory) and r15
// (iterations). Then every general-purpose register and the vector
// registers are loaded from the buffer so that operands hold benign values.
func prologue(vec Vector) []string {
	p := []string{
		"push rbx", "push rbp", "push r12", "push r13", "push r14", "push r15",
		"sub rsp, 24",
		"stmxcsr [rsp]",
		"mov eax, [rsp]",
		"or eax, 0x8040",
		"mov [rsp+4], eax",
		"ldmxcsr [rsp+4]",
		"mov r14, rdi",
		"mov r15, rsi",
	}
	for _, r := range []string{"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "r8", "r9", "r10", "r11", "r12", "r13"} {
		p = append(p, "mov "+r+", [r14]")
	}
	switch vec {
	case AVX512:
		for i := 0; i < 32; i++ {
			p = append(p, fmt.Sprintf("vmovups zmm%d, [r14]", i))
		}
		for i := 1; i < 8; i++ {
			p = append(p, fmt.Sprintf("kxnorw k%d, k0, k0", i))
		}
	case AVX:
		for i := 0; i < 16; i++ {
			p = append(p, fmt.Sprintf("vmovups ymm%d, [r14]", i))
		}
	default:
		for i := 0; i < 16; i++ {
			p = append(p, fmt.Sprintf("movups xmm%d, [r14]", i))
		}
	}
	return p
}

// startClock reads the TSC after all earlier instructions completed and
// keeps it at [rsp+8].
var startClock = []string{"lfence", "rdtsc", "shl rdx, 32", "or rax, rdx", "mov [rsp+8], rax", "lfence"}

// epilogue reads the TSC once the loop's instructions completed, returns
// the difference in rax and restores the caller's state.
func epilogue(vec Vector) []string {
	e := []string{"lfence", "rdtsc", "shl rdx, 32", "or rax, rdx", "sub rax, [rsp+8]", "ldmxcsr [rsp]"}
	if vec != NoVector {
		e = append(e, "vzeroupper")
	}
	return append(e, "add rsp, 24", "pop r15", "pop r14", "pop r13", "pop r12", "pop rbp", "pop rbx", "ret")
}
