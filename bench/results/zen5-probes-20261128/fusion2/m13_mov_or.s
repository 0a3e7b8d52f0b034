mov edx, edi
or edx, esi
