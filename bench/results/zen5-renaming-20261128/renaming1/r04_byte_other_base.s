movzx eax, BYTE PTR [r10]
mov BYTE PTR [r8], al
