# Inner loop of dot in loops.c, compiled on x86-64 Debian 12 with
# gcc 12.2 -O3 -mavx2 -mfma -S -masm=intel loops.c (the loop body only).
	.intel_syntax noprefix
.L4:
	vmovupd	ymm4, YMMWORD PTR [rdi+rax]
	vmulpd	ymm1, ymm4, YMMWORD PTR [rsi+rax]
	add	rax, 32
	vaddsd	xmm0, xmm0, xmm1
	vunpckhpd	xmm2, xmm1, xmm1
	vextractf128	xmm1, ymm1, 0x1
	vaddsd	xmm0, xmm0, xmm2
	vaddsd	xmm0, xmm0, xmm1
	vunpckhpd	xmm1, xmm1, xmm1
	vaddsd	xmm0, xmm0, xmm1
	cmp	rcx, rax
	jne	.L4
