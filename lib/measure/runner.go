package measure

import (
	"bytes"
	"context"
	"encoding/gob"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/portlab/portlab/lib/pmu"
)

// Runner executes assembled kernels in an isolated worker process: a copy of
// the running executable started with EnvWorker set (so the executable must
// call RunWorkerIfRequested at start-up), pinned to one CPU. Generated code
// never runs in the caller's process. When a kernel faults (illegal
// instruction, bad memory access) or hangs, the worker dies or is killed,
// the call returns a *FaultError or *TimeoutError, and the next call starts
// a fresh worker and reloads the code, so a campaign goes on.
type Runner struct {
	// CPU is the CPU the worker is pinned to (-1: no pinning).
	CPU int
	// Timeout bounds one Run call.
	Timeout time.Duration
	// Counters are perf events (see package pmu) the worker counts around
	// every timed run, on its own thread; nil: none. An event the worker
	// cannot open makes every run fail with an error naming it.
	Counters []pmu.Spec

	mu     sync.Mutex
	cmd    *exec.Cmd
	enc    *gob.Encoder
	dec    *gob.Decoder
	stdin  io.Closer
	stderr *tailBuffer
	done   chan struct{}
	obj    *Object
	loaded bool
}

// NewRunner returns a runner pinned to cpu with a default timeout of 10 s
// per call. The worker starts on first use.
func NewRunner(cpu int) *Runner { return &Runner{CPU: cpu, Timeout: 10 * time.Second} }

// FaultError reports a kernel that crashed the worker, or a worker that
// died for another reason (killed from outside: Signal SIGKILL or SIGTERM).
type FaultError struct {
	Kernel string
	Signal string // e.g. "SIGILL", "SIGSEGV"; "" if unknown
	// Privileged is set when the fault was a general-protection fault
	// raised by the processor (si_code SI_KERNEL): a privileged instruction
	// (hlt, cli, rdmsr, in, out, …) or a non-canonical address.
	Privileged bool
	Detail     string // the worker's last words
}

func (e *FaultError) Error() string {
	what := e.Signal
	switch {
	case e.Privileged:
		what = e.Signal + " (general-protection fault: a privileged instruction such as hlt, cli or rdmsr, which user code cannot run)"
	case e.Signal == "SIGILL":
		what = "SIGILL (illegal instruction: not supported by this CPU?)"
	case e.Signal == "SIGSEGV" || e.Signal == "SIGBUS":
		what = e.Signal + " (memory access outside the kernel's buffer?)"
	case e.Signal == "SIGKILL" || e.Signal == "SIGTERM":
		what = "the worker was killed (" + e.Signal + ") from outside; measuring again may succeed"
	case e.Signal == "":
		what = "the worker died"
	}
	return fmt.Sprintf("measure: kernel %q: %s", e.Kernel, what)
}

// Transient reports whether the worker died for a reason outside the
// kernel (killed from outside, or an unknown death), so that measuring the
// kernel again may succeed (see oracle.IsTransient).
func (e *FaultError) Transient() bool {
	switch e.Signal {
	case "SIGILL", "SIGSEGV", "SIGBUS", "SIGFPE", "SIGTRAP":
		return false
	}
	return true
}

// TimeoutError reports a kernel that did not finish in time.
type TimeoutError struct {
	Kernel  string
	Timeout time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("measure: kernel %q: no result within %v (killed)", e.Kernel, e.Timeout)
}

// Transient reports true: a timeout may come from a loaded machine, so
// measuring the kernel again may succeed (see oracle.IsTransient).
func (e *TimeoutError) Transient() bool { return true }

// Load makes obj the code the worker runs.
func (r *Runner) Load(obj *Object) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.obj, r.loaded = obj, false
	return nil
}

// Run times kernel k of the loaded object reps times with iters loop
// iterations each and returns the TSC ticks of each timing.
func (r *Runner) Run(ctx context.Context, k int, iters uint64, reps int) ([]uint64, error) {
	resp, err := r.run(ctx, k, iters, reps)
	if err != nil {
		return nil, err
	}
	return resp.Ticks, nil
}

func (r *Runner) run(ctx context.Context, k int, iters uint64, reps int) (*response, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.obj == nil || k < 0 || k >= len(r.obj.Entry) {
		return nil, fmt.Errorf("measure: no kernel %d loaded", k)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.cmd == nil {
		if err := r.start(); err != nil {
			return nil, infra(err)
		}
	}
	if !r.loaded {
		if _, err := r.call(ctx, &request{Op: "load", Code: r.obj.Code}, "(load)"); err != nil {
			return nil, err
		}
		r.loaded = true
	}
	resp, err := r.call(ctx, &request{Op: "run", Entry: r.obj.Entry[k], Iters: iters, Reps: reps, CPU: r.CPU, Counters: r.Counters}, r.obj.Kernels[k].Name)
	if err == nil && len(r.Counters) > 0 && (len(resp.Counts) != len(resp.Ticks) || len(resp.Counts) > 0 && len(resp.Counts[0]) != len(r.Counters)) {
		return nil, fmt.Errorf("measure: the worker returned %d counts for %d runs of %d events", len(resp.Counts), len(resp.Ticks), len(r.Counters))
	}
	return resp, err
}

// call sends one request and waits for its answer, the worker's death, the
// timeout or ctx.
func (r *Runner) call(ctx context.Context, req *request, kernel string) (*response, error) {
	type result struct {
		resp response
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		var res result
		if res.err = r.enc.Encode(req); res.err == nil {
			res.err = r.dec.Decode(&res.resp)
		}
		ch <- res
	}()
	timer := time.NewTimer(r.Timeout)
	defer timer.Stop()
	select {
	case res := <-ch:
		if res.err != nil {
			<-r.done // the worker is gone; wait so stderr is complete
			detail := r.stderr.String()
			sig := signalIn(detail)
			privileged := false
			st := r.cmd.ProcessState
			if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				sig = signalName(ws.Signal())
			} else if code := st.ExitCode(); code > privilegedExit {
				sig, privileged = signalName(syscall.Signal(code-privilegedExit)), true
			} else if code > 128 {
				sig = signalName(syscall.Signal(code - 128))
			}
			r.reset()
			return nil, &FaultError{Kernel: kernel, Signal: sig, Privileged: privileged, Detail: detail}
		}
		if res.resp.Err != "" {
			// The worker refused the request (pinning, loading, counters):
			// the machinery failed, not the kernel.
			return nil, infra(fmt.Errorf("measure: worker on CPU %d, kernel %q: %s", r.CPU, kernel, res.resp.Err))
		}
		return &res.resp, nil
	case <-timer.C:
		r.kill()
		return nil, &TimeoutError{Kernel: kernel, Timeout: r.Timeout}
	case <-ctx.Done():
		r.kill()
		return nil, ctx.Err()
	}
}

