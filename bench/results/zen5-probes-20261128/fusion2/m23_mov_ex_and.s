mov edx, edi
and edx, -4
mov eax, edx
