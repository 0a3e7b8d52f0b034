# Inner loop of dot in loops.c, compiled on x86-64 Debian 12 with
# gcc 12.2 -O2 -S -masm=intel loops.c (the loop body only).
	.intel_syntax noprefix
.L3:
	movsd	xmm0, QWORD PTR [rdi+rax*8]
	mulsd	xmm0, QWORD PTR [rsi+rax*8]
	add	rax, 1
	addsd	xmm1, xmm0
	cmp	rdx, rax
	jne	.L3
