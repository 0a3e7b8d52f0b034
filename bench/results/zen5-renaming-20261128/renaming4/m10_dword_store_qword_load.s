mov DWORD PTR [r8], eax
mov rax, QWORD PTR [r8]
cmp r9, rdx
