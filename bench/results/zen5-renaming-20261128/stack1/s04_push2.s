push rax
push rbx
