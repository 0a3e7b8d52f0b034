mov eax, DWORD PTR [r10+rcx*4]
add eax, 1
mov DWORD PTR [r8+rdx*4], eax
