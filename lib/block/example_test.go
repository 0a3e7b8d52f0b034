package block_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/throughput"
)

// A loop body as gcc -O2 -masm=intel compiles a running product: the
// imul chain is carried from one iteration to the next, the load is not.
func Example() {
	b, err := block.Parse(`
	.intel_syntax noprefix
.L3:
	mov	rdx, QWORD PTR [rdi+rcx*8]	# load a[i]
	imul	rax, rdx
	add	rcx, 1
	cmp	rsi, rcx
	jne	.L3
`, block.Auto)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(b)
	fmt.Println("loop:", b.IsLoop())
	for _, d := range b.Deps(true) {
		fmt.Println(d)
	}
	// Output:
	//    4  mov rdx, QWORD PTR [rdi+rcx*8]           mov W:GPR:64, qword ptr R:MEM(64)
	//    5  imul rax, rdx                            imul RW:GPR:64, R:GPR:64
	//    6  add rcx, 1                               add RW:GPR:64, IMM(8)
	//    7  cmp rsi, rcx                             cmp R:GPR:64, R:GPR:64
	//    8  jne .L3                                  jne SYM
	// loop: true
	// 2 -> 0 rcx (loop-carried)
	// 0 -> 1 rdx
	// 1 -> 1 rax (loop-carried)
	// 2 -> 2 rcx (loop-carried)
	// 2 -> 3 rcx
	// 3 -> 4 flags
}

// Every line that cannot be read or matched is reported at once, with its
// line and column.
func ExampleParseError() {
	_, err := block.Parse("add rax, rbx\nfrobnicate rax\nmovq %rax, %rbx\nmov rax, [rdi\n", block.Intel)
	var pe *block.ParseError
	if errors.As(err, &pe) {
		for _, l := range pe.Lines {
			fmt.Println(l.Line, l.Column, l.Msg)
		}
	}
	// Output:
	// 2 1 unknown mnemonic "frobnicate"
	// 3 6 cannot read operand "%rax"
	// 4 10 unbalanced [ ] in "[rdi"
}

// Machine code in hex, as BHive stores basic blocks, decoded by objdump.
func ExampleDecodeHex() {
	// imul rax, rax; add rax, rbx; dec rcx; jne back
	b, err := block.DecodeHex(context.Background(), "480fafc0 4801d8 48ffc9 75f4")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, in := range b.Insns {
		fmt.Printf("%2d  %-14s %s\n", in.Addr, in.Text, in.Form.Key())
	}
	for _, d := range b.Deps(true) {
		fmt.Println(d)
	}
	// Output:
	//  0  imul rax,rax   imul RW:GPR:64, R:GPR:64
	//  4  add rax,rbx    add RW:GPR:64, R:GPR:64
	//  7  dec rcx        dec RW:GPR:64
	// 10  jne 0x0        jne SYM
	// 1 -> 0 rax (loop-carried)
	// 0 -> 1 rax
	// 2 -> 2 rcx (loop-carried)
	// 2 -> 3 flags
}

// A BHive CSV file: one block a line, its code in hex and its measured
// cycles per 100 iterations. Bad lines are named; the others are kept.
func ExampleReadBHiveCSV() {
	csv := "4889de4889c24c89ff,91.00\n48,12\n480fafc0,300.5\n"
	rows, err := block.ReadBHiveCSV(context.Background(), strings.NewReader(csv))
	for _, r := range rows {
		fmt.Println(r.Line, r.Cycles, len(r.Block.Insns), r.Block.Insns[0].Form.Key())
	}
	var pe *block.ParseError
	if errors.As(err, &pe) {
		for _, l := range pe.Lines {
			fmt.Println("line", l.Line, "not decoded")
		}
	}
	// Output:
	// 1 91 3 mov W:GPR:64, R:GPR:64
	// 3 300.5 1 imul RW:GPR:64, R:GPR:64
	// line 2 not decoded
}

// The dot-product loop of testdata/loops.c on Skylake's ports (uops.info):
// the port bound, which the loop-carried addsd chain (4 cycles on Skylake)
// exceeds.
func ExampleBlock_Experiment() {
	b, err := block.ParseFile("testdata/dot.s")
	if err != nil {
		fmt.Println(err)
		return
	}
	skl, err := dataset.UopsInfo("SKL")
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := throughput.Bottleneck(skl, b.Experiment())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d instructions, %.2f cycles per iteration on ports %s\n",
		b.Experiment().Len(), r.Cycles, skl.Arch().PortNames(r.Bottleneck))
	// Output:
	// 6 instructions, 1.25 cycles per iteration on ports [0 1 5 6]
}
