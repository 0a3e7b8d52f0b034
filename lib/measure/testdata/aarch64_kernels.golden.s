.text
.p2align 6
.globl portlab_kernel_0
portlab_kernel_0:
  stp x29, x30, [sp, #-176]!
  stp x19, x20, [sp, #16]
  stp x21, x22, [sp, #32]
  stp x23, x24, [sp, #48]
  stp x25, x26, [sp, #64]
  stp x27, x28, [sp, #80]
  stp d8, d9, [sp, #96]
  stp d10, d11, [sp, #112]
  stp d12, d13, [sp, #128]
  stp d14, d15, [sp, #144]
  mov x28, x0
  mov x27, x1
  mov x26, #3
  ldr x0, [x28]
  ldr x1, [x28]
  ldr x2, [x28]
  ldr x3, [x28]
  ldr x4, [x28]
  ldr x5, [x28]
  ldr x6, [x28]
  ldr x7, [x28]
  ldr x8, [x28]
  ldr x9, [x28]
  ldr x10, [x28]
  ldr x11, [x28]
  ldr x12, [x28]
  ldr x13, [x28]
  ldr x14, [x28]
  ldr x15, [x28]
  ldr x16, [x28]
  ldr x17, [x28]
  ldr x19, [x28]
  ldr x20, [x28]
  ldr x21, [x28]
  ldr x22, [x28]
  ldr x24, [x28]
  ldr x25, [x28]
  ldr x23, [x28]
  ldr q0, [x28]
  ldr q1, [x28]
  ldr q2, [x28]
  ldr q3, [x28]
  ldr q4, [x28]
  ldr q5, [x28]
  ldr q6, [x28]
  ldr q7, [x28]
  ldr q8, [x28]
  ldr q9, [x28]
  ldr q10, [x28]
  ldr q11, [x28]
  ldr q12, [x28]
  ldr q13, [x28]
  ldr q14, [x28]
  ldr q15, [x28]
  ldr q16, [x28]
  ldr q17, [x28]
  ldr q18, [x28]
  ldr q19, [x28]
  ldr q20, [x28]
  ldr q21, [x28]
  ldr q22, [x28]
  ldr q23, [x28]
  ldr q24, [x28]
  ldr q25, [x28]
  ldr q26, [x28]
  ldr q27, [x28]
  ldr q28, [x28]
  ldr q29, [x28]
  ldr q30, [x28]
  ldr q31, [x28]
  isb
  mrs x0, cntvct_el0
  str x0, [sp, #160]
  .p2align 5
1:
  add x23, x24, x25
  mul x23, x24, x25
  add x23, x24, x25
  mul x23, x24, x25
  subs x27, x27, #1
  b.ne 1b
  isb
  mrs x0, cntvct_el0
  ldr x1, [sp, #160]
  sub x0, x0, x1
  ldp d14, d15, [sp, #144]
  ldp d12, d13, [sp, #128]
  ldp d10, d11, [sp, #112]
  ldp d8, d9, [sp, #96]
  ldp x27, x28, [sp, #80]
  ldp x25, x26, [sp, #64]
  ldp x23, x24, [sp, #48]
  ldp x21, x22, [sp, #32]
  ldp x19, x20, [sp, #16]
  ldp x29, x30, [sp], #176
  ret
.p2align 6
.globl portlab_kernel_1
portlab_kernel_1:
  stp x29, x30, [sp, #-176]!
  stp x19, x20, [sp, #16]
  stp x21, x22, [sp, #32]
  stp x23, x24, [sp, #48]
  stp x25, x26, [sp, #64]
  stp x27, x28, [sp, #80]
  stp d8, d9, [sp, #96]
  stp d10, d11, [sp, #112]
  stp d12, d13, [sp, #128]
  stp d14, d15, [sp, #144]
  mov x28, x0
  mov x27, x1
  mov x26, #3
  ldr x0, [x28]
  ldr x1, [x28]
  ldr x2, [x28]
  ldr x3, [x28]
  ldr x4, [x28]
  ldr x5, [x28]
  ldr x6, [x28]
  ldr x7, [x28]
  ldr x8, [x28]
  ldr x9, [x28]
  ldr x10, [x28]
  ldr x11, [x28]
  ldr x12, [x28]
  ldr x13, [x28]
  ldr x14, [x28]
  ldr x15, [x28]
  ldr x16, [x28]
  ldr x17, [x28]
  ldr x19, [x28]
  ldr x20, [x28]
  ldr x21, [x28]
  ldr x22, [x28]
  ldr x24, [x28]
  ldr x25, [x28]
  ldr x23, [x28]
  ldr q0, [x28]
  ldr q1, [x28]
  ldr q2, [x28]
  ldr q3, [x28]
  ldr q4, [x28]
  ldr q5, [x28]
  ldr q6, [x28]
  ldr q7, [x28]
  ldr q8, [x28]
  ldr q9, [x28]
  ldr q10, [x28]
  ldr q11, [x28]
  ldr q12, [x28]
  ldr q13, [x28]
  ldr q14, [x28]
  ldr q15, [x28]
  ldr q16, [x28]
  ldr q17, [x28]
  ldr q18, [x28]
  ldr q19, [x28]
  ldr q20, [x28]
  ldr q21, [x28]
  ldr q22, [x28]
  ldr q23, [x28]
  ldr q24, [x28]
  ldr q25, [x28]
  ldr q26, [x28]
  ldr q27, [x28]
  ldr q28, [x28]
  ldr q29, [x28]
  ldr q30, [x28]
  ldr q31, [x28]
  isb
  mrs x0, cntvct_el0
  str x0, [sp, #160]
  .p2align 5
1:
  ldr x23, [x28, #128]
  str x24, [x28, #0]
  ldr x23, [x28, #192]
  str x25, [x28, #64]
  subs x27, x27, #1
  b.ne 1b
  isb
  mrs x0, cntvct_el0
  ldr x1, [sp, #160]
  sub x0, x0, x1
  ldp d14, d15, [sp, #144]
  ldp d12, d13, [sp, #128]
  ldp d10, d11, [sp, #112]
  ldp d8, d9, [sp, #96]
  ldp x27, x28, [sp, #80]
  ldp x25, x26, [sp, #64]
  ldp x23, x24, [sp, #48]
  ldp x21, x22, [sp, #32]
  ldp x19, x20, [sp, #16]
  ldp x29, x30, [sp], #176
  ret
.p2align 6
.globl portlab_kernel_2
portlab_kernel_2:
  stp x29, x30, [sp, #-176]!
  stp x19, x20, [sp, #16]
  stp x21, x22, [sp, #32]
  stp x23, x24, [sp, #48]
  stp x25, x26, [sp, #64]
  stp x27, x28, [sp, #80]
  stp d8, d9, [sp, #96]
  stp d10, d11, [sp, #112]
  stp d12, d13, [sp, #128]
  stp d14, d15, [sp, #144]
  mov x28, x0
  mov x27, x1
  mov x26, #3
  ldr x0, [x28]
  ldr x1, [x28]
  ldr x2, [x28]
  ldr x3, [x28]
  ldr x4, [x28]
  ldr x5, [x28]
  ldr x6, [x28]
  ldr x7, [x28]
  ldr x8, [x28]
  ldr x9, [x28]
  ldr x10, [x28]
  ldr x11, [x28]
  ldr x12, [x28]
  ldr x13, [x28]
  ldr x14, [x28]
  ldr x15, [x28]
  ldr x16, [x28]
  ldr x17, [x28]
  ldr x19, [x28]
  ldr x20, [x28]
  ldr x21, [x28]
  ldr x22, [x28]
  ldr x24, [x28]
  ldr x25, [x28]
  ldr x23, [x28]
  ldr q0, [x28]
  ldr q1, [x28]
  ldr q2, [x28]
  ldr q3, [x28]
  ldr q4, [x28]
  ldr q5, [x28]
  ldr q6, [x28]
  ldr q7, [x28]
  ldr q8, [x28]
  ldr q9, [x28]
  ldr q10, [x28]
  ldr q11, [x28]
  ldr q12, [x28]
  ldr q13, [x28]
  ldr q14, [x28]
  ldr q15, [x28]
  ldr q16, [x28]
  ldr q17, [x28]
  ldr q18, [x28]
  ldr q19, [x28]
  ldr q20, [x28]
  ldr q21, [x28]
  ldr q22, [x28]
  ldr q23, [x28]
  ldr q24, [x28]
  ldr q25, [x28]
  ldr q26, [x28]
  ldr q27, [x28]
  ldr q28, [x28]
  ldr q29, [x28]
  ldr q30, [x28]
  ldr q31, [x28]
  isb
  mrs x0, cntvct_el0
  str x0, [sp, #160]
  .p2align 5
1:
  fadd v29.4s, v30.4s, v31.4s
  fmla v0.4s, v30.4s, v31.4s
  fadd v29.4s, v30.4s, v31.4s
  fmla v1.4s, v30.4s, v31.4s
  subs x27, x27, #1
  b.ne 1b
  isb
  mrs x0, cntvct_el0
  ldr x1, [sp, #160]
  sub x0, x0, x1
  ldp d14, d15, [sp, #144]
  ldp d12, d13, [sp, #128]
  ldp d10, d11, [sp, #112]
  ldp d8, d9, [sp, #96]
  ldp x27, x28, [sp, #80]
  ldp x25, x26, [sp, #64]
  ldp x23, x24, [sp, #48]
  ldp x21, x22, [sp, #32]
  ldp x19, x20, [sp, #16]
  ldp x29, x30, [sp], #176
  ret
