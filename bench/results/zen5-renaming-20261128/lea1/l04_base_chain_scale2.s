lea rax, [rax+r12*2+0x8]
