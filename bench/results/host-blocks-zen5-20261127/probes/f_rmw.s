add qword ptr [rdi], 1
