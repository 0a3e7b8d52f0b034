package z3

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// start starts a session or skips the test when z3 is missing outside CI.
func start(t *testing.T, opts Options) *Session {
	t.Helper()
	s, err := Start(t.Context(), opts)
	if errors.Is(err, ErrNotInstalled) && os.Getenv("CI") == "" {
		t.Skip("z3 is not installed (apt-get install z3); CI installs it")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// hard returns a formula z3 takes many seconds to refute: 12 pigeons in
// 11 holes.
func hard() []string {
	const n = 11
	var cmds []string
	for i := 0; i <= n; i++ {
		var row []string
		for j := 0; j < n; j++ {
			cmds = append(cmds, fmt.Sprintf("(declare-const p%d_%d Bool)", i, j))
			row = append(row, fmt.Sprintf("p%d_%d", i, j))
		}
		cmds = append(cmds, "(assert (or "+strings.Join(row, " ")+"))")
	}
	for j := 0; j < n; j++ {
		for a := 0; a <= n; a++ {
			for b := a + 1; b <= n; b++ {
				cmds = append(cmds, fmt.Sprintf("(assert (or (not p%d_%d) (not p%d_%d)))", a, j, b, j))
			}
		}
	}
	return cmds
}

func TestCheckPushPopValues(t *testing.T) {
	ctx := t.Context()
	s := start(t, Options{})
	if err := s.Assert(ctx, "(declare-const x Int)", "(declare-const b Bool)", "(declare-const r Real)",
		"(assert (> x 2))", "(assert (= (* 3 r) 1))"); err != nil {
		t.Fatal(err)
	}
	if err := s.Push(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Assert(ctx, "(assert (< x 3))"); err != nil {
		t.Fatal(err)
	}
	if st, err := s.Check(ctx); st != Unsat || err != nil {
		t.Fatalf("x > 2 ∧ x < 3: %v, %v; want unsat", st, err)
	}
	if err := s.Pop(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Assert(ctx, "(assert (< x 4))", "(assert b)"); err != nil {
		t.Fatal(err)
	}
	if st, err := s.Check(ctx); st != Sat || err != nil {
		t.Fatalf("after pop: %v, %v; want sat", st, err)
	}
	vals, err := s.Values(ctx, "x", "b", "r", "(- x 5)")
	if err != nil {
		t.Fatal(err)
	}
	x, _ := ParseRat(vals[0])
	b, _ := ParseBool(vals[1])
	r, _ := ParseRat(vals[2])
	neg, _ := ParseRat(vals[3])
	if x.String() != "3/1" || !b || r.String() != "1/3" || neg.String() != "-2/1" {
		t.Errorf("values %q, want x=3, b=true, r=1/3, x-5=-2", vals)
	}
	if st, err := s.Check(ctx, "(not b)"); st != Unsat || err != nil {
		t.Errorf("assuming ¬b: %v, %v", st, err)
	}
	if err := s.Pop(ctx); err == nil {
		t.Error("Pop without Push succeeded")
	}
}

func TestErrorNamesCommand(t *testing.T) {
	ctx := t.Context()
	s := start(t, Options{})
	err := s.Assert(ctx, "(assert (> undeclared 1))")
	var zerr *Error
	if !errors.As(err, &zerr) || !strings.Contains(err.Error(), "undeclared") {
		t.Fatalf("undeclared constant: %v", err)
	}
	// The session goes on with what was asserted before.
	if err := s.Assert(ctx, "(declare-const y Int)", "(assert (= y 7))"); err != nil {
		t.Fatal(err)
	}
	if st, err := s.Check(ctx); st != Sat || err != nil {
		t.Fatalf("%v, %v", st, err)
	}
}

func TestTimeoutAndCancelKeepSession(t *testing.T) {
	ctx := t.Context()
	s := start(t, Options{Timeout: 200 * time.Millisecond})
	if err := s.Assert(ctx, "(declare-const k Int)", "(assert (= k 5))"); err != nil {
		t.Fatal(err)
	}
	if err := s.Push(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Assert(ctx, hard()...); err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	if st, err := s.Check(ctx); !errors.Is(err, ErrTimeout) {
		t.Fatalf("pigeons with a 200 ms limit: %v, %v; want ErrTimeout", st, err)
	}
	if d := time.Since(begin); d > 5*time.Second {
		t.Errorf("the time limit took %v", d)
	}
	cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	s.opts.Timeout = 0
	if _, err := s.Check(cctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("cancelled check: %v", err)
	}
	// The process was killed; the session restarts it with both scopes.
	if err := s.Pop(ctx); err != nil {
		t.Fatal(err)
	}
	if st, err := s.Check(ctx); st != Sat || err != nil {
		t.Fatalf("after the restart: %v, %v", st, err)
	}
	if v, err := s.Values(ctx, "k"); err != nil || v[0] != "5" {
		t.Errorf("k after the restart = %v, %v; want 5 (the base scope replayed)", v, err)
	}
}

func TestCrashIsReportedAndRecovered(t *testing.T) {
	ctx := t.Context()
	s := start(t, Options{})
	if err := s.Assert(ctx, "(declare-const k Int)", "(assert (> k 5))"); err != nil {
		t.Fatal(err)
	}
	s.proc.Process.Kill()
	if _, err := s.Check(ctx); !errors.Is(err, ErrCrashed) {
		t.Fatalf("check after the process was killed: %v; want ErrCrashed", err)
	}
	if err := s.Assert(ctx, "(assert (< k 7))"); err != nil {
		t.Fatal(err)
	}
	if st, err := s.Check(ctx); st != Sat || err != nil {
		t.Fatalf("after the crash: %v, %v", st, err)
	}
	if v, _ := s.Values(ctx, "k"); len(v) != 1 || v[0] != "6" {
		t.Errorf("k = %v, want 6", v)
	}
}

func TestMissingBinary(t *testing.T) {
	_, err := Start(t.Context(), Options{Path: "z3-no-such-binary"})
	if !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), "Debian package z3") || !strings.Contains(err.Error(), "conda package z3") {
		t.Errorf("missing binary: %v", err)
	}
	if _, err := exec.LookPath("z3"); err != nil && os.Getenv("CI") != "" {
		t.Error("CI must install z3")
	}
}

func TestParseRat(t *testing.T) {
	for in, want := range map[string]string{"3": "3/1", "(- 2)": "-2/1", "(/ 1.0 3.0)": "1/3", "(- (/ 3.0 4.0))": "-3/4", "0.25": "1/4"} {
		r, err := ParseRat(in)
		if err != nil || r.String() != want {
			t.Errorf("ParseRat(%q) = %v, %v; want %s", in, r, err, want)
		}
	}
	for _, bad := range []string{"true", "(/ 1 0)", "(+ 1", "x"} {
		if _, err := ParseRat(bad); err == nil {
			t.Errorf("ParseRat(%q) succeeded", bad)
		}
	}
}
