lea eax, [rdi-1]
nop
cmp eax, 3
