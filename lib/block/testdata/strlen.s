# Inner loop of my_strlen in loops.c, compiled on x86-64 Debian 12 with
# gcc 12.2 -O2 -S -masm=intel loops.c (the loop body only).
	.intel_syntax noprefix
.L9:
	add	rax, 1
	cmp	BYTE PTR [rax], 0
	jne	.L9
