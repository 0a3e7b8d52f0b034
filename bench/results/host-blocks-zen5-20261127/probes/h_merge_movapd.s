movapd xmm0, xmm1
