package kernel

import "syscall"

// totalMemoryForTest returns the machine's physical memory in bytes.
func totalMemoryForTest() uint64 {
	var info syscall.Sysinfo_t
	if err := syscall.Sysinfo(&info); err != nil {
		return 0
	}
	return uint64(info.Totalram) * uint64(info.Unit)
}
