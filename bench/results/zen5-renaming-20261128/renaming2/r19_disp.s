mov eax, DWORD PTR [r10-4]
mov DWORD PTR [r8-4], eax
