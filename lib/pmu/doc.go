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
// Reading µop counts during a measurement (AMD's PMCx0C1 retired
// macro-ops, Intel's per-port UOPS_DISPATCHED events) is not implemented:
// on hosts where Detect finds counters, the hardware oracle still measures
// time only.
package pmu
