imul eax, edi, 3
