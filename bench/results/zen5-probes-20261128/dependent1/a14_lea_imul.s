lea eax, [rdi-1]
imul ecx, eax
