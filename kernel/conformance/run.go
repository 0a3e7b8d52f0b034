package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Class is the outcome of a program in a session, compared with Go.
type Class string

const (
	Same          Class = "same"           // the session printed what Go prints
	Refusal       Class = "refusal"        // a compile or syntax error before any output
	Stopped       Class = "stopped"        // an InterpreterError after output that matched Go's so far
	Wrong         Class = "wrong"          // ran, but printed something else, or panicked where Go did not
	Death         Class = "death"          // the session's process died (crash, signal, os.Exit, memory guard)
	Hang          Class = "hang"           // no result within the timeout
	NotImportable Class = "not-importable" // imports a package a session does not have
	Skipped       Class = "skipped"        // a rule keeps it from running, or the compiled program fails here
)

// Classes lists the classes in the order of the tables.
var Classes = []Class{Same, Refusal, Stopped, Wrong, Death, Hang, NotImportable, Skipped}

// rank orders the classes a program that runs can have: a higher rank is
// worse. Classes that are not run rank 0.
func rank(c Class) int {
	switch c {
	case Same:
		return 0
	case Refusal, Stopped:
		return 1
	case Wrong, Death, Hang:
		return 2
	}
	return 0
}

// Result is one row of the table.
type Result struct {
	Name   string
	Class  Class
	Reason string        // one line: the first differing line, the refusal, the signal, the rule
	Time   time.Duration // of the session's run
}

// Config are the limits of a run.
type Config struct {
	Timeout time.Duration // per program and per run (compiled and in the session)
	// SlowTimeout, when longer than Timeout, is the timeout of a second
	// run in the session of a program whose first run timed out: a program
	// the interpreter runs slowly is then classified by what it prints, and
	// only one with no result within SlowTimeout is a hang.
	SlowTimeout time.Duration
	MemLimit    int64  // resident bytes at which the session's process is killed
	Workers     int    // programs run at once
	Child       string // the executable that runs a program in a session (the test binary)
	Go          string // the go command
	TmpDir      string // where compiled programs are built
}

