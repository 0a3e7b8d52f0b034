lea eax, [rdi-1]
