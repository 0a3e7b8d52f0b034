lea eax, [rdi-1]
test eax, eax
