# Inner loop of count_below in loops.c, compiled on x86-64 Debian 12 with
# gcc 12.2 -O3 -mavx2 -mfma -S -masm=intel loops.c (the loop body only).
	.intel_syntax noprefix
.L36:
	vpcmpgtd	ymm0, ymm4, YMMWORD PTR [rax]
	add	rax, 32
	vpand	ymm0, ymm0, ymm3
	vpmovzxdq	ymm2, xmm0
	vextracti128	xmm0, ymm0, 0x1
	vpaddq	ymm1, ymm2, ymm1
	vpmovzxdq	ymm0, xmm0
	vpaddq	ymm1, ymm0, ymm1
	cmp	rdx, rax
	jne	.L36
