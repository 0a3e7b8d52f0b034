package pmu

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Group is a set of counters opened for the calling thread (user space
// only), disabled until Start. The thread must stay the same
// (runtime.LockOSThread) while the group is used.
type Group struct {
	specs []Spec
	fds   []int
}

// Open opens the events for the calling thread. An event that cannot be
// opened closes the others and gives an error naming it and the cause (no
// PMU, not permitted), with Detect's status for hardware events.
func Open(specs ...Spec) (*Group, error) {
	g := &Group{specs: specs}
	paranoid := Detect().Paranoid
	for _, s := range specs {
		attr := unix.PerfEventAttr{
			Type:        s.Type,
			Config:      s.Config,
			Bits:        unix.PerfBitDisabled | unix.PerfBitExcludeKernel | unix.PerfBitExcludeHv,
			Read_format: unix.PERF_FORMAT_TOTAL_TIME_ENABLED | unix.PERF_FORMAT_TOTAL_TIME_RUNNING,
		}
		attr.Size = uint32(unsafe.Sizeof(attr))
		fd, err := unix.PerfEventOpen(&attr, 0, -1, -1, unix.PERF_FLAG_FD_CLOEXEC)
		if err != nil {
			g.Close()
			return nil, fmt.Errorf("pmu: opening %s (type %d, config %#x): %w", s.Name, s.Type, s.Config, classify(err, paranoid))
		}
		g.fds = append(g.fds, fd)
	}
	return g, nil
}

// Specs returns the events of the group, in order.
func (g *Group) Specs() []Spec { return append([]Spec(nil), g.specs...) }

// Start resets the counters to zero and enables them.
func (g *Group) Start() error {
	for i, fd := range g.fds {
		if err := unix.IoctlSetInt(fd, unix.PERF_EVENT_IOC_RESET, 0); err != nil {
			return fmt.Errorf("pmu: resetting %s: %w", g.specs[i].Name, err)
		}
		if err := unix.IoctlSetInt(fd, unix.PERF_EVENT_IOC_ENABLE, 0); err != nil {
			return fmt.Errorf("pmu: enabling %s: %w", g.specs[i].Name, err)
		}
	}
	return nil
}

// Stop disables the counters.
func (g *Group) Stop() error {
	for i := len(g.fds) - 1; i >= 0; i-- {
		if err := unix.IoctlSetInt(g.fds[i], unix.PERF_EVENT_IOC_DISABLE, 0); err != nil {
			return fmt.Errorf("pmu: disabling %s: %w", g.specs[i].Name, err)
		}
	}
	return nil
}

// Read returns the counts since Start, in the order of the events. A
// counter the kernel multiplexed with others is scaled by the time it was
// enabled over the time it ran; one that never ran is an error.
func (g *Group) Read() ([]float64, error) {
	out := make([]float64, len(g.fds))
	var buf [24]byte
	for i, fd := range g.fds {
		n, err := unix.Read(fd, buf[:])
		if err != nil || n != len(buf) {
			return nil, fmt.Errorf("pmu: reading %s: %d bytes, %v", g.specs[i].Name, n, err)
		}
		value := binary.NativeEndian.Uint64(buf[0:])
		enabled := binary.NativeEndian.Uint64(buf[8:])
		running := binary.NativeEndian.Uint64(buf[16:])
		switch {
		case running == 0 && enabled > 0:
			return nil, fmt.Errorf("pmu: %s never ran while enabled (%d ns): the kernel had no counter free for it", g.specs[i].Name, enabled)
		case running < enabled:
			out[i] = float64(value) * float64(enabled) / float64(running)
		default:
			out[i] = float64(value)
		}
	}
	return out, nil
}

// Close closes the counters.
func (g *Group) Close() error {
	var first error
	for _, fd := range g.fds {
		if err := unix.Close(fd); err != nil && first == nil {
			first = err
		}
	}
	g.fds = nil
	return first
}
