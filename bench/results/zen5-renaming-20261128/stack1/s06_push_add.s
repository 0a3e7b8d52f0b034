push rbx
add rax, 1
