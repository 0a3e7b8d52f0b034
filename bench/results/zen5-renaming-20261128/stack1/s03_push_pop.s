push rax
pop rbx
