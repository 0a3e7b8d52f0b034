mov eax, [rsi]
add eax, 1
