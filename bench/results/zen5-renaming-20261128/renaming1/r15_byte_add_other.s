movzx eax, BYTE PTR [r10]
add eax, 1
mov BYTE PTR [r8], al
