vpaddd xmm0, xmm1, xmm2
vpaddd xmm3, xmm0, xmm2
