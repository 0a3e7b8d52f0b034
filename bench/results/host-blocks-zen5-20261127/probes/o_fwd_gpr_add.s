mov qword ptr [rdi+rbx*8], rax
add rax, qword ptr [rdi+rbx*8]
