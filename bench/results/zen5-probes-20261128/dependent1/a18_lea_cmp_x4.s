lea eax, [rdi-1]
cmp eax, 3
lea ecx, [rdi-2]
cmp ecx, 3
lea edx, [rdi-3]
cmp edx, 3
lea r8d, [rdi-4]
cmp r8d, 3
