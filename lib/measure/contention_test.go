package measure

import (
	"slices"
	"testing"
)

// TestContentionBaseline checks that one timing that came out far too fast
// does not make every later measurement look contended, and that a real
// slow-down is reported, also when it lasts.
func TestContentionBaseline(t *testing.T) {
	var tm baseline
	for i := 0; i < 20; i++ {
		tm.note(1.0 + 0.001*float64(i%3))
	}
	tm.note(0.05) // a fluke
	if c := tm.note(1.0); c > 0.01 {
		t.Errorf("after one fluke, a normal timing shows contention %.3f", c)
	}
	if c := tm.note(1.5); c < 0.45 || c > 0.55 {
		t.Errorf("a 50 %% slower reference shows contention %.3f", c)
	}
	// Flukes below the usual speed, one in eight (a busy hour had one in
	// ten), do not pull the baseline down with them.
	for i := 0; i < 100; i++ {
		v := 1.0 + 0.001*float64(i%3)
		if i%8 == 0 {
			v = 0.5 + 0.03*float64(i/8)
		}
		tm.note(v)
	}
	if c := tm.note(1.0); c > 0.01 {
		t.Errorf("with one fluke in eight, a normal timing shows contention %.3f", c)
	}
	// A co-tenant busy for minutes: hundreds of timings 30–100 % slow in a
	// row are still contended.
	for i := 0; i < 500; i++ {
		tm.note(1.3 + 0.7*float64(i*37%500)/500)
	}
	if c := tm.note(1.3); c < 0.25 {
		t.Errorf("after 500 slow timings in a row, a slow one shows contention %.3f", c)
	}
	for i := 0; i < 2*refHistory; i++ {
		tm.note(1.0)
	}
	if len(tm.hist) != refHistory {
		t.Errorf("history holds %d timings, want %d", len(tm.hist), refHistory)
	}
}

// TestFastestRunIsOneSided checks the estimate of one sample: a disturbed
// run — of n iterations or of 2n — only adds time, and the sample is the
// undisturbed speed whichever runs were disturbed. (The difference
// T(2n) − T(n) the timer took before came out too fast when T(n) was
// disturbed: (2000 − 1250)/500 = 1.5 ticks per iteration instead of 2.)
func TestFastestRunIsOneSided(t *testing.T) {
	const n = 500
	clean, cleanDouble := uint64(2*n), uint64(4*n)
	for _, c := range []struct {
		name         string
		runsN, runs2 []uint64
	}{
		{"undisturbed", []uint64{clean, clean, clean}, []uint64{cleanDouble, cleanDouble, cleanDouble}},
		{"every run of n disturbed", []uint64{1300, 1250, 1400}, []uint64{cleanDouble, cleanDouble + 300, cleanDouble}},
		{"every run of 2n disturbed", []uint64{clean + 5, clean, clean + 80}, []uint64{2500, 2600, 2400}},
		{"one of each", []uint64{clean, 1900, clean}, []uint64{cleanDouble, cleanDouble, 2 * cleanDouble}},
	} {
		if got := fastestPerIteration(c.runsN, c.runs2, n); got != 2 {
			t.Errorf("%s: %.3f ticks per iteration, want 2", c.name, got)
		}
		diff := (float64(slices.Min(c.runs2)) - float64(slices.Min(c.runsN))) / n
		t.Logf("%s: the difference T(2n) − T(n) gives %.3f", c.name, diff)
	}
}

// TestContentionOfBothReferences checks that a slow-down of either
// reference kernel counts: another thread on the core may use its ports
// (the port-bound reference slows) or only take part of its out-of-order
// window (only the window-bound one slows).
func TestContentionOfBothReferences(t *testing.T) {
	tm := &Timer{}
	for i := 0; i < 100; i++ {
		tm.slowDown(24, 200)
	}
	for _, c := range []struct {
		name          string
		ports, window float64
		lo, hi        float64
	}{
		{"neither slowed", 24, 200, 0, 0.001},
		{"ports shared", 36, 210, 0.49, 0.51},
		{"window shared", 24.2, 280, 0.39, 0.41},
		{"window reference failed", 30, 0, 0.24, 0.26},
	} {
		got := tm.slowDown(c.ports, c.window)
		if got < c.lo || got > c.hi {
			t.Errorf("%s: contention %.3f, want %.2f–%.2f", c.name, got, c.lo, c.hi)
		}
	}
}
