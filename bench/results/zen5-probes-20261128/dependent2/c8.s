lea eax, [rdi-1]
add eax, 1
add eax, 2
add eax, 3
add eax, 4
add eax, 5
add eax, 6
add eax, 7
