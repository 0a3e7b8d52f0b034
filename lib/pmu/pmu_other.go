//go:build !linux

package pmu

// Detect reports that perf_event_open is unavailable: it is Linux only.
func Detect() Status { return Status{} }
