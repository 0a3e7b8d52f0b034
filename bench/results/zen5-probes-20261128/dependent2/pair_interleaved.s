lea eax, [rdi-1]
lea edx, [rsi-1]
cmp eax, 3
cmp edx, 3
