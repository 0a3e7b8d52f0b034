package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/portlab/portlab/lib/measure"
)

// cpuUsage documents the -cpu flag of the commands that measure.
const cpuUsage = `CPU(s) to pin the benchmark workers to: one ("0") or a comma-separated list ("0,1"); with several, batches are split between them and timed at once (checked first: CPUs that slow each other down by more than 25 % — SMT siblings — are refused; keep other work off them)`

// defaultCPU is the -cpu default: the CPU PORTLAB_CPU names (see
// measure.DefaultCPU), else "0". A malformed PORTLAB_CPU is an error of
// the commands that measure (checkDefaultCPU).
func defaultCPU() string {
	cpu, _ := measure.DefaultCPU()
	return strconv.Itoa(cpu)
}

// checkDefaultCPU refuses a malformed PORTLAB_CPU when -cpu was not given.
func checkDefaultCPU(fs *flag.FlagSet) error {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "cpu" })
	if _, err := measure.DefaultCPU(); err != nil && !given {
		return fmt.Errorf("%w (or give -cpu)", err)
	}
	return nil
}

// flagError names the flag whose value err is about.
func flagError(name string, err error) error { return fmt.Errorf("-%s: %w", name, err) }
