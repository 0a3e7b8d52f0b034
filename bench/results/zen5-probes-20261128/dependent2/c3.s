lea eax, [rdi-1]
add eax, 1
add eax, 2
