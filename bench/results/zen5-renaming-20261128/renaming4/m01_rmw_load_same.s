mov edx, DWORD PTR [r8]
add DWORD PTR [r8], edx
