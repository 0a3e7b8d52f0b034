imul eax, edi, 3
cmp eax, 3
