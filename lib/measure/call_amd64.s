#include "textflag.h"

// func callCode(fn, mem uintptr, iters uint64) uint64
//
// Calls generated code with the System V argument registers set: DI = mem,
// SI = iters. The code saves and restores every register Go relies on
// across an ABI0 call (it follows the System V callee-saved convention and
// restores BP), and returns its result in AX.
TEXT ·callCode(SB), NOSPLIT, $0-32
	MOVQ fn+0(FP), AX
	MOVQ mem+8(FP), DI
	MOVQ iters+16(FP), SI
	CALL AX
	MOVQ AX, ret+24(FP)
	RET

// faultHandler is installed by the worker for SIGILL, SIGBUS, SIGFPE and
// SIGSEGV: it ends the process at once with exit status 128 + signal (the
// signal number arrives in DI, the siginfo pointer in SI), or 200 + signal
// for a general-protection fault (si_code, at offset 8 of siginfo, is
// SI_KERNEL = 0x80: a privileged instruction), which the parent reads.
// Go's own handler cannot recover from a fault in generated code.
TEXT ·faultHandler(SB), NOSPLIT|NOFRAME, $0-0
	MOVL 8(SI), CX
	CMPL CX, $0x80
	JEQ  privileged
	ADDL $128, DI
	JMP  exit
privileged:
	ADDL $200, DI
exit:
	MOVL $231, AX // exit_group
	SYSCALL
	RET

// func faultHandlerAddr() uintptr
TEXT ·faultHandlerAddr(SB), NOSPLIT, $0-8
	LEAQ ·faultHandler(SB), AX
	MOVQ AX, ret+0(FP)
	RET
