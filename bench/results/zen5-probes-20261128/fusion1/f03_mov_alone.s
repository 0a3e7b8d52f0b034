mov edx, edi
