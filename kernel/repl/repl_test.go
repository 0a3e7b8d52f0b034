package repl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/term"
)

// TestMain lets the tests run the REPL itself: with PORTLAB_TEST_REPL=1
// the test binary runs Run on its standard input and output, with the
// history file and output folder of PORTLAB_TEST_REPL_HISTORY and
// PORTLAB_TEST_REPL_OUT, and a session without a host (the standard
// library and display).
func TestMain(m *testing.M) {
	if os.Getenv("PORTLAB_TEST_REPL") == "1" {
		err := Run(context.Background(), os.Stdin, os.Stdout, os.Stderr, Options{
			History: os.Getenv("PORTLAB_TEST_REPL_HISTORY"),
			OutDir:  os.Getenv("PORTLAB_TEST_REPL_OUT"),
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "repl:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// tmuxPane drives a program in a detached tmux session on a private
// server.
type tmuxPane struct {
	t      *testing.T
	socket string
}

func (p *tmuxPane) tmux(args ...string) string {
	p.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", p.socket}, args...)...).CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

func (p *tmuxPane) screen() string {
	out, _ := exec.Command("tmux", "-S", p.socket, "capture-pane", "-p", "-t", "repl").CombinedOutput()
	return string(out)
}

// typeLine types text and Enter.
func (p *tmuxPane) typeLine(text string) {
	p.t.Helper()
	p.tmux("send-keys", "-t", "repl", "-l", text)
	p.tmux("send-keys", "-t", "repl", "Enter")
}

// waitFor waits until the screen contains want.
func (p *tmuxPane) waitFor(want string) {
	p.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(p.screen(), want) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.t.Fatalf("the screen never showed %q:\n%s", want, p.screen())
}

func TestREPLInTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is missing (.ci/kernel.sh installs it)")
		}
		t.Skip("tmux is not installed")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	hist := filepath.Join(dir, "history")
	outDir := filepath.Join(dir, "out")
	p := &tmuxPane{t: t, socket: filepath.Join(dir, "tmux.sock")}
	cmd := fmt.Sprintf("env PORTLAB_TEST_REPL=1 PORTLAB_TEST_REPL_HISTORY=%q PORTLAB_TEST_REPL_OUT=%q %q; sleep 30", hist, outDir, exe)
	p.tmux("new-session", "-d", "-s", "repl", "-x", "120", "-y", "40", cmd)
	t.Cleanup(func() { exec.Command("tmux", "-S", p.socket, "kill-server").Run() })
	p.waitFor(">>>")

	// Multi-line input: the REPL asks for more lines while the cell is
	// incomplete.
	p.typeLine("func triple(x int) int {")
	p.waitFor("...")
	p.typeLine("return 3 * x")
	p.typeLine("}")
	p.typeLine("triple(14)")
	p.waitFor("] 42")

	// An error, after which the session goes on.
	p.typeLine(`panic("oops")`)
	p.waitFor("panic: oops")
	p.typeLine("v := []int{1, 2}")
	p.typeLine("len(v) + triple(1)")
	p.waitFor("] 5")

	// Printing, and an image saved to a file.
	p.typeLine(`fmt.Println("printed", len(v))`)
	p.waitFor("printed 2")
	p.typeLine(`display.SVG("<svg xmlns='http://www.w3.org/2000/svg'/>")`)
	svg := filepath.Join(outDir, "out-1.svg")
	p.waitFor("out-1.svg")
	if _, err := os.Stat(svg); err != nil {
		t.Errorf("the SVG was not saved: %v", err)
	}

	// Tab on an ambiguous prefix lists the candidates.
	p.tmux("send-keys", "-t", "repl", "-l", "strings.HasP")
	p.tmux("send-keys", "-t", "repl", "Tab")
	p.waitFor("strings.HasPrefix")
	p.tmux("send-keys", "-t", "repl", "C-u")
	p.tmux("send-keys", "-t", "repl", "-l", "strings.Has")
	p.tmux("send-keys", "-t", "repl", "Tab")
	p.waitFor("HasPrefix  HasSuffix")
	p.tmux("send-keys", "-t", "repl", "C-u")

	// Ctrl-D ends the REPL and saves the history.
	p.tmux("send-keys", "-t", "repl", "C-d")
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if data, err := os.ReadFile(hist); err == nil {
			if !strings.Contains(string(data), "triple(14)") {
				t.Errorf("history file lacks triple(14):\n%s", data)
			}
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no history file after Ctrl-D:\n%s", p.screen())
}

// TestRunPlainInput runs the REPL on input that is not a terminal: cells
// span lines while incomplete, values are numbered by execution count,
// %doc prints its page and the banner comes first.
func TestRunPlainInput(t *testing.T) {
	dir := t.TempDir()
	in := strings.NewReader("x := 6\nfunc f(n int) int {\nreturn n * 7\n}\nf(x)\n%doc display.Text\nundefinedName\n")
	var out, errOut strings.Builder
	err := Run(context.Background(), in, &out, &errOut, Options{Banner: "hello", OutDir: filepath.Join(dir, "out"), History: filepath.Join(dir, "h")})
	if err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"hello\n>>> ", "... ... ", "[3] 42\n", "func Text(s string) Bundle", "CompileError: 1:1: undefined: undefinedName"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if !strings.HasPrefix(got, "hello\n") {
		t.Errorf("the banner is not first:\n%s", got)
	}
}

// TestCancelEndsTheREPLDuringACell: the end of the context (SIGTERM in
// portlab repl) ends the REPL while a cell loops and stdin stays open.
func TestCancelEndsTheREPLDuringACell(t *testing.T) {
	dir := t.TempDir()
	in, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		errc <- Run(ctx, in, io.Discard, io.Discard, Options{OutDir: filepath.Join(dir, "out"), History: filepath.Join(dir, "h")})
	}()
	if _, err := io.WriteString(w, "for {}\n"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run returned %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return within 5 s of the end of its context")
	}
}

// TestCtrlCClearsTheLineAndKeepsTheSession types a line and Ctrl-C, a
// continuation line and Ctrl-C, at the terminal's line editor: each Ctrl-C
// drops what was typed, and the next cell is read; only Ctrl-D ends.
func TestCtrlCClearsTheLineAndKeepsTheSession(t *testing.T) {
	in, w := io.Pipe()
	keys := &keyWatch{r: in}
	var screen bytes.Buffer
	rw := struct {
		io.Reader
		io.Writer
	}{keys, &screen}
	tl := &termLines{term: term.NewTerminal(rw, ">>> "), keys: keys, rw: rw}
	go func() {
		for _, s := range []string{"x := 1", "\x03", "for {\r", "\x03", "y := 2\r", "\x04"} {
			w.Write([]byte(s))
		}
		w.Close()
	}()
	cell, ok := readCell(tl)
	if !ok || cell != "y := 2" {
		t.Fatalf("after Ctrl-C twice: cell %q, %v", cell, ok)
	}
	if _, ok := readCell(tl); ok {
		t.Errorf("Ctrl-D did not end the input")
	}
}
