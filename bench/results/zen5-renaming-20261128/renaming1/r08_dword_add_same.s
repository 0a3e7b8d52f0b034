mov eax, DWORD PTR [r8]
add eax, 1
mov DWORD PTR [r8], eax
