movzx eax, BYTE PTR [r8]
mov BYTE PTR [r8], al
