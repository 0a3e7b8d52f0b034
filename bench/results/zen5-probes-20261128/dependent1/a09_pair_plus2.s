lea eax, [rdi-1]
cmp eax, 3
xor ecx, ecx
xor edx, edx
