vmovsd qword ptr [rdi], xmm0
vmovsd xmm0, qword ptr [rdi]
