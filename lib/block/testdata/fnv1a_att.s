# Inner loop of fnv1a in loops.c, compiled on x86-64 Debian 12 with
# gcc 12.2 -O2 -S loops.c (the loop body only).
.L14:
	movzbl	(%rdi), %edx
	addq	$1, %rdi
	xorl	%edx, %eax
	imull	$16777619, %eax, %eax
	cmpq	%rdi, %rsi
	jne	.L14
