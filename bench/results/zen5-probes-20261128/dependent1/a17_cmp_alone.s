cmp eax, 3
