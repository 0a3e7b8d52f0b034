# Inner loop of fnv1a in loops.c, compiled on x86-64 Debian 12 with
# gcc 12.2 -O2 -S -masm=intel loops.c (the loop body only).
	.intel_syntax noprefix
.L14:
	movzx	edx, BYTE PTR [rdi]
	add	rdi, 1
	xor	eax, edx
	imul	eax, eax, 16777619
	cmp	rsi, rdi
	jne	.L14
