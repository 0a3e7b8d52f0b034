mov edx, DWORD PTR [r8]
add DWORD PTR [r8], edx
cmp r9, rdx
