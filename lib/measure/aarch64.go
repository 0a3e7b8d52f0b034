package measure

import (
	"fmt"
	"strings"

	"github.com/portlab/portlab/lib/operands"
)

// AArch64Source returns the GNU assembler source of kernels as AArch64
// functions with the calling convention of the x86-64 ones: x0 = buffer
// base, x1 = iterations, result in x0 = ticks of the virtual counter
// (cntvct_el0) around the loop. Callee-saved registers x19–x28, x29, x30
// and d8–d15 are saved, and every register gets a benign value.
func AArch64Source(kernels []Kernel) (string, error) {
	var b strings.Builder
	b.WriteString(".text\n")
	for k, kern := range kernels {
		fmt.Fprintf(&b, ".p2align 6\n.globl portlab_kernel_%d\nportlab_kernel_%d:\n", k, k)
		for _, l := range []string{
			"stp x29, x30, [sp, #-176]!",
			"stp x19, x20, [sp, #16]",
			"stp x21, x22, [sp, #32]",
			"stp x23, x24, [sp, #48]",
			"stp x25, x26, [sp, #64]",
			"stp x27, x28, [sp, #80]",
			"stp d8, d9, [sp, #96]",
			"stp d10, d11, [sp, #112]",
			"stp d12, d13, [sp, #128]",
			"stp d14, d15, [sp, #144]",
			"mov x28, x0",
			"mov x27, x1",
			"mov x26, #3",
		} {
			b.WriteString("  " + l + "\n")
		}
		for _, r := range operands.AArch64GPRs() {
			fmt.Fprintf(&b, "  ldr x%d, [x28]\n", r)
		}
		for v := 0; v < 32; v++ {
			fmt.Fprintf(&b, "  ldr q%d, [x28]\n", v)
		}
		for i, l := range kern.Init {
			if strings.ContainsAny(l, "\n;") {
				return "", fmt.Errorf("measure: kernel %q init line %d: one instruction per line", kern.Name, i+1)
			}
			b.WriteString("  " + l + "\n")
		}
		b.WriteString("  isb\n  mrs x0, cntvct_el0\n  str x0, [sp, #160]\n  .p2align 5\n1:\n")
		for i, l := range kern.Body {
			if strings.ContainsAny(l, "\n;") {
				return "", fmt.Errorf("measure: kernel %q line %d: one instruction per line", kern.Name, i+1)
			}
			b.WriteString("  " + l + "\n")
		}
		for _, l := range []string{
			"subs x27, x27, #1",
			"b.ne 1b",
			"isb",
			"mrs x0, cntvct_el0",
			"ldr x1, [sp, #160]",
			"sub x0, x0, x1",
			"ldp d14, d15, [sp, #144]",
			"ldp d12, d13, [sp, #128]",
			"ldp d10, d11, [sp, #112]",
			"ldp d8, d9, [sp, #96]",
			"ldp x27, x28, [sp, #80]",
			"ldp x25, x26, [sp, #64]",
			"ldp x23, x24, [sp, #48]",
			"ldp x21, x22, [sp, #32]",
			"ldp x19, x20, [sp, #16]",
			"ldp x29, x30, [sp], #176",
			"ret",
		} {
			b.WriteString("  " + l + "\n")
		}
	}
	return b.String(), nil
}
