add edx, 1
and ecx, -4
