package measure

// callCode runs the generated function at fn with the memory base mem and
// the iteration count iters and returns what it returns (TSC ticks).
//
//go:noescape
func callCode(fn, mem uintptr, iters uint64) uint64

func faultHandler()

// faultHandlerAddr returns the entry of faultHandler itself (not a Go
// wrapper).
func faultHandlerAddr() uintptr
