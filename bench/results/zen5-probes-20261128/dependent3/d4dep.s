lea eax, [rdi-1]
lea ecx, [rsi+1]
lea edx, [rsi+2]
lea r8d, [rsi+3]
cmp eax, 3
