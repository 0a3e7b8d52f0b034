mov qword ptr [rdi], rax
mov rax, qword ptr [rdi]
