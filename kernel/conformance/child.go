package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/portlab/portlab/kernel/display"
	"github.com/portlab/portlab/kernel/session"
)

// childEnv names the program a child process runs in a session; the test
// binary is the child (TestMain calls Child).
const childEnv = "PORTLAB_CONFORMANCE_CHILD"

// status is what a child reports on file descriptor 3 when its cells end.
type status struct {
	Cell     string `json:"cell"`      // "define" or "main": the cell that failed
	ErrName  string `json:"err_name"`  // the session error's name, "" when both cells ran
	ErrValue string `json:"err_value"` // its message
	Output   bool   `json:"output"`    // whether the cells wrote anything before the error
}

// childOutput writes what cells print to the child's standard output, in
// order (stdout and stderr are one stream, as in the test directory's
// runner, which compares their combination with the .out file).
type childOutput struct{ wrote *bool }

func (o childOutput) Stream(name, text string) {
	if text != "" {
		*o.wrote = true
	}
	os.Stdout.WriteString(text)
}
func (childOutput) Display(b display.Bundle, id string, update bool) {
	fmt.Fprintln(os.Stdout, b.PlainText())
}
func (childOutput) Input(string, bool) (string, error) { return "", fmt.Errorf("no input") }
func (childOutput) Clear(bool)                         {}

// Child runs the program named by the environment in a session without a
// host — the program's declarations as one cell, then a call of its main
// (renamed, see Source) — and
// reports the outcome on file descriptor 3. It returns whether it is a
// child at all.
func Child() bool {
	path := os.Getenv(childEnv)
	if path == "" {
		return false
	}
	report := os.NewFile(3, "status")
	st := runChild(path)
	json.NewEncoder(report).Encode(st)
	report.Close()
	return true
}

func runChild(path string) status {
	src, err := os.ReadFile(path)
	if err != nil {
		return status{Cell: "define", ErrName: "HarnessError", ErrValue: err.Error()}
	}
	cell, call, err := Source(src)
	if err != nil {
		return status{Cell: "define", ErrName: "HarnessError", ErrValue: err.Error()}
	}
	s, err := session.New(session.Options{})
	if err != nil {
		return status{Cell: "define", ErrName: "HarnessError", ErrValue: err.Error()}
	}
	defer s.Close()
	var wrote bool
	out := childOutput{&wrote}
	ctx := context.Background()
	if r := s.Execute(ctx, cell, out); r.Err != nil {
		return status{Cell: "define", ErrName: r.Err.Name, ErrValue: r.Err.Value, Output: wrote}
	}
	if r := s.Execute(ctx, call, out); r.Err != nil {
		return status{Cell: "main", ErrName: r.Err.Name, ErrValue: r.Err.Value, Output: wrote}
	}
	return status{Output: wrote}
}
