//go:build race

package kernel

// raceDetector is set when the tests run with -race. Interrupting a cell
// lets the interpreter's evaluation goroutine unwind after EvalWithContext
// has returned (yaegi's design); the session waits for it, but without a
// synchronisation the race detector can see, so interrupt tests skip.
const raceDetector = true
