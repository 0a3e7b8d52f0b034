mov edx, edi
and edx, -4
mov ecx, esi
and ecx, -8
mov r8d, r9d
and r8d, 3
mov r10d, r11d
and r10d, 15
