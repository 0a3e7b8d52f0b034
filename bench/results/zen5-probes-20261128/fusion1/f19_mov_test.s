mov edx, edi
test edx, esi
