mov edx, edi
neg edx
