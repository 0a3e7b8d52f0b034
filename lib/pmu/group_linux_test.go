package pmu

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestGroupSoftware opens software events (which the kernel offers without
// a PMU), counts a busy loop of 50 ms of thread CPU time and checks the
// task clock against the thread's CPU time from getrusage (not the wall
// clock: other processes on the CPU take their share); a loop ten times
// shorter counts about ten times less.
func TestGroupSoftware(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	g, err := Open(TaskClock, ContextSwitches)
	if err != nil {
		t.Skipf("software events unavailable: %v", err)
	}
	defer g.Close()
	cpu := func() time.Duration {
		var ru unix.Rusage
		if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
			t.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	busy := func(d time.Duration) (float64, time.Duration) {
		if err := g.Start(); err != nil {
			t.Fatal(err)
		}
		t0 := cpu()
		for cpu()-t0 < d {
		}
		used := cpu() - t0
		if err := g.Stop(); err != nil {
			t.Fatal(err)
		}
		v, err := g.Read()
		if err != nil {
			t.Fatal(err)
		}
		if len(v) != 2 {
			t.Fatalf("read %v", v)
		}
		return v[0], used
	}
	long, used := busy(50 * time.Millisecond)
	short, _ := busy(5 * time.Millisecond)
	t.Logf("task clock %.0f ns over %v of thread CPU time; %.0f ns for a tenth", long, used, short)
	if long > float64(used)*1.2 || long < float64(used)*0.8 {
		t.Errorf("task clock %.0f ns for %v of thread CPU time", long, used)
	}
	if r := long / short; r < 5 || r > 20 {
		t.Errorf("50 ms / 5 ms counted %.3g times as much", r)
	}
	// Disabled, the counters stand still.
	before, _ := g.Read()
	time.Sleep(5 * time.Millisecond)
	after, _ := g.Read()
	if before[0] != after[0] {
		t.Errorf("stopped task clock moved: %v → %v", before[0], after[0])
	}
}

// TestOpenHardware: where the host has no PMU, opening the µop or cycle
// event fails with an error that names the event and the cause.
func TestOpenHardware(t *testing.T) {
	uops, err := RetiredUops()
	if err != nil {
		t.Logf("%v; trying cycles only", err)
		uops = Cycles
	}
	g, err := Open(Cycles, uops)
	if err == nil {
		g.Close()
		t.Skip("this host has a PMU: the failure path cannot be tested")
	}
	if st := Detect(); !st.Available() {
		if !errors.Is(err, ErrNoPMU) && !errors.Is(err, ErrNotPermitted) || !strings.Contains(err.Error(), "opening cycles") {
			t.Errorf("no PMU (%v), error %v", st, err)
		}
	}
	t.Log(err)
}

// TestRetiredUops: the host's vendor gets an event, or an error naming it.
func TestRetiredUops(t *testing.T) {
	vendor, family, err := cpuID()
	if err != nil {
		t.Fatal(err)
	}
	s, err := RetiredUops()
	t.Logf("%s family %#x: %+v %v", vendor, family, s, err)
	if err == nil && (s.Name != UopsName || s.Type != 4 || s.Config&0xFF == 0) {
		t.Errorf("event %+v", s)
	}
	if err != nil && !strings.Contains(err.Error(), vendor) {
		t.Errorf("error %v names no vendor", err)
	}
}
