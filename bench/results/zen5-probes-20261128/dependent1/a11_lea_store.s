lea eax, [rdi-1]
mov [rsi], eax
