lea ecx, [rsi+1]
lea edx, [rsi+2]
lea r8d, [rsi+3]
lea r9d, [rsi+4]
