mov rax, QWORD PTR [r10]
mov QWORD PTR [r8], rax
