mov edx, 5
and edx, edi
