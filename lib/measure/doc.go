// Package measure benchmarks instruction sequences on the host: it is the
// experimental half of port-mapping research (PMEvo, PLDI 2020, §4.2; thesis §3.2.1
// and Appendix D). A Kernel is a loop body in Intel syntax; Assemble turns
// a batch of kernels into one object with a single run of the system
// assembler (GNU as), wrapping each body in a function that saves the
// caller's registers, sets flush-to-zero and denormals-are-zero, loads
// benign values (the pattern of float 1.0) into every general-purpose and
// vector register — a loop of legacy-SSE instructions then starts with the
// vector registers' upper halves zero, the state compiled SSE code runs in
// — reads the TSC around the loop and cleans up with vzeroupper. Kernels address memory only through r14, the base of a
// 1 MiB buffer, and leave r15, the loop counter, alone.
//
// Generated code never runs in the caller's process. A Runner starts a copy
// of the running executable as a worker (the executable calls
// RunWorkerIfRequested first thing), pinned to one CPU, loads the code into
// executable memory there and times it on request. A kernel that executes
// an illegal instruction or touches memory outside its buffer ends the
// worker with a signal, one that hangs is killed after a timeout; either
// way the call returns a *FaultError or *TimeoutError naming the kernel and
// the next call starts a fresh worker, so a campaign goes on. A Timer turns
// ticks into core cycles without performance counters: a timing runs the
// kernel several times between runs of a chain of dependent adds — one
// cycle each on every x86-64 core — and its estimate is the kernel's
// fastest run over the chain's fastest run (a busy machine only ever adds
// time, so the fastest run is the least disturbed); two reference
// kernels, one port-bound and one that needs a large out-of-order window,
// show whether another tenant shared the core
// (contention). Hardware, the oracle, times every experiment in
// interleaved passes over its batch until its two fastest uncontended
// passes agree (the value is the fastest), and can split batches
// between workers on several CPUs (NewHardwareOn, checked by Interference).
// When its context is cancelled it makes final every experiment whose
// minimum passes are done, so that an interrupted campaign keeps them.
// Hardware.Kernels makes it build other kernels for its experiments:
// LatencyKernel the latency chains of package design's latency design,
// Blocks basic blocks and loop bodies as written (BHive's method), which
// HostBlocks offers as a block predictor, so that the host is the
// reference of block evaluations. HostMachine writes the host's machine
// description from a mapping inferred on it and the measured latencies.
//
// A failure of the machinery itself — a worker that cannot start or be
// pinned to its CPU, an assembler that is not installed — is an
// *InfrastructureError: it is no property of any experiment, so the run
// stops with it (oracle.IsInfrastructure) and a Campaign journals nothing
// for it. The CPU measurements use when none is given is DefaultCPU, the
// environment variable PORTLAB_CPU (default 0).
//
// A campaign file begins with a header (portmap.Header, written by
// Campaign.Begin): the machine's fingerprint (Hardware.Fingerprint: the
// CPU, its microcode, the calibrated core cycles per TSC tick, the
// portlab version) and the settings (Hardware.Settings), and for a
// campaign measured in parts (portmap.Shard) the part's plan.
// MergeCampaigns joins the parts, refusing any from another machine or
// with other settings.
package measure
