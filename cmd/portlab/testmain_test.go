package main

import (
	"os"
	"testing"

	"github.com/portlab/portlab/lib/measure"
)

// envRunMain makes the test binary run as the portlab command (main), for
// tests that start it as a program: the Slurm jobs of TestSlurmCampaign.
const envRunMain = "PORTLAB_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	// The benchmarker runs its workers in a copy of this executable.
	measure.RunWorkerIfRequested()
	if os.Getenv(envRunMain) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}
