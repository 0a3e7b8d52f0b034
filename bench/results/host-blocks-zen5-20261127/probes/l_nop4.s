nop
nop
nop
nop
