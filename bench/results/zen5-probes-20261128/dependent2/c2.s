lea eax, [rdi-1]
add eax, 1
