lea rbx, [r10+rbx*4-0x4]
