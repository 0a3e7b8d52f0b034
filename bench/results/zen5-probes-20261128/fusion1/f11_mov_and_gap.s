mov edx, edi
xor ecx, ecx
and edx, -4
