package oracle

import (
	"errors"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/portmap"
)

// TestCounters: a simulation switches its per-port counters on; a replay
// and a stored-first oracle refuse counters their data lacks and accept
// the ones it carries.
func TestCounters(t *testing.T) {
	m := portmap.MustMapping("toy", "0", "1")
	m.MustSetUsage("add", "1*p01").MustSetUsage("mul", "1*p1")
	sim := Simulate(m, 0, 1)
	if err := sim.CountUops(); err != nil {
		t.Fatal(err)
	}
	plain, _, _ := MeasureAll(t.Context(), sim, []portmap.Experiment{portmap.NewExperiment("add")}, nil)
	if err := sim.CountPortUops(); err != nil || !sim.PortCounters {
		t.Fatalf("simulation: %v, counters %v", err, sim.PortCounters)
	}
	counted, _, _ := MeasureAll(t.Context(), sim, []portmap.Experiment{portmap.NewExperiment("add")}, nil)
	if counted.Measurements[0].PortUops == nil {
		t.Fatal("no per-port counts after CountPortUops")
	}
	if err := NewReplay("plain", plain).CountPortUops(); !errors.Is(err, ErrNoPortCounters) || !strings.Contains(err.Error(), "plain") {
		t.Errorf("replay without port counts: %v", err)
	}
	if err := NewReplay("plain", plain).CountUops(); err != nil {
		t.Errorf("replay with µop counts: %v", err)
	}
	if err := NewReplay("counted", counted).CountPortUops(); err != nil {
		t.Errorf("replay with port counts: %v", err)
	}
	noUops := &portmap.ExperimentSet{Measurements: []portmap.Measurement{{Experiment: portmap.NewExperiment("add"), Cycles: 0.5}}}
	if err := NewReplay("cycles", noUops).CountUops(); !errors.Is(err, ErrNoUopCounter) {
		t.Errorf("replay without µop counts: %v", err)
	}
	if err := NewStoredFirst(counted, "counted", AsOracle(FromMapping(m))).CountPortUops(); !errors.Is(err, ErrNoPortCounters) || !strings.Contains(err.Error(), "live oracle") {
		t.Errorf("stored first, live oracle without counters: %v", err)
	}
	if err := NewStoredFirst(counted, "counted", Simulate(m, 0, 1)).CountPortUops(); err != nil {
		t.Errorf("stored first with counters: %v", err)
	}
}
