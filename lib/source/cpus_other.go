//go:build !linux

package source

import "runtime"

// availableCPUs returns the CPUs 0 to runtime.NumCPU()-1.
func availableCPUs() []int {
	cpus := make([]int, runtime.NumCPU())
	for i := range cpus {
		cpus[i] = i
	}
	return cpus
}
