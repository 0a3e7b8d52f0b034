mov edx, edi
mov ecx, edx
