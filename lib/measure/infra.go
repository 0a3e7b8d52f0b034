package measure

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// InfrastructureError is a failure of the measuring machinery rather than
// a property of the experiment measured: the worker could not start, could
// not be pinned to its CPU (sched_setaffinity on a CPU that is not there),
// could not load code or open its counters, or the assembler is missing.
// Every other experiment would fail alike, so a campaign never journals it
// as a result (see Campaign) and oracle.MeasureAll stops with it
// (oracle.IsInfrastructure).
type InfrastructureError struct{ Err error }

func (e *InfrastructureError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *InfrastructureError) Unwrap() error { return e.Err }

// Infrastructure reports true (see oracle.IsInfrastructure).
func (e *InfrastructureError) Infrastructure() bool { return true }

// infra wraps a non-nil err as an InfrastructureError.
func infra(err error) error {
	if err == nil {
		return nil
	}
	return &InfrastructureError{Err: err}
}

// EnvCPU is the environment variable that chooses the CPU measurements
// run on when none is given (DefaultCPU): the tests of this package, the
// measurement notebooks and the -cpu default of portlab measure and
// portlab infer -measure read it, so that they can be kept off a CPU
// another job holds (PORTLAB_CPU=1 go test …).
const EnvCPU = "PORTLAB_CPU"

// DefaultCPU returns the CPU that EnvCPU names, or 0 when it is unset; an
// error names the variable when its value is not a CPU number.
func DefaultCPU() (int, error) {
	v := os.Getenv(EnvCPU)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("measure: %s=%q: want a CPU number (0, 1, …)", EnvCPU, v)
	}
	return n, nil
}
