package pmu

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Detect tries to open the hardware events for core cycles and retired
// instructions for the calling thread (user space only) and closes them
// again.
func Detect() Status {
	var s Status
	if b, err := os.ReadFile("/proc/sys/kernel/perf_event_paranoid"); err == nil {
		s.Paranoid = strings.TrimSpace(string(b))
	}
	for _, ev := range []struct {
		name   string
		config uint64
	}{{"cycles", unix.PERF_COUNT_HW_CPU_CYCLES}, {"instructions", unix.PERF_COUNT_HW_INSTRUCTIONS}} {
		attr := unix.PerfEventAttr{
			Type:   unix.PERF_TYPE_HARDWARE,
			Config: ev.config,
			Bits:   unix.PerfBitDisabled | unix.PerfBitExcludeKernel | unix.PerfBitExcludeHv,
		}
		attr.Size = uint32(unsafe.Sizeof(attr))
		fd, err := unix.PerfEventOpen(&attr, 0, -1, -1, unix.PERF_FLAG_FD_CLOEXEC)
		if err == nil {
			unix.Close(fd)
		}
		s.Events = append(s.Events, Event{Name: ev.name, Err: classify(err, s.Paranoid)})
	}
	return s
}

// classify turns perf_event_open's errno into one of the package's errors.
func classify(err error, paranoid string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.ENOENT), errors.Is(err, unix.ENODEV), errors.Is(err, unix.EOPNOTSUPP):
		return fmt.Errorf("%w (perf_event_open: %v)", ErrNoPMU, err)
	case errors.Is(err, unix.EACCES), errors.Is(err, unix.EPERM):
		return fmt.Errorf("%w (perf_event_open: %v; kernel.perf_event_paranoid = %s: set it to 2 or lower, or grant CAP_PERFMON)", ErrNotPermitted, err, paranoid)
	case errors.Is(err, unix.ENOSYS):
		return fmt.Errorf("%w (perf_event_open: %v)", ErrUnsupported, err)
	}
	return fmt.Errorf("perf_event_open: %w", err)
}
