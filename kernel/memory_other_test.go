//go:build !linux

package kernel

// totalMemoryForTest returns 0: the tests that need memory skip.
func totalMemoryForTest() uint64 { return 0 }
