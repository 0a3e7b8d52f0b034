push rbx
mov rbx, rdi
add rbx, 8
