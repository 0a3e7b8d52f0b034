//go:build linux && amd64

package cegis_test

import (
	"context"
	"errors"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/infer/cegis"
	"github.com/portlab/portlab/lib/measure"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// TestMain lets the test binary's copy run as the measurement worker of
// TestLiveHost.
func TestMain(m *testing.M) {
	measure.RunWorkerIfRequested()
	os.Exit(m.Run())
}

// allowedCPU returns the first CPU this process may run on (the worker is
// pinned there, so "taskset -c 1 go test" measures on CPU 1).
func allowedCPU(t *testing.T) int {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			first := strings.FieldsFunc(strings.TrimSpace(v), func(r rune) bool { return r == ',' || r == '-' })
			if len(first) > 0 {
				if n, err := strconv.Atoi(first[0]); err == nil {
					return n
				}
			}
		}
	}
	return 0
}

// TestLiveHost runs the inference on this machine's own ports for two
// instruction forms, measuring what it asks: the outcome depends on the
// machine and its load, but it must be a mapping that explains every
// measurement within ε or an error naming conflicting measurements, within
// a minute (a few seconds on an idle core).
func TestLiveHost(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the hardware")
	}
	for _, tool := range []string{"as", "z3"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s: %v", tool, err)
		}
	}
	hw, err := measure.NewHardware(allowedCPU(t))
	if err != nil {
		t.Fatal(err)
	}
	defer hw.Close()
	insns := []string{"add RW:GPR:64, R:GPR:64", "imul RW:GPR:64, R:GPR:64"}
	cfg := cegis.DefaultConfig()
	cfg.Epsilon, cfg.Validation = 0.1, 10
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	res, err := cegis.Infer(ctx, hw, insns, 4, cfg)
	var nm *cegis.NoMappingError
	switch {
	case err == nil:
		pred, perr := oracle.FromMapping(res.Mapping).Predict(ctx, measurementsOf(res.Measurements))
		if perr != nil {
			t.Fatal(perr)
		}
		for i, m := range res.Measurements.Measurements {
			if d := math.Abs(pred[i] - m.Cycles); d > cfg.Epsilon*float64(m.Experiment.Len())+1e-6 {
				t.Errorf("%v measured %.3f cycles, the result predicts %.3f", m.Experiment, m.Cycles, pred[i])
			}
		}
		t.Logf("%v\n%v", res.Mapping, res)
	case errors.As(err, &nm):
		if len(nm.Conflicting) == 0 {
			t.Errorf("no conflicting measurements named: %v", err)
		}
		for _, m := range nm.Conflicting {
			if !(m.Cycles > 0) || m.Experiment.Len() == 0 {
				t.Errorf("conflicting measurement %v", m)
			}
		}
		t.Logf("no mapping (the machine's noise or µops beyond a two-level mapping): %v", err)
	default:
		t.Fatalf("live run: %v", err)
	}
}

func measurementsOf(set *portmap.ExperimentSet) []portmap.Experiment {
	var out []portmap.Experiment
	for _, m := range set.Measurements {
		out = append(out, m.Experiment)
	}
	return out
}
