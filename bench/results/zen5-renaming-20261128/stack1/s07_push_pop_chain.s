push rax
pop rax
add rax, 1
