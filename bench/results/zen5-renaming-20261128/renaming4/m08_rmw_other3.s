add DWORD PTR [r10], 1
cmp r9, rdx
add DWORD PTR [r8], 1
