mov rcx, rdi
add rcx, 1
xchg ax, ax
