mov rdx, rdi
