lea rbx, [r10+rbx*1]