// errNoWorkerHook explains a worker that never said hello.
const errNoWorkerHook = "a program that measures must call measure.RunWorkerIfRequested() first thing in main (or TestMain), so that its copy can run as the measurement worker"

func (r *Runner) start() error {
	if os.Getenv(EnvWorker) == "1" {
		// A worker that went on to measure: its main lacks the hook, and
		// starting another copy would recurse.
		return fmt.Errorf("measure: this process was started as a measurement worker but measures itself: %s", errNoWorkerHook)
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("measure: finding the executable to start as worker: %w", err)
	}
	cmd := exec.Command(exe)
	// A short crash report: the signal line is what the parent reads.
	cmd.Env = append(os.Environ(), EnvWorker+"=1", "GOTRACEBACK=none")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	r.stderr = &tailBuffer{max: 8 << 10}
	cmd.Stderr = r.stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("measure: starting worker %s: %w", exe, err)
	}
	r.cmd, r.stdin = cmd, stdin
	r.enc, r.dec = gob.NewEncoder(stdin), gob.NewDecoder(stdout)
	r.done = make(chan struct{})
	go func(done chan struct{}) {
		cmd.Wait()
		close(done)
	}(r.done)
	r.loaded = false
	// The worker's first words say that it is one.
	hello := make(chan error, 1)
	go func() {
		var resp response
		err := r.dec.Decode(&resp)
		if err == nil && resp.Hello != workerHello {
			err = fmt.Errorf("it answered %+v", resp)
		}
		hello <- err
	}()
	select {
	case err = <-hello:
	case <-time.After(10 * time.Second):
		err = fmt.Errorf("no answer in 10 s")
	}
	if err != nil {
		r.kill()
		return fmt.Errorf("measure: %s did not start as a measurement worker (%v): %s", exe, err, errNoWorkerHook)
	}
	return nil
}

func (r *Runner) kill() {
	if r.cmd != nil {
		r.cmd.Process.Kill()
		<-r.done
	}
	r.reset()
}

func (r *Runner) reset() {
	r.cmd, r.enc, r.dec, r.stdin, r.loaded = nil, nil, nil, nil, false
}

// Close stops the worker.
func (r *Runner) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd == nil {
		return nil
	}
	r.stdin.Close()
	select {
	case <-r.done:
	case <-time.After(2 * time.Second):
		r.cmd.Process.Kill()
		<-r.done
	}
	r.reset()
	return nil
}

var signalNames = map[syscall.Signal]string{
	syscall.SIGILL: "SIGILL", syscall.SIGBUS: "SIGBUS", syscall.SIGFPE: "SIGFPE", syscall.SIGSEGV: "SIGSEGV",
	syscall.SIGKILL: "SIGKILL", syscall.SIGTERM: "SIGTERM", syscall.SIGTRAP: "SIGTRAP",
}

// privilegedExit is the exit status base the worker's fault handler uses
// for a general-protection fault (si_code SI_KERNEL): 200 + signal; other
// faults exit with 128 + signal.
const privilegedExit = 200

func signalName(s syscall.Signal) string {
	if n, ok := signalNames[s]; ok {
		return n
	}
	return s.String()
}

var sigRE = regexp.MustCompile(`\b(SIGILL|SIGSEGV|SIGBUS|SIGFPE|SIGTRAP)\b`)

func signalIn(s string) string {
	if m := sigRE.FindString(s); m != "" {
		return m
	}
	return ""
}

// tailBuffer keeps the first and the last max/2 bytes written to it: a
// crash report starts with the signal and ends with the stack.
type tailBuffer struct {
	mu   sync.Mutex
	head []byte
	buf  bytes.Buffer
	max  int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if room := t.max/2 - len(t.head); room > 0 {
		k := min(room, len(p))
		t.head = append(t.head, p[:k]...)
		p = p[k:]
	}
	t.buf.Write(p)
	if extra := t.buf.Len() - t.max/2; extra > 0 {
		t.buf.Next(extra)
	}
	return n, nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.buf.Len() == 0 {
		return strings.TrimSpace(string(t.head))
	}
	return strings.TrimSpace(string(t.head) + "\n…\n" + t.buf.String())
}
