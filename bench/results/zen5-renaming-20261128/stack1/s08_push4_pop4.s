push rbp
push rbx
push r12
push r13
pop r13
pop r12
pop rbx
pop rbp
