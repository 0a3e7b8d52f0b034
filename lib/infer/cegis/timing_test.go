package cegis

import (
	"fmt"
	"os"
	"context"
	"time"
	"testing"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

func TestTiming(t *testing.T) {
	if os.Getenv("CEGIS_TIMING") == "" {
		t.Skip()
	}
	var ports, n int
	fmt.Sscan(os.Getenv("CEGIS_TIMING"), &ports, &n)
	truth := randomTwoLevel(ports, n, 1)
	cfg := DefaultConfig()
	if os.Getenv("THESIS") != "" {
		cfg = ThesisConfig()
	}
	cfg.Pairs = os.Getenv("PAIRS") != ""
	cfg.NoSymmetryBreaking = os.Getenv("NOSYM") != ""
	if os.Getenv("EPS") != "" {
		fmt.Sscan(os.Getenv("EPS"), &cfg.Epsilon)
	}
	upperBySchedule = os.Getenv("SUBSETS") == ""
	cfg.Progress = func(it Iteration) { fmt.Fprintln(os.Stderr, it) }
	ctx, cancel := context.WithTimeout(t.Context(), 150*time.Second)
	defer cancel()
	res, err := Infer(ctx, oracle.Simulate(truth, 0, 1), truth.Instructions(), ports, cfg)
	if res == nil {
		t.Fatal(err)
	}
	_, ok := portmap.EquivalentByRenaming(res.Mapping, truth)
	t.Log(res, ok)
}
