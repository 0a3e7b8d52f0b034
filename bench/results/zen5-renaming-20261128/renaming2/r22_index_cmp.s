mov eax, DWORD PTR [r10+rdx*4]
mov DWORD PTR [r8+rdx*4], eax
cmp r9, rdx
