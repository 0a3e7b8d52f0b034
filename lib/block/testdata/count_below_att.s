# Inner loop of count_below in loops.c, compiled on x86-64 Debian 12 with
# gcc 12.2 -O2 -S loops.c (the loop body only).
.L19:
	xorl	%ecx, %ecx
	cmpl	%edx, (%rdi)
	setl	%cl
	addq	$4, %rdi
	addq	%rcx, %rax
	cmpq	%rdi, %rsi
	jne	.L19
