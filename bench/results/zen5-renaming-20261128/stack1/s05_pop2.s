pop rax
pop rbx
