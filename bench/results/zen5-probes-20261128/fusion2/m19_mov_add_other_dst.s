mov edx, edi
add edi, edx
