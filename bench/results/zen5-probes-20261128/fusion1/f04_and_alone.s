and edx, -4
