package session

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// TestCaptureCompiledOutput checks that what compiled code writes to the
// process's file descriptors 1 and 2 reaches the cell, in order with the
// interpreted output, when the session captures standard output (as the
// kernel's does).
func TestCaptureCompiledOutput(t *testing.T) {
	s, err := New(Options{CaptureStdio: true})
	if err != nil {
		t.Fatal(err)
	}
	// Compiled code that prints to the process's standard output and error,
	// as library code does.
	err = s.interp.Use(interp.Exports{"capturetest/capturetest": {
		"Stdout": reflect.ValueOf(func(text string) { fmt.Fprint(os.Stdout, text) }),
		"Stderr": reflect.ValueOf(func(text string) { fmt.Fprint(os.Stderr, text) }),
	}})
	if err != nil {
		t.Fatal(err)
	}
	// Report only after Close: until then the test's own output is captured.
	rec := &recorder{}
	r := s.Execute(context.Background(), `import "capturetest"
fmt.Println("interpreted 1")
capturetest.Stdout("compiled to fd 1\n")
fmt.Println("interpreted 2")
capturetest.Stderr("compiled to fd 2\n")`, rec)
	rec2 := &recorder{}
	r2 := s.Execute(context.Background(), "var m = map[int]fmt.Stringer{}\nvar v, ok = m[1]", rec2)
	s.Close()
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if got, want := rec.text("stdout"), "interpreted 1\ncompiled to fd 1\ninterpreted 2\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
	if got := rec.text("stderr"); got != "compiled to fd 2\n" {
		t.Errorf("stderr %q", got)
	}
	// The interpreter's own panic noise on fd 2 is filtered too.
	if r2.Err == nil || !strings.Contains(r2.Err.Value, "comma-ok form") {
		t.Errorf("comma-ok var declaration: %+v", r2.Err)
	}
	if got := rec2.text("stderr"); got != "" {
		t.Errorf("noise on stderr: %q", got)
	}
}
