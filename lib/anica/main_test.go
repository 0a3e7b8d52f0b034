package anica_test

import (
	"os"
	"testing"

	"github.com/portlab/portlab/lib/measure"
)

// TestMain lets the test binary serve as the host's measurement worker
// (the host predictor of BenchmarkPredict starts a copy of it as one).
func TestMain(m *testing.M) {
	measure.RunWorkerIfRequested()
	os.Exit(m.Run())
}
