mov rdi, qword ptr [rsi]
add rbx, 8
