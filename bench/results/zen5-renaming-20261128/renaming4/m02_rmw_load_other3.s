mov edx, DWORD PTR [r10]
add DWORD PTR [r8], edx
cmp r9, rdx
