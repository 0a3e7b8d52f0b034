mov edx, edi
inc edx
