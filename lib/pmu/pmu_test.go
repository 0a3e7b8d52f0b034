package pmu

import (
	"errors"
	"strings"
	"testing"
)

// TestDetect checks what Detect reports on this host: on a host without a
// PMU (portlab's virtual machines) or without permission, a clear error
// naming the cause; where the counters open, the PMU path.
func TestDetect(t *testing.T) {
	s := Detect()
	t.Logf("%v (kernel.perf_event_paranoid = %q)", s, s.Paranoid)
	if len(s.Events) != 2 {
		t.Fatalf("events %+v, want cycles and instructions", s.Events)
	}
	if err := s.Err(); err != nil {
		if !errors.Is(err, ErrNoPMU) && !errors.Is(err, ErrNotPermitted) && !strings.Contains(err.Error(), "perf_event_open") {
			t.Errorf("error names no cause: %v", err)
		}
		if !strings.Contains(s.Advice(), "simulate") || !strings.Contains(s.Advice(), err.Error()) {
			t.Errorf("advice: %s", s.Advice())
		}
		t.Skipf("the PMU path cannot be tested here: %v", err)
	}
	if !s.Available() || !strings.Contains(s.String(), "cycles, instructions") {
		t.Errorf("available: %v", s)
	}
}

// TestClassify checks the messages for the errors perf_event_open gives.
func TestClassify(t *testing.T) {
	for _, c := range []struct {
		errno string
		want  error
	}{{"ENOENT", ErrNoPMU}, {"EACCES", ErrNotPermitted}, {"ENOSYS", ErrUnsupported}} {
		err := classify(errnoNamed(c.errno), "4")
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.errno, err, c.want)
		}
	}
	if err := classify(errnoNamed("EACCES"), "4"); !strings.Contains(err.Error(), "perf_event_paranoid = 4") {
		t.Errorf("EACCES: %v", err)
	}
	if (Status{}).Err() == nil || !errors.Is(Status{}.Err(), ErrUnsupported) {
		t.Errorf("no events: %v", Status{}.Err())
	}
}
