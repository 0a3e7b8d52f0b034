# Inner loop of saxpy in loops.c, compiled on x86-64 Debian 12 with
# gcc 12.2 -O3 -mavx2 -mfma -S -masm=intel loops.c (the loop body only).
	.intel_syntax noprefix
.L55:
	vmovups	ymm1, YMMWORD PTR [rsi+rax]
	vfmadd213ps	ymm1, ymm2, YMMWORD PTR [rcx+rax]
	vmovups	YMMWORD PTR [rcx+rax], ymm1
	add	rax, 32
	cmp	rdi, rax
	jne	.L55
