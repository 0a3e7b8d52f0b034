mov rdx, rdi
add rdx, rsi
