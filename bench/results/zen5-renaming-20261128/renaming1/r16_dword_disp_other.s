mov eax, DWORD PTR [r10+8]
add eax, 1
mov DWORD PTR [r8+8], eax
