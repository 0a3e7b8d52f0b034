add edx, 1
and ecx, -4
add r8d, 3
sub r10d, 5
