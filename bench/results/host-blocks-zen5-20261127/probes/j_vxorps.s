vxorps xmm0, xmm0, xmm0
