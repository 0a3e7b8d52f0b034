lea eax, [rdi-1]
cmp ecx, 3
