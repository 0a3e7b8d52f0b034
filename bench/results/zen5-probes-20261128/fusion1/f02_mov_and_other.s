mov edx, edi
and ecx, -4
