lea rbx, [r10+rbx*2-0x4]
