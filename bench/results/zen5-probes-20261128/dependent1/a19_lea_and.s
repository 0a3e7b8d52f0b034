lea eax, [rdi-1]
and eax, 3
