lea eax, [rdi-1]
add eax, 1
lea ecx, [rsi+1]
lea edx, [rsi+2]
