mov rdi, r11
lea rbx, [r10+rbx*1-0x4]
xor edx, edx
shr rdi, 0x2
shl rdi, 0x4
