add qword ptr [rdi+rbx*8], 1
