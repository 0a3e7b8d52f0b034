package block_test

import (
	"errors"
	"fmt"

	"github.com/portlab/portlab/lib/block"
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
