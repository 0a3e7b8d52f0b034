package main

import "fmt"

// cpuUsage documents the -cpu flag of the commands that measure.
const cpuUsage = `CPU(s) to pin the benchmark workers to: one ("0") or a comma-separated list ("0,1"); with several, batches are split between them and timed at once (checked first: CPUs that slow each other down by more than 25 % — SMT siblings — are refused; keep other work off them)`

// flagError names the flag whose value err is about.
func flagError(name string, err error) error { return fmt.Errorf("-%s: %w", name, err) }
