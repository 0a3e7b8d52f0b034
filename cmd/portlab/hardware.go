package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/portlab/portlab/lib/measure"
)

// cpuUsage documents the -cpu flag of the commands that measure.
const cpuUsage = `CPU(s) to pin the benchmark workers to: one ("0") or a comma-separated list ("0,1"); with several, batches are split between them and timed at once (checked first: CPUs that slow each other down by more than 25 % — SMT siblings — are refused; keep other work off them)`

// parseCPUs parses a -cpu value: CPU numbers separated by commas (-1 alone:
// a worker not pinned to any CPU).
func parseCPUs(arg string) ([]int, error) {
	var cpus []int
	for _, f := range strings.Split(arg, ",") {
		c, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || c < -1 {
			return nil, fmt.Errorf("-cpu %q: %q is not a CPU number", arg, f)
		}
		cpus = append(cpus, c)
	}
	return cpus, nil
}

// openHardware returns the hardware oracle on the CPUs of a -cpu value.
// With several CPUs it first measures how much they slow each other down
// and refuses CPUs that share a core.
func openHardware(ctx context.Context, cpuArg string, stderr io.Writer) (*measure.Hardware, error) {
	cpus, err := parseCPUs(cpuArg)
	if err != nil {
		return nil, err
	}
	hw, err := measure.NewHardwareOn(cpus)
	if err != nil {
		return nil, err
	}
	if len(cpus) == 1 {
		return hw, nil
	}
	slow, err := hw.Interference(ctx)
	if err != nil {
		hw.Close()
		return nil, err
	}
	if slow > measure.MaxInterference {
		hw.Close()
		return nil, fmt.Errorf("-cpu %s: timed at once, the CPUs slow each other down by %.0f %% (more than %.0f %%): they share a core (SMT siblings) or other work runs on them; measure on one CPU",
			cpuArg, 100*slow, 100*measure.MaxInterference)
	}
	fmt.Fprintf(stderr, "measuring on CPUs %s (timed at once, they slow each other down by %.1f %%)\n", cpuArg, 100*slow)
	return hw, nil
}
