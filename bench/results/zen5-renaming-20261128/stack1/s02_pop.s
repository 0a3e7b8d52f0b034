pop rax
