package measure

import "testing"

// TestContentionBaseline checks that one timing that came out far too fast
// does not make every later measurement look contended, and that a real
// slow-down is reported, also when it lasts.
func TestContentionBaseline(t *testing.T) {
	tm := &Timer{}
	for i := 0; i < 20; i++ {
		tm.noteReference(1.0 + 0.001*float64(i%3))
	}
	tm.noteReference(0.05) // a fluke
	if c := tm.noteReference(1.0); c > 0.01 {
		t.Errorf("after one fluke, a normal timing shows contention %.3f", c)
	}
	if c := tm.noteReference(1.5); c < 0.45 || c > 0.55 {
		t.Errorf("a 50 %% slower reference shows contention %.3f", c)
	}
	// Flukes below the usual speed, one in eight (a busy hour had one in
	// ten), do not pull the baseline down with them.
	for i := 0; i < 100; i++ {
		v := 1.0 + 0.001*float64(i%3)
		if i%8 == 0 {
			v = 0.5 + 0.03*float64(i/8)
		}
		tm.noteReference(v)
	}
	if c := tm.noteReference(1.0); c > 0.01 {
		t.Errorf("with one fluke in eight, a normal timing shows contention %.3f", c)
	}
	// A co-tenant busy for minutes: hundreds of timings 30–100 % slow in a
	// row are still contended.
	for i := 0; i < 500; i++ {
		tm.noteReference(1.3 + 0.7*float64(i*37%500)/500)
	}
	if c := tm.noteReference(1.3); c < 0.25 {
		t.Errorf("after 500 slow timings in a row, a slow one shows contention %.3f", c)
	}
	for i := 0; i < 2*refHistory; i++ {
		tm.noteReference(1.0)
	}
	if len(tm.refHist) != refHistory {
		t.Errorf("history holds %d timings, want %d", len(tm.refHist), refHistory)
	}
}
