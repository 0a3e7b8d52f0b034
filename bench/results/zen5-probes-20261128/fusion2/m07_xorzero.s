xor eax, eax
