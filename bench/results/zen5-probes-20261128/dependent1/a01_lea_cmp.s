lea eax, [rdi-1]
cmp eax, 3
