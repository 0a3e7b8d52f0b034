// Package pmu tells whether the host exposes hardware performance counters
// to portlab: Detect opens Linux perf events for core cycles and retired
// instructions (perf_event_open, for the calling thread, user space only)
// and reports which could be opened and, for those that could not, why —
// no PMU (a virtual machine without a virtual PMU, as portlab's
// development machines are), a kernel.perf_event_paranoid setting that
// forbids it, or another operating system.
//
// The inference methods that need µop counters (infer/uopsinfo and
// infer/explainable) quote Status.Advice in their error when the oracle
// counts nothing, so that a user on hardware without counters learns why.
// Open opens a Group of events (Spec: the generic Cycles and
// Instructions, the software TaskClock and ContextSwitches, the raw
// RetiredUops event of the host's vendor) for the calling thread; the
// hardware oracle's worker (package measure, Hardware.Count and
// CountUops) enables them around each timed loop and reports the counts
// per execution of the experiment. The software events test this path on
// hosts without a PMU; the hardware and raw events are untested (no PMU
// on portlab's development machines), and per-port µop events (Intel's
// UOPS_DISPATCHED_PORT, model-specific) are not programmed.
package pmu
