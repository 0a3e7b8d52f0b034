add DWORD PTR [r8], 1
