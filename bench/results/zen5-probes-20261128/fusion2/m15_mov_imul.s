mov edx, edi
imul edx, esi
