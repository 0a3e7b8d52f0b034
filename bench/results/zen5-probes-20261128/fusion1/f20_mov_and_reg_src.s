mov edx, edi
and edx, esi
