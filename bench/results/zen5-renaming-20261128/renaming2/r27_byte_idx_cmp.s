movzx eax, BYTE PTR [r10+rdx*1]
mov BYTE PTR [r8+rdx*1], al
cmp r9, rdx
