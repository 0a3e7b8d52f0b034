mov eax, [rsi]
cmp eax, 3
