mov qword ptr [rsi+8], rax
mov rax, qword ptr [rdi+8]
