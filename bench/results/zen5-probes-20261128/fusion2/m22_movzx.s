movzx edx, dil
