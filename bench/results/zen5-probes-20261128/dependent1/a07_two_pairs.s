lea eax, [rdi-1]
cmp eax, 3
lea edx, [rsi-1]
cmp edx, 3
