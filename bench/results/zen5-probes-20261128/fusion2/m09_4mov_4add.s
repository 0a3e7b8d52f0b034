mov edx, edi
add eax, 1
mov ecx, esi
add r8d, 1
mov r10d, r11d
add r9d, 1
mov r12d, ebx
add ebp, 1
