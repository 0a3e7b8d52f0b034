# Inner loop of count_below in loops.c, compiled on x86-64 Debian 12 with
# gcc 12.2 -O2 -S -masm=intel loops.c (the loop body only).
	.intel_syntax noprefix
.L19:
	xor	ecx, ecx
	cmp	DWORD PTR [rdi], edx
	setl	cl
	add	rdi, 4
	add	rax, rcx
	cmp	rsi, rdi
	jne	.L19
