lea ebx, [r10+rbx*1-0x4]
