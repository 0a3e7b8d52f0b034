lea rbx, [rbx+r10*1-0x4]
