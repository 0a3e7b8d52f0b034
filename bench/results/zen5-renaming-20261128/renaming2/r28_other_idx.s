mov eax, DWORD PTR [r10+rdx*4]
mov DWORD PTR [r10+rcx*4], eax
