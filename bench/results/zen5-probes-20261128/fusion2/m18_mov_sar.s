mov edx, edi
sar edx, 1
