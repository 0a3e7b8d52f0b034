package measure

// callCode runs the generated function at fn with the memory base mem and
// the iteration count iters and returns what it returns (TSC ticks).
//
//go:noescape
func callCode(fn, mem uintptr, iters uint64) uint64

// faultHandler is the worker's signal handler, written in assembly and
// installed by its address (faultHandlerAddr); Go never calls it.
//
//lint:ignore U1000 used from assembly
func faultHandler()

// faultHandlerAddr returns the entry of faultHandler itself (not a Go
// wrapper).
func faultHandlerAddr() uintptr
