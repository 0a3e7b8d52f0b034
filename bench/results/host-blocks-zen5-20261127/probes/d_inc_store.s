mov dword ptr [rsi+rax*4], r8d
dec rax
