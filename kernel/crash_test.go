package kernel

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// childKernelEnv names the connection file of a kernel the test binary
// serves instead of running the tests (see TestMain).
const childKernelEnv = "PORTLAB_TEST_CHILD_KERNEL"

func TestMain(m *testing.M) {
	if file := os.Getenv(childKernelEnv); file != "" {
		if err := Serve(context.Background(), file, Options{}); err != nil {
			fmt.Fprintln(os.Stderr, "child kernel:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// lockedBuffer is a bytes.Buffer safe for a process's output and a test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// childKernel is a kernel served by a child process (the test binary),
// for the cells that could end the process.
type childKernel struct {
	*client
	cmd    *exec.Cmd
	stderr *lockedBuffer
	exited chan error
}

// startChildKernel starts a kernel process for the connection file, with
// its crash logs under runtimeDir, and connects to it.
func startChildKernel(t *testing.T, connectionFile, runtimeDir string) *childKernel {
	t.Helper()
	b, err := os.ReadFile(connectionFile)
	if err != nil {
		t.Fatal(err)
	}
	var ci ConnectionInfo
	if err := json.Unmarshal(b, &ci); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childKernelEnv+"="+connectionFile, "XDG_RUNTIME_DIR="+runtimeDir)
	k := &childKernel{cmd: cmd, stderr: &lockedBuffer{}, exited: make(chan error, 1)}
	cmd.Stderr = k.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { k.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			<-k.exited
		}
	})
	k.client = dial(t, ci)
	k.waitReady()
	return k
}

// writeConnectionFile writes connection information with free ports.
func writeConnectionFile(t *testing.T) string {
	t.Helper()
	b, err := json.Marshal(testConnection(t))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "kernel.json")
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// streamText returns the text of the stream messages named name.
func streamText(msgs []*Message, name string) string {
	var b strings.Builder
	for _, m := range msgs {
		if c := content(m); m.Header.MsgType == "stream" && c["name"] == name {
			b.WriteString(c["text"].(string))
		}
	}
	return b.String()
}

// resultText returns the text/plain of the execute_result in msgs.
func resultText(msgs []*Message) string {
	for _, m := range msgs {
		if m.Header.MsgType == "execute_result" {
			return content(m)["data"].(map[string]any)["text/plain"].(string)
		}
	}
	return ""
}

// TestGoroutinePanicKernelSurvives: a panic in a
// goroutine of a cell ended the kernel process without a word.
func TestGoroutinePanicKernelSurvives(t *testing.T) {
	k := startChildKernel(t, writeConnectionFile(t), t.TempDir())
	reply, _ := k.execute("import \"time\"\ngo func() { panic(\"boom\") }()\ntime.Sleep(200 * time.Millisecond)", nil)
	if reply["status"] != "error" || !strings.Contains(fmt.Sprint(reply["evalue"]), "panic in a goroutine: boom") {
		t.Errorf("reply %v, want an error naming the goroutine's panic", reply)
	}
	_, msgs := k.execute("1 + 1", nil)
	if got := resultText(msgs); got != "2" {
		t.Errorf("after the goroutine panic, 1 + 1 = %q", got)
	}
}

// TestHugeMakeIsAnError: make([]byte, 64<<30) ended the
// kernel (the runtime's fatal "out of memory"); now it is a panic of the
// cell that says why, while 4 GiB still works.
func TestHugeMakeIsAnError(t *testing.T) {
	if totalMemoryForTest() < 8<<30 {
		t.Skip("the machine has less than 8 GiB of memory")
	}
	k := startChildKernel(t, writeConnectionFile(t), t.TempDir())
	reply, _ := k.execute("b := make([]byte, 64<<30)", nil)
	if reply["status"] != "error" || !strings.Contains(fmt.Sprint(reply["evalue"]), "make([]uint8, 68719476736) needs 64.0 GiB, more than the") {
		t.Errorf("reply %v, want an error about the size of the make", reply)
	}
	_, msgs := k.execute("c := make([]byte, 4<<30)\nlen(c)", nil)
	if got := resultText(msgs); got != "4294967296" {
		t.Errorf("len of a 4 GiB slice = %q; stderr %q", got, k.stderr.String())
	}
}

// TestFatalErrorIsReportedOnRestart covers what the runtime
// cannot survive (a make of a named slice type is not checked): the
// runtime's message, lost with the captured standard error, is kept in the
// crash log and shown by the next kernel of the same connection file.
//
// The make asks for 4 TiB, more than any test machine's memory and swap:
// the runtime sets up its heap metadata for the whole range before the
// commit fails, which takes a second or two for 4 TiB but about 20 s on a
// loaded 2-vCPU machine for 64 TiB, so the size is kept small and the wait
// generous.
func TestFatalErrorIsReportedOnRestart(t *testing.T) {
	file, runtimeDir := writeConnectionFile(t), t.TempDir()
	k := startChildKernel(t, file, runtimeDir)
	id := k.send(k.shell, "execute_request", map[string]any{"code": "type B []byte\nb := make(B, 1<<42)", "silent": false,
		"store_history": true, "user_expressions": map[string]any{}, "allow_stdin": false, "stop_on_error": true})
	select {
	case err := <-k.exited:
		if err == nil {
			t.Fatalf("the kernel exited normally; stderr %q", k.stderr.String())
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("the kernel did not die (request %s); stderr %q", id, k.stderr.String())
	}
	again := startChildKernel(t, file, runtimeDir)
	_, msgs := again.execute("1 + 1", nil)
	const want = "fatal error: runtime: out of memory"
	if got := streamText(msgs, "stderr"); !strings.Contains(got, "The previous kernel process of this notebook ended") || !strings.Contains(got, want) {
		t.Errorf("first cell after the restart: stderr %q, want the crash", got)
	}
	if !strings.Contains(again.stderr.String(), want) {
		t.Errorf("the restarted kernel's standard error %q lacks the crash", again.stderr.String())
	}
	_, msgs = again.execute("2 + 2", nil)
	if got := streamText(msgs, "stderr"); got != "" {
		t.Errorf("the crash is shown again: %q", got)
	}
}

// TestCrashReasonFromTheThrower reads the reason of a fatal error from the
// function that threw when the runtime's message went to the lost
// standard error: a huge allocation throws from the heap's growth or, in
// Go 1.26, from the large-object path of the allocator.
func TestCrashReasonFromTheThrower(t *testing.T) {
	for _, c := range []struct{ trace, want string }{
		{"goroutine 12 [running]:\nruntime.throw({0x1, 0x2})\n\t/go/src/runtime/panic.go:1229 +0x48\nruntime.(*mcache).allocLarge(0x1, 0x400000000000, 0x1)\n\t/go/src/runtime/mcache.go:259\n", "fatal error: runtime: out of memory"},
		{"goroutine 1 [running]:\nruntime.throw({0x1, 0x2})\n\t/go/src/runtime/panic.go:1229\nruntime.(*mheap).sysAlloc(0x1)\n", "fatal error: runtime: out of memory"},
		{"goroutine 1 [running]:\nruntime.throw({0x1, 0x2})\n\t/go/src/runtime/panic.go:1229\nruntime.newstack()\n", "fatal error: stack overflow (unbounded recursion?)"},
		{"goroutine 1 [running]:\nruntime.throw({0x1, 0x2})\n\t/go/src/runtime/panic.go:1229\ninternal/runtime/maps.fatal({0x1, 0x2})\n", "fatal error: concurrent map access"},
		{"fatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1 [chan receive]:\n", "fatal error: all goroutines are asleep - deadlock!"},
		{"goroutine 1 [running]:\nruntime.throw({0x1, 0x2})\nruntime.somethingElse()\n", "a fatal error of the Go runtime"},
	} {
		if got := crashReason(c.trace); got != c.want {
			t.Errorf("crashReason(%q) = %q, want %q", c.trace[:40], got, c.want)
		}
	}
}
