lea eax, [rdi-1]
lea ecx, [rax+1]
