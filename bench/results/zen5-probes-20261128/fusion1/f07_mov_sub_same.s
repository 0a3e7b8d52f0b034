mov eax, esi
sub eax, ecx
