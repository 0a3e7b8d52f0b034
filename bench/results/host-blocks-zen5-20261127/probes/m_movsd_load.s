movsd xmm0, qword ptr [rdi]
