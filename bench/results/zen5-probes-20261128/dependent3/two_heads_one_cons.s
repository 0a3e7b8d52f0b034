lea eax, [rdi-1]
lea ecx, [rsi+1]
cmp eax, ecx
