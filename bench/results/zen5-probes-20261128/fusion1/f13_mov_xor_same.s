mov edx, edi
xor edx, esi
