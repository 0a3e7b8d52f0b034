package source

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/portlab/portlab/lib/measure"
)

// cpuForms are the valid forms of a CPU list, for error messages.
const cpuForms = `want one CPU number ("0"), a comma-separated list ("0,1"), "affinity" (every CPU this process may run on) or -1 alone (a worker not pinned)`

// ParseCPUs checks a list of CPUs to measure on: CPU numbers separated by
// commas, each listed once and each one this process may run on (its
// affinity), "affinity" for all of those (the CPUs a batch scheduler such
// as Slurm gave the job: it sets the affinity of the task), or -1 alone
// for a worker not pinned to any CPU. The errors name the list, the CPU
// and the valid forms.
func ParseCPUs(spec string) ([]int, error) {
	if strings.TrimSpace(spec) == "affinity" {
		avail := availableCPUs()
		if len(avail) == 0 {
			return nil, fmt.Errorf("CPUs %q: this system does not say which CPUs portlab may run on; name them", spec)
		}
		return avail, nil
	}
	var cpus []int
	for _, f := range strings.Split(spec, ",") {
		c, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || c < -1 {
			return nil, fmt.Errorf("CPUs %q: %q is not a CPU number (%s)", spec, f, cpuForms)
		}
		if slices.Contains(cpus, c) {
			return nil, fmt.Errorf("CPUs %q: CPU %d listed twice", spec, c)
		}
		cpus = append(cpus, c)
	}
	if len(cpus) > 1 && slices.Contains(cpus, -1) {
		return nil, fmt.Errorf("CPUs %q: CPU -1: not a CPU number (-1, a worker not pinned, only alone)", spec)
	}
	avail := availableCPUs()
	for _, c := range cpus {
		if c >= 0 && len(avail) > 0 && !slices.Contains(avail, c) {
			return nil, fmt.Errorf("CPUs %q: CPU %d is not one this machine lets portlab run on (%s)", spec, c, cpuRanges(avail))
		}
	}
	return cpus, nil
}

// cpuRanges describes a sorted CPU list in ranges: "CPUs 0-3, 6".
func cpuRanges(cpus []int) string {
	var parts []string
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", cpus[i], cpus[j]))
		} else {
			parts = append(parts, strconv.Itoa(cpus[i]))
		}
		i = j + 1
	}
	if len(cpus) == 1 {
		return "CPU " + parts[0]
	}
	return "CPUs " + strings.Join(parts, ", ")
}

// OpenHardware returns the hardware oracle with a worker on each of cpus
// (see ParseCPUs). With several CPUs it first measures how much they slow
// each other down (measure.Hardware.Interference) and refuses CPUs that
// slow each other down by more than measure.MaxInterference — they share
// a core (SMT siblings) or other work runs on them; otherwise it writes
// the slow-down to notes (when not nil).
func OpenHardware(ctx context.Context, cpus []int, notes io.Writer) (*measure.Hardware, error) {
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
	list := joinInts(cpus)
	if slow > measure.MaxInterference {
		hw.Close()
		return nil, fmt.Errorf("CPUs %s: timed at once, the CPUs slow each other down by %.0f %% (more than %.0f %%): they share a core (SMT siblings) or other work runs on them; measure on one CPU",
			list, 100*slow, 100*measure.MaxInterference)
	}
	if notes != nil {
		fmt.Fprintf(notes, "measuring on CPUs %s (timed at once, they slow each other down by %.1f %%)\n", list, 100*slow)
	}
	return hw, nil
}

// joinInts returns "0,1" for []int{0, 1}.
func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}
