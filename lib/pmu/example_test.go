package pmu_test

import (
	"fmt"

	"github.com/portlab/portlab/lib/pmu"
)

// Detect tries the hardware events; Status.Err says why one could not be
// opened (on a virtual machine without a PMU: pmu.ErrNoPMU), and
// Status.Advice what to do instead.
func ExampleDetect() {
	s := pmu.Detect()
	for _, e := range s.Events {
		fmt.Println("tried", e.Name)
	}
	// Output:
	// tried cycles
	// tried instructions
}
