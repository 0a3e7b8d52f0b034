package source

import "golang.org/x/sys/unix"

// availableCPUs returns the CPUs this process may run on (its affinity
// mask), in order; nil when that is unknown.
func availableCPUs() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil
	}
	var cpus []int
	for c := 0; c < 1024 && len(cpus) < set.Count(); c++ { // a CPUSet holds CPUs 0 to 1023
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus
}
