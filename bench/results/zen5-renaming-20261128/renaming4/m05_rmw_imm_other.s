add DWORD PTR [r8], 1
mov edx, DWORD PTR [r10]
imul edx, ecx
