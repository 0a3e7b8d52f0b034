// Package block reads basic blocks and loop bodies of real x86-64 code and
// works out their dependencies: the first layer of a basic-block and loop
// throughput simulator in the style of llvm-mca and uiCA (Abel & Reineke,
// "uiCA: Accurate Throughput Prediction of Basic Blocks on Recent Intel
// Microarchitectures", ICS 2022), which take a block of assembly, and of
// Gus (Pompougnac et al., "Performance bottlenecks detection through
// microarchitectural sensitivity", arXiv:2402.15773, 2024), whose
// resource-centric simulation follows dependencies and latencies.
//
// # Input formats
//
// Parse and ParseFile read GNU assembly in Intel syntax
// (.intel_syntax noprefix, as gcc -S -masm=intel prints it: "movsd xmm0,
// QWORD PTR [rdi+rax*8]", "lea rax, -1[rdx]") or AT&T syntax (as gcc -S
// prints it: "movsd (%rdi,%rax,8), %xmm0", "addq $1, %rax", "movzbl
// (%rdi), %edx"), and objdump -d listings of either ("  401126:\t48 01 d8
// \tadd rax,rbx": the address and encoding columns are dropped, the
// address kept in Insn.Addr). Labels, directives, comments and blank lines
// are skipped; a jump at the end is the loop branch (Block.IsLoop).
// DecodeHex reads machine code in hex, and ReadBHiveCSV the CSV files of
// BHive (one block a line, "hex,cycles"); both decode the bytes with
// binutils' objdump -D -b binary -m i386:x86-64 -M intel as a subprocess.
//
// # Forms
//
// Every instruction is matched to its instruction form (isa.Form)
// from DefaultForms: the uops.info scheme list of iwho (Abel & Reineke,
// "uops.info: Characterizing Latency, Throughput, and Port Usage of
// Instructions on Intel Microarchitectures", ASPLOS 2019), so that
// Form.Key names the instruction as the uops.info port usage does, plus
// lib/isa's curated list. The mnemonic and the operands decide: register
// class and width from the register name, memory width from the size
// keyword (QWORD PTR), the AT&T suffix or the other operands, the
// smallest immediate width the value fits and the short accumulator
// forms, as GNU as chooses; for objdump listings and hex the encoding
// decides instead (Insn.Encoding). Aliases are resolved: condition codes (jz → je,
// cmovnb → cmovae), AT&T suffixes and names (addq, movzbl, cltq), sal →
// shl, a shift by 1 without immediate. A line that cannot be read or
// matched is never dropped: Parse collects all of them, each with its
// line, column and text, into one *ParseError.
//
// # Dependencies
//
// Insn.Reads and Insn.Writes list the registers (by their
// widest alias: al, ax, eax, rax are one register, as are xmm1, ymm1 and
// zmm1), flags and memory each instruction touches: explicit operands by
// the access mode of the form, implicit operands from the form (flags,
// the rax:rdx of mul and div) and from this package (the stack pointer of
// push and pop, the pointers of string instructions, the argument and
// caller-saved registers of a call under the System V AMD64 ABI), address
// registers as reads. Writes of 8- and 16-bit registers and legacy-SSE scalar
// operations merge into the old value and so also read it; 32-bit writes
// zero the upper half and do not. Zero idioms (xor eax, eax; pxor xmm0,
// xmm0) read nothing. Block.Deps builds the read-after-write graph, with
// the loop-carried edges of a loop body, and documents the memory
// aliasing assumption. Block.Experiment gives the instructions as the
// multiset of form keys that port mappings (package portmap) and their
// throughput bounds (package throughput) take.
//
// Instructions whose implicit operands are not modelled (cpuid, rdtsc,
// syscall, xsave…) are refused with an error naming the line. AArch64 is
// not supported yet.
package block
