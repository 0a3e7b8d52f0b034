mov edx, edi
and edx, -4
