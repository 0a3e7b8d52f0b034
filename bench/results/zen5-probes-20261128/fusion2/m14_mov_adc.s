mov edx, edi
adc edx, esi
