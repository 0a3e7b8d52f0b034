mov eax, [rsi]
add eax, 1
cmp eax, 3
