mov eax, DWORD PTR [r8]
mov DWORD PTR [r8], eax
cmp r9, rdx
cmp r9, rdx
