mov edx, edi
mov ecx, esi
mov r8d, r9d
mov r10d, r11d
