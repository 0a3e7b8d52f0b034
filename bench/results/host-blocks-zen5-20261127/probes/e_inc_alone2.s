dec rax
nop