// Run classifies programs, calling progress (if not nil) after each.
func Run(ctx context.Context, cfg Config, progs []Program, progress func(done int, r Result)) []Result {
	results := make([]Result, len(progs))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < max(cfg.Workers, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				r := Classify(ctx, cfg, progs[i])
				results[i] = r
				mu.Lock()
				done++
				if progress != nil {
					progress(done, r)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range progs {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return results
}

// Classify runs one program compiled (unless its .out file says what it
// prints) and in a session, and compares.
func Classify(ctx context.Context, cfg Config, p Program) Result {
	r := Result{Name: p.Name}
	switch {
	case p.Skip != "":
		r.Class, r.Reason = Skipped, p.Skip
		return r
	case len(p.Missing) > 0:
		r.Class, r.Reason = NotImportable, strings.Join(p.Missing, " ")
		return r
	}
	want := p.Golden
	var ref time.Duration
	if want == nil {
		var why string
		want, ref, why = reference(ctx, cfg, p)
		if why != "" {
			r.Class, r.Reason = Skipped, "reference: "+why
			return r
		}
	}
	start := time.Now()
	got := runProc(ctx, cfg, exec.Command(cfg.Child), p, true)
	r.Time = time.Since(start)
	r.Class, r.Reason = compare(got, want)
	timeout := cfg.Timeout
	if r.Class == Hang && cfg.SlowTimeout > cfg.Timeout && ctx.Err() == nil {
		// Slow or stuck: again, with the longer timeout.
		long := cfg
		long.Timeout = cfg.SlowTimeout
		start = time.Now()
		got = runProc(ctx, long, exec.Command(cfg.Child), p, true)
		r.Time = time.Since(start)
		r.Class, r.Reason = compare(got, want)
		timeout = cfg.SlowTimeout
		if r.Class != Hang {
			slow := fmt.Sprintf("slow: no result within %s, a result in %s on a second run", cfg.Timeout, r.Time.Round(time.Second))
			if ref > 0 {
				slow += fmt.Sprintf(" (compiled: %s)", ref.Round(time.Millisecond))
			}
			if r.Reason == "" {
				r.Reason = slow
			} else {
				r.Reason = slow + "; " + r.Reason
			}
		}
	}
	if r.Class == Hang {
		r.Reason = fmt.Sprintf("no result within %s", timeout)
		if ref > 0 {
			r.Reason += fmt.Sprintf(" (compiled: %s)", ref.Round(time.Millisecond))
		}
		r.Reason += tail(got.out)
		if why, ok := Slow[p.Name]; ok {
			r.Reason += "; slow, not stuck: " + why
		}
	}
	return r
}

// reference builds and runs the program with the go command; it returns
// the combined output, or why there is none.
func reference(ctx context.Context, cfg Config, p Program) ([]byte, time.Duration, string) {
	dir, err := os.MkdirTemp(cfg.TmpDir, "prog")
	if err != nil {
		return nil, 0, err.Error()
	}
	defer os.RemoveAll(dir)
	exe := filepath.Join(dir, "prog")
	bctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	build := exec.CommandContext(bctx, cfg.Go, "build", "-o", exe, p.Path)
	build.Dir = dir
	build.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=", "GO111MODULE=off", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return nil, 0, "build failed: " + firstLine(string(out)+err.Error())
	}
	start := time.Now()
	got := runProc(ctx, cfg, exec.Command(exe), p, false)
	took := time.Since(start)
	switch {
	case got.timedOut:
		return nil, 0, fmt.Sprintf("the compiled program ran longer than %s", cfg.Timeout)
	case got.exit != 0 || got.signal != "":
		return nil, 0, "the compiled program failed: " + got.describe()
	}
	return got.out, took, ""
}

// proc is what a process did.
type proc struct {
	out      []byte
	exit     int
	signal   string
	timedOut bool
	memory   bool // killed by the memory guard
	status   *status
}

func (p proc) describe() string {
	if p.signal != "" {
		return "signal " + p.signal
	}
	return "exit status " + strconv.Itoa(p.exit)
}

// capWriter keeps the first max bytes written to it.
type capWriter struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (w *capWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if room := w.max - w.buf.Len(); room > 0 {
		w.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// runProc runs cmd in the program's directory with the timeout, in its own
// process group; inSession makes it a session child (the program in the
// environment, the status pipe as fd 3, the memory guard).
func runProc(ctx context.Context, cfg Config, cmd *exec.Cmd, p Program, inSession bool) proc {
	var res proc
	out := &capWriter{max: 8 << 20}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.Dir = filepath.Dir(p.Path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Env = os.Environ()
	var statusR *os.File
	if inSession {
		r, w, err := os.Pipe()
		if err != nil {
			res.exit, res.out = -1, []byte(err.Error())
			return res
		}
		defer r.Close()
		statusR = r
		cmd.ExtraFiles = []*os.File{w}
		cmd.Env = append(cmd.Env, childEnv+"="+p.Path)
		defer w.Close()
	}
	if err := cmd.Start(); err != nil {
		res.exit, res.out = -1, []byte(err.Error())
		return res
	}
	var statusData []byte
	statusDone := make(chan struct{})
	if inSession {
		cmd.ExtraFiles[0].Close()
		go func() {
			statusData, _ = io.ReadAll(statusR)
			close(statusDone)
		}()
	} else {
		close(statusDone)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	timer := time.NewTimer(cfg.Timeout)
	defer timer.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	kill := func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var err error
wait:
	for {
		select {
		case err = <-waited:
			break wait
		case <-timer.C:
			res.timedOut = true
			kill()
		case <-ctx.Done():
			res.timedOut = true
			kill()
		case <-tick.C:
			if inSession && cfg.MemLimit > 0 && rss(cmd.Process.Pid) > cfg.MemLimit {
				res.memory = true
				kill()
			}
		}
	}
	// Children the program started may hold the pipes; end the group.
	kill()
	select {
	case <-statusDone:
	case <-time.After(time.Second):
	}
	res.out = out.buf.Bytes()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.signal = ws.Signal().String()
		} else {
			res.exit = ee.ExitCode()
		}
	} else if err != nil {
		res.exit = -1
	}
	if len(statusData) > 0 {
		var st status
		if json.Unmarshal(statusData, &st) == nil {
			res.status = &st
		}
	}
	return res
}

// rss returns the resident memory of a process in bytes, 0 if unknown.
func rss(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(v)
			if len(f) > 0 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}

// compare classifies the session's run against the output Go gives.
func compare(got proc, want []byte) (Class, string) {
	switch {
	case got.memory:
		return Death, "memory guard: resident memory over the limit"
	case got.timedOut:
		return Hang, "no result within the timeout" + tail(got.out)
	}
	st := got.status
	if st == nil {
		if got.signal == "" && got.exit == 0 && bytes.Equal(got.out, want) {
			return Same, "ended by os.Exit(0)"
		}
		return Death, got.describe() + ": " + crash(got.out)
	}
	switch {
	case refused(st):
		if !st.Output {
			return Refusal, st.ErrName + ": " + firstLine(st.ErrValue)
		}
		return Wrong, "output, then " + st.ErrName + ": " + firstLine(st.ErrValue)
	case st.ErrName == "Panic" && (st.ErrValue == "os.Exit(0)" || strings.HasPrefix(st.ErrValue, goExit0+" (")) && bytes.Equal(got.out, want):
		return Same, "os.Exit(0): the session ends the cell with an error"
	case st.ErrName == "" && goExitedWith(got.out, want):
		// A goroutine called os.Exit(0) after the cells had returned: Go
		// ends the program there, the session says so and goes on.
		return Same, "os.Exit(0) in a goroutine after main returned: the session reports it"
	case st.ErrName == "InterpreterError" && bytes.HasPrefix(want, got.out):
		return Stopped, firstLine(st.ErrValue)
	case st.ErrName != "":
		d := diff(got.out, want)
		if bytes.HasPrefix(want, got.out) {
			d = "output matches up to it"
		}
		return Wrong, st.ErrName + " in " + st.Cell + ": " + firstLine(st.ErrValue) + " (" + d + ")"
	}
	if bytes.Equal(got.out, want) {
		return Same, ""
	}
	return Wrong, diff(got.out, want)
}

// goExit0 begins the session's notice of a goroutine that called
// os.Exit(0), which the session turns into a panic of that goroutine.
const goExit0 = "panic in a goroutine: os.Exit(0)"

// goExitedWith reports whether out is want followed by the session's
// notice that a goroutine called os.Exit(0) after the cells returned.
func goExitedWith(out, want []byte) bool {
	rest, ok := bytes.CutPrefix(out, want)
	return ok && bytes.HasPrefix(rest, []byte(goExit0+" (recovered by the kernel")) && (len(want) == 0 || want[len(want)-1] == '\n')
}

// refused reports whether the session's error is a refusal to compile:
// a compile or syntax error, or a panic of the interpreter's compiler
// (yaegi's "CFG pre-order/post-order panic", or a message with a position)
// in the cell that defines the program.
func refused(st *status) bool {
	switch st.ErrName {
	case "CompileError", "SyntaxError":
		return true
	case "Panic":
		return st.Cell == "define" && (strings.Contains(st.ErrValue, "CFG ") || compilePos.MatchString(st.ErrValue))
	}
	return false
}

// compilePos matches the position the interpreter's compiler puts before
// its messages ("55:24: constant … overflows int64"); a panic while the
// defining cell runs (an init function) has none.
var compilePos = regexp.MustCompile(`^\d+:\d+: `)

// diff names the first line where got and want differ.
func diff(got, want []byte) string {
	g := strings.SplitAfter(string(got), "\n")
	w := strings.SplitAfter(string(want), "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d: got %s, want %s", i+1, clip(gl), clip(wl))
		}
	}
	return "same lines"
}

func clip(s string) string {
	if len(s) > 70 {
		s = s[:70] + "…"
	}
	return strconv.Quote(s)
}

// crash picks the line that says why a process died.
func crash(out []byte) string {
	lines := strings.Split(string(out), "\n")
	for _, prefix := range []string{"fatal error:", "panic:", "runtime:", "SIG", "unexpected signal"} {
		for _, l := range lines {
			if strings.HasPrefix(strings.TrimSpace(l), prefix) {
				return firstLine(l)
			}
		}
	}
	if len(bytes.TrimSpace(out)) == 0 {
		return "no output"
	}
	return "no crash message (the program's os.Exit?)" + tail(out)
}

func tail(out []byte) string {
	s := strings.TrimSpace(string(out))
	if s == "" {
		return ""
	}
	if i := strings.LastIndex(s, "\n"); i >= 0 {
		s = s[i+1:]
	}
	return "; last line " + clip(s)
}

// firstLine returns the first line of s, at most 160 bytes, with tabs and
// pipes made table-safe.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return strings.ReplaceAll(s, "\t", " ")
}
