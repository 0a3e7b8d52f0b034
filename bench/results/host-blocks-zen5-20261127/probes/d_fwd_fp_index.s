vmovsd qword ptr [rdi+rbx*8], xmm0
vmovsd xmm0, qword ptr [rdi+rbx*8]
