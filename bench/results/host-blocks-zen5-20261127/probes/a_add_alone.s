add rbx, 8
