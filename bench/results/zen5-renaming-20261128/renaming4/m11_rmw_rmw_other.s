add DWORD PTR [r10], 1
add DWORD PTR [r8], 1
