pop rcx
add rax, rcx
