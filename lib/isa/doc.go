// Package isa describes instruction forms (thesis: instruction schemes,
// §2.1): a mnemonic with typed operands — register class, width and allowed
// range, memory with its width, immediates with their width, access modes
// (R, W, RW), hardwired and implicit operands, AVX-512 write masks and
// broadcasts, AArch64 arrangements — for x86-64 and AArch64. It reads and
// prints the two namings of the shared data sets, so that both name the
// same forms: the scheme syntax of iwho, which keys the uops.info port
// usage ("add RW:GPR:64, R:GPR:64", "mov qword ptr W:MEM(64), R:GPR:64",
// "IMM(8)"; ParseScheme, Form.Scheme), and the instruction names of the
// PMEvo artifact ("ADD_((REG:RW:G:64)),_((IMM:32))"; ParsePMEvo,
// Form.PMEvoName). SchemeOfPMEvo translates a PMEvo x86 name to its
// uops.info scheme, so that measured port usage attaches to PMEvo's forms;
// Form.Key names a form in port mappings (package portmap), as a plain
// string.
//
// The package ships curated lists for benchmarking, X86Forms (GPR, SSE,
// AVX, AVX2 and AVX-512 forms, named as in uops.info where uops.info has
// them) and AArch64Forms (integer, floating-point and Advanced SIMD forms),
// each form with its ISA extension. Form.Example gives one concrete
// instruction of a form in GNU assembler syntax (the tests assemble all of
// them), Form.Candidates the registers an operand may take, ImmediateValue
// the immediate benchmarks use; choosing operands without dependencies
// (thesis Algorithm 3.1) is left to the benchmarker. HostSupport reads the
// host's /proc/cpuinfo, and HostInfo.Supports and RunnableForms tell which
// forms the host can execute.
package isa
