movsxd rax, DWORD PTR [r8]
mov DWORD PTR [r8], eax
cmp r9, rdx
