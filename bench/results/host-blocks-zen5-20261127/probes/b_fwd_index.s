mov qword ptr [rdi+rbx*8], rax
mov rax, qword ptr [rdi+rbx*8]
