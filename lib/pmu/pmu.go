package pmu

import (
	"errors"
	"fmt"
	"strings"
)

// Event is a counter Detect tries.
type Event struct {
	Name string // "cycles", "instructions"
	// Err is why it could not be opened; nil when it could.
	Err error
}

// Status is what Detect found.
type Status struct {
	Events []Event
	// Paranoid is kernel.perf_event_paranoid ("" when unreadable).
	Paranoid string
}

// ErrNoPMU is wrapped by Status.Err when the kernel has no PMU for the
// events (ENOENT: the machine, typically a virtual machine, exposes none).
var ErrNoPMU = errors.New("the host exposes no hardware performance counters (no PMU; virtual machines often have none)")

// ErrNotPermitted is wrapped by Status.Err when the kernel forbids the
// events to this process.
var ErrNotPermitted = errors.New("perf_event_open is not permitted")

// ErrUnsupported is wrapped by Status.Err on systems without
// perf_event_open.
var ErrUnsupported = errors.New("perf_event_open is only available on Linux")

// Available reports whether every event could be opened.
func (s Status) Available() bool { return s.Err() == nil }

// Err returns nil when every event could be opened, else the first
// event's error.
func (s Status) Err() error {
	for _, e := range s.Events {
		if e.Err != nil {
			return fmt.Errorf("pmu: %s: %w", e.Name, e.Err)
		}
	}
	if len(s.Events) == 0 {
		return fmt.Errorf("pmu: %w", ErrUnsupported)
	}
	return nil
}

// String describes the status in one line.
func (s Status) String() string {
	if s.Available() {
		var names []string
		for _, e := range s.Events {
			names = append(names, e.Name)
		}
		return "hardware counters available: " + strings.Join(names, ", ")
	}
	return s.Err().Error()
}

// Advice says what a method that needs µop counters can do on this host.
func (s Status) Advice() string {
	if s.Available() {
		return "this host has hardware counters (" + s.String() + "): turn on the hardware oracle's µop counter (measure.Hardware.CountUops; infer.Infer does for the methods that need it), replay measurements made with it, or simulate (portlab infer -simulate)"
	}
	return s.String() + "; simulate instead (portlab infer -simulate M, oracle.Simulate) or replay measurements made on a machine with counters"
}
