pxor xmm0, xmm0
