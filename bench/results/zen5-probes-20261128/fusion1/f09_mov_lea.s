mov eax, esi
lea eax, [rax+rcx]
