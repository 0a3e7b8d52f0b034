# Inner loop of saxpy in loops.c, compiled on x86-64 Debian 12 with
# gcc 12.2 -O2 -S -masm=intel loops.c (the loop body only).
	.intel_syntax noprefix
.L24:
	movss	xmm1, DWORD PTR [rsi+rax*4]
	mulss	xmm1, xmm0
	addss	xmm1, DWORD PTR [rdi+rax*4]
	movss	DWORD PTR [rdi+rax*4], xmm1
	add	rax, 1
	cmp	rdx, rax
	jne	.L24
