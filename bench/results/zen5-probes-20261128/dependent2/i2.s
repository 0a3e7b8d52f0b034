lea ecx, [rsi+1]
lea edx, [rsi+2]
