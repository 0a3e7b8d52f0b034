lea rax, [rdi-1]
add rax, 1
