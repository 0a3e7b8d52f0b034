mov eax, DWORD PTR [r10]
mov ecx, eax
mov DWORD PTR [r8], ecx
