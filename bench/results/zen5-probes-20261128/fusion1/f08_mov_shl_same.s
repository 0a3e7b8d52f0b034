mov eax, esi
shl eax, 3
