add eax, 1
add ecx, 1
add edx, 1
add r8d, 1
add r9d, 1
add r10d, 1
