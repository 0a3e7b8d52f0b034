mov rdx, rdi
and rdx, -4
mov rcx, rsi
sub rcx, 9
