mov DWORD PTR [r8], 5
mov eax, DWORD PTR [r8]
add ecx, eax
