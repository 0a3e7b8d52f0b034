package measure

import "testing"

// TestContentionBaseline checks that one timing that came out far too fast
// does not make every later measurement look contended, and that a real
// slow-down is reported.
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
	for i := 0; i < 2*refHistory; i++ {
		tm.noteReference(1.0)
	}
	if len(tm.refHist) != refHistory {
		t.Errorf("history holds %d timings, want %d", len(tm.refHist), refHistory)
	}
}
