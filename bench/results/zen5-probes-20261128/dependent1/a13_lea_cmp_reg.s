lea eax, [rdi-1]
cmp eax, ecx
