// Package operands turns instruction forms into concrete instructions for
// throughput benchmarks: it chooses the registers, memory operands and
// immediates of each form so that a loop body of many instructions has as
// few read-after-write dependencies as possible, which is what makes its
// cycles per iteration a throughput rather than a latency. This is the
// operand allocation of Ritter's thesis (§3.2.1, Algorithm 3.1, Example
// 3.15): registers and memory slots are split into read-only, write-only
// and read-write pools, a read-only operand always reads a register no
// instruction writes, a write-only one writes a register no instruction
// reads, and read-write operands are spread over as many registers as
// possible, least recently used first. Two corrections to the thesis: a
// write-only operand that really reads its register (cmov, setcc, 8- and
// 16-bit writes, legacy-SSE scalar writes that keep the upper lanes) is
// allocated as read-write, since the one write-only register would chain
// every copy into a latency; and stores and loads rotate over distinct
// cache lines of one page (stores to one line measure a memory effect, not
// the store ports). A Layout selects other placements for the
// measurement's self-check (measure.CheckLayouts).
//
// Instantiate and InstantiateAArch64 allocate a list of forms (repeat the
// forms first to unroll: each copy gets fresh registers); InstantiateChain
// does the opposite, chaining n copies through one register per class to
// measure latency; InstantiateLatency chains them through one operand
// pair of LatencyPairs, for latencies per input operand. Benchmarkable
// says whether a form can be measured as a throughput benchmark at all,
// and why not (branches, system instructions, value-dependent timing,
// unavoidable dependency chains).
// The harness that runs the code (package measure) and the peers that
// analyse it (llvm-mca) share the allocation, so they see the same
// instructions. Registers with fixed roles are reserved: on x86-64 rsp, r14
// (the buffer base), r15 (the loop counter) and r13 (a small constant, see
// X86Init); on AArch64 x26–x28 and the platform registers.
package operands
