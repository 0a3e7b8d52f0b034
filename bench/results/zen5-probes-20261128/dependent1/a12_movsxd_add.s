movsxd r11, edi
add r11, 1
