mov eax, edi
neg eax
cmp eax, 3
