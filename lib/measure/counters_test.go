package measure

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/pmu"
	"github.com/portlab/portlab/lib/portmap"
)

// TestCountersSoftware tests the counter plumbing for real with software
// events, which the kernel offers without a PMU: the worker opens them on
// its thread, enables them around each timed loop and reads them, and the
// Timer turns the readings into counts per iteration. The task clock per
// iteration must fit the chain's length in cycles at any plausible clock
// and double for a chain twice as long. (The worker is not pinned: the counts, not the
// timing, are under test.)
func TestCountersSoftware(t *testing.T) {
	tm := NewTimer(-1)
	defer tm.Close()
	tm.Runner.Counters = []pmu.Spec{pmu.TaskClock, pmu.ContextSwitches}
	kernels := []Kernel{
		{Name: "add chain 64", Body: Repeat([]string{"add rax, 1"}, 64)},
		{Name: "add chain 128", Body: Repeat([]string{"add rax, 1"}, 128)},
	}
	ctx := context.Background()
	if err := tm.Load(ctx, kernels, hostVector()); err != nil {
		t.Fatal(err)
	}
	var ns [2]float64
	for k := range kernels {
		m, err := tm.Measure(ctx, k)
		if err != nil {
			if strings.Contains(err.Error(), "counters:") {
				t.Skipf("software events unavailable: %v", err)
			}
			t.Fatal(err)
		}
		ns[k] = m.Counts["task-clock"]
		wall := m.Cycles * m.TicksPerCycle / tm.ticksPerNano
		t.Logf("%s: %.1f cycles, %.1f ns per iteration by the TSC, task clock %.1f ns, %.3g context switches per iteration",
			kernels[k].Name, m.Cycles, wall, ns[k], m.Counts["context-switches"])
		if len(m.Counts) != 2 {
			t.Fatalf("counts %v, want task-clock and context-switches", m.Counts)
		}
		// A chain of n adds takes n cycles: between n/6 and n/0.5 ns at
		// 0.5–6 GHz. (Not compared with the TSC's time: on a busy CPU
		// that also holds time preempted, or comes out too short from a
		// disturbed T(N); the task clock counts only the thread's time.)
		n := float64(len(kernels[k].Body))
		if ns[k] < n/6 || ns[k] > n/0.5 {
			t.Errorf("%s: task clock %.1f ns per iteration (the TSC says %.1f)", kernels[k].Name, ns[k], wall)
		}
	}
	if r := ns[1] / ns[0]; r < 1.5 || r > 2.7 {
		t.Errorf("a chain twice as long counts %.3g times the task clock", r)
	}
}

// TestHardwareCounters: the hardware oracle with a software event carries
// its count per execution of the experiment into the measurement; asking
// for µops, or hardware events behind Count's back, on a host without a
// PMU fails with an error naming the event and the cause.
func TestHardwareCounters(t *testing.T) {
	h, err := NewHardware(-1)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.Passes, h.MaxPasses = 1, 1
	if err := h.Count(pmu.TaskClock); err != nil {
		t.Skipf("software events unavailable: %v", err)
	}
	ctx := context.Background()
	add := "add RW:GPR:64, R:GPR:64"
	one, err := h.Measure(ctx, portmap.NewExperiment(add))
	if err != nil {
		t.Fatal(err)
	}
	four, err := h.Measure(ctx, portmap.NewExperiment().With(add, 4))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v, task clock %.3g ns; %v, task clock %.3g ns", one, one.Counters["task-clock"], four, four.Counters["task-clock"])
	if one.Uops != 0 || one.Counters["task-clock"] <= 0 {
		t.Errorf("one add: µops %v, counters %v", one.Uops, one.Counters)
	}
	if r := four.Counters["task-clock"] / one.Counters["task-clock"]; r < 1.5 || r > 10 {
		t.Errorf("four adds count %.3g times the task clock of one", r)
	}
	if err := h.Count(); err != nil {
		t.Fatal(err)
	}
	if m, err := h.Measure(ctx, portmap.NewExperiment().With(add, 2)); err != nil || m.Counters != nil {
		t.Errorf("counting off: %v, %v", m.Counters, err)
	}

	st := pmu.Detect()
	if st.Available() {
		t.Skip("this host has a PMU: the failure paths cannot be tested")
	}
	err = h.CountUops()
	if err == nil || !(errors.Is(err, pmu.ErrNoPMU) || errors.Is(err, pmu.ErrNotPermitted)) {
		t.Errorf("CountUops without a PMU (%v): %v", st, err)
	}
	t.Log(err)
	// Behind Count's back, the worker gives the same error at the first
	// measurement, and the oracle goes on without counters afterwards.
	h.Timer.Runner.Counters = []pmu.Spec{pmu.Cycles}
	_, err = h.Measure(ctx, portmap.NewExperiment().With(add, 3))
	if err == nil || !strings.Contains(err.Error(), "counters: pmu: opening cycles") {
		t.Errorf("hardware event in the worker without a PMU: %v", err)
	}
	t.Log(err)
	h.Timer.Runner.Counters = nil
	if _, err := h.Measure(ctx, portmap.NewExperiment().With(add, 3)); err != nil {
		t.Errorf("after the failed counters: %v", err)
	}
}
