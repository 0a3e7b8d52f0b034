mov edx, edi
and edx, [rsi]
