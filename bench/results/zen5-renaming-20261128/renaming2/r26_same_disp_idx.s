mov eax, DWORD PTR [r8+rdx*4-0x4]
mov DWORD PTR [r8+rdx*4-0x4], eax
cmp r9, rdx
