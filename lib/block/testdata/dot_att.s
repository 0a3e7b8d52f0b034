# Inner loop of dot in loops.c, compiled on x86-64 Debian 12 with
# gcc 12.2 -O2 -S loops.c (the loop body only).
.L3:
	movsd	(%rdi,%rax,8), %xmm0
	mulsd	(%rsi,%rax,8), %xmm0
	addq	$1, %rax
	addsd	%xmm0, %xmm1
	cmpq	%rax, %rdx
	jne	.L3
