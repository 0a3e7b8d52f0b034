mov edx, edi
cmp edx, esi
