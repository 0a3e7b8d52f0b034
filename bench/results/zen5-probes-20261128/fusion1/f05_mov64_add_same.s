mov rdx, rdi
add rdx, 8
