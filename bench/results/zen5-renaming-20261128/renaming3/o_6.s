mov eax, DWORD PTR [r10]
mov DWORD PTR [r8], eax
cmp r9, rdx
cmp r9, rdx
cmp r9, rdx
cmp r9, rdx
cmp r9, rdx
cmp r9, rdx
