lea eax, [rdi-1]
add eax, 3
