package measure

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// TestInfrastructureFailureNotJournaled: a worker that cannot be pinned to
// its CPU (one this machine does not have) fails the whole run with an
// infrastructure error, journals nothing, and a rerun on a valid CPU
// measures every experiment (none "from earlier runs", none failed).
func TestInfrastructureFailureNotJournaled(t *testing.T) {
	bad, err := NewHardware(1000) // sched_setaffinity: no such CPU
	if err != nil {
		t.Fatal(err)
	}
	defer bad.Close()
	bad.Passes, bad.MaxPasses = 1, 1
	path := filepath.Join(t.TempDir(), "c.jsonl")
	exps := []portmap.Experiment{mustExp(t, "add RW:GPR:64, R:GPR:64"), mustExp(t, "imul RW:GPR:64, R:GPR:64")}
	c := openCampaign(t, path, bad)
	res, err := c.Run(t.Context(), exps, nil)
	var ie *InfrastructureError
	if !errors.As(err, &ie) || !oracle.IsInfrastructure(err) || !strings.Contains(err.Error(), "sched_setaffinity") {
		t.Fatalf("run on CPU 1000: %v, want an infrastructure error naming sched_setaffinity", err)
	}
	if len(res.Failures) != 0 || res.Set.Len() != 0 {
		t.Errorf("run on CPU 1000: %d measured, failures %v", res.Set.Len(), res.Failures)
	}
	c.Close()
	if data, _ := os.ReadFile(path); len(data) != 0 {
		t.Fatalf("the campaign journaled infrastructure failures:\n%s", data)
	}
	good, err := NewHardware(testCPU(t))
	if err != nil {
		t.Fatal(err)
	}
	defer good.Close()
	good.Passes, good.MaxPasses = 1, 1
	c = openCampaign(t, path, good)
	res, err = c.Run(t.Context(), exps, nil)
	if err != nil || res.Set.Len() != 2 || res.Resumed != 0 || len(res.Failures) != 0 {
		t.Fatalf("rerun on a valid CPU: %v: %d measured, %d resumed, failures %v", err, res.Set.Len(), res.Resumed, res.Failures)
	}
}

// TestMissingAssemblerIsInfrastructure: without GNU as on PATH, preparing
// fails with an infrastructure error that says what to install.
func TestMissingAssemblerIsInfrastructure(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := Assemble(t.Context(), []Kernel{{Name: "k", Body: []string{"add rax, rbx"}}}, NoVector)
	if !oracle.IsInfrastructure(err) || !strings.Contains(err.Error(), "binutils") {
		t.Errorf("Assemble without as: %v", err)
	}
}

func mustExp(t *testing.T, insns ...string) portmap.Experiment {
	t.Helper()
	counts := map[string]int{}
	for _, i := range insns {
		counts[i]++
	}
	e, err := portmap.ExperimentOf(counts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// testCPU is the CPU the tests measure on: PORTLAB_CPU, or 0.
func testCPU(t *testing.T) int {
	t.Helper()
	cpu, err := DefaultCPU()
	if err != nil {
		t.Fatal(err)
	}
	return cpu
}

func TestDefaultCPU(t *testing.T) {
	t.Setenv(EnvCPU, "")
	if c, err := DefaultCPU(); c != 0 || err != nil {
		t.Errorf("unset: %d, %v", c, err)
	}
	t.Setenv(EnvCPU, "1")
	if c, err := DefaultCPU(); c != 1 || err != nil {
		t.Errorf("1: %d, %v", c, err)
	}
	t.Setenv(EnvCPU, "one")
	if _, err := DefaultCPU(); err == nil || !strings.Contains(err.Error(), `PORTLAB_CPU="one"`) {
		t.Errorf("one: %v", err)
	}
}

// TestCampaignRemeasuresJournaledInfrastructureFailures: a file written
// by an earlier version holds infrastructure failures as results (a
// worker pinned to a CPU that is not there); they are measured again, not
// answered as failed.
func TestCampaignRemeasuresJournaledInfrastructureFailures(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.jsonl")
	e := mustExp(t, "add")
	rec := portmap.FailedRecord(e, `measure: kernel "{add ↦ 1}": sched_setaffinity(cpu 7): invalid argument`, false, time.Now())
	line, err := rec.MarshalLine()
	if err != nil {
		t.Fatal(err)
	}
	other := mustExp(t, "mul")
	kept, _ := portmap.FailedRecord(other, "cannot measure mul", false, time.Now()).MarshalLine()
	os.WriteFile(path, append(line, kept...), 0o644)
	o := &countingOracle{Oracle: oracle.Simulate(toyMapping(), 0, 1)}
	c := openCampaign(t, path, o)
	res, err := c.Run(t.Context(), []portmap.Experiment{e, other}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Set.Len() != 1 || o.calls.Load() != 1 || res.Resumed != 1 || len(res.Failures) != 1 {
		t.Errorf("measured %d (oracle asked %d times), resumed %d, failures %v; want the add measured again, the mul failure kept",
			res.Set.Len(), o.calls.Load(), res.Resumed, res.Failures)
	}
}
