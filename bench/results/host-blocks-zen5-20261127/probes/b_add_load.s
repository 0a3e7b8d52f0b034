mov rdi, qword ptr [rbx]
add rbx, 8
