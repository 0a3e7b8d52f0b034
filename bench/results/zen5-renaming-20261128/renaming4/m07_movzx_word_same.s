movzx eax, WORD PTR [r8]
mov WORD PTR [r8], ax
cmp r9, rdx
