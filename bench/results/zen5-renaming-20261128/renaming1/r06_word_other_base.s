movzx eax, WORD PTR [r10]
mov WORD PTR [r8], ax
