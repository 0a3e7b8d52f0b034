mov eax, DWORD PTR [r8]
mov DWORD PTR [r8], eax
