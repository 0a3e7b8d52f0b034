movss xmm0, DWORD PTR [r10]
addss xmm0, xmm1
movss DWORD PTR [r8], xmm0
