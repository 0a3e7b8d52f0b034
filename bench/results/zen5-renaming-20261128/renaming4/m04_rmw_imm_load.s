add DWORD PTR [r8], 1
mov edx, DWORD PTR [r8]
add edx, ecx
