mov rax, QWORD PTR [r10]
add rax, 1
mov QWORD PTR [r8], rax
