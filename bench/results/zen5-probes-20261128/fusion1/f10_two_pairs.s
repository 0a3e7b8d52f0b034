mov edx, edi
and edx, -4
mov eax, esi
add eax, 7
