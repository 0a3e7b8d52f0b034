mov edx, edi
not edx
