vmovsd qword ptr [rdi+rbx*8], xmm0
vmovsd xmm0, qword ptr [rdi+rbx*8]
vaddsd xmm0, xmm0, xmm1
