push rax
