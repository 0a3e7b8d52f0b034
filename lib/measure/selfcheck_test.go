package measure

import (
	"testing"

	"github.com/portlab/portlab/lib/portmap"
)

// TestSelfCheckDirections: a form faster when every write is treated as
// read had a hidden dependency; one slower (vdpps 4.00 → 4.82 cycles under
// the old allocation) was chained by the alternative, which is no
// finding. A memory effect counts either way.
func TestSelfCheckDirections(t *testing.T) {
	at := func(c float64) portmap.Measurement { return portmap.Measurement{Cycles: c} }
	writesRead, otherLines := alternatives[0], alternatives[1]
	for _, c := range []struct {
		alt        alternative
		base, with float64
		finding    bool
	}{
		{writesRead, 1.00, 0.50, true},  // cmov: the copies waited for each other
		{writesRead, 4.00, 4.82, false}, // vdpps: the alternative chains them
		{writesRead, 1.00, 1.05, false}, // within tolerance
		{otherLines, 1.16, 0.50, true},  // stores to one line
		{otherLines, 1.03, 1.19, true},  // stores spread
	} {
		if got := c.alt.finding(at(c.base), at(c.with), 0.1); (got != "") != c.finding {
			t.Errorf("%s %.2f → %.2f: finding %q, want one: %v", c.alt.name, c.base, c.with, got, c.finding)
		}
	}
}
