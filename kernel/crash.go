package kernel

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
)

// A CrashLog keeps what the Go runtime prints when it ends the kernel
// process (a fatal error such as "runtime: out of memory", or a panic no
// cell recovers) in a file, since the kernel's own standard error is
// captured for the cells and dies with the process. The next kernel
// started for the same connection file (Jupyter restarts a dead kernel with
// the same one) reads it back and reports it.
type CrashLog struct {
	path string
	file *os.File
}

// crashDir returns the folder of the crash logs: $XDG_RUNTIME_DIR/portlab
// when set, else portlab in the user's cache folder, else in the temporary
// folder.
func crashDir() string {
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		return filepath.Join(dir, "portlab")
	}
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "portlab")
	}
	return filepath.Join(os.TempDir(), "portlab")
}

// CrashLogPath returns the path of the crash log of the kernels started
// for connectionFile.
func CrashLogPath(connectionFile string) string {
	abs, err := filepath.Abs(connectionFile)
	if err != nil {
		abs = connectionFile
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(crashDir(), "kernel-crash-"+hex.EncodeToString(sum[:8])+".log")
}

// KeepCrashOutput reads and removes the crash log of an earlier kernel of
// connectionFile and makes the runtime write this process's fatal errors to
// a new one (runtime/debug.SetCrashOutput). It returns the earlier crash
// output, "" if there was none. Close the CrashLog when the kernel ends
// normally.
func KeepCrashOutput(connectionFile string) (*CrashLog, string, error) {
	path := CrashLogPath(connectionFile)
	var previous string
	if b, err := os.ReadFile(path); err == nil {
		previous = strings.TrimSpace(string(b))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, previous, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, previous, err
	}
	if err := debug.SetCrashOutput(f, debug.CrashOptions{}); err != nil {
		f.Close()
		return nil, previous, err
	}
	return &CrashLog{path: path, file: f}, previous, nil
}

// Close stops keeping crash output and removes the (empty) log.
func (c *CrashLog) Close() error {
	if c == nil {
		return nil
	}
	debug.SetCrashOutput(nil, debug.CrashOptions{})
	c.file.Close()
	return os.Remove(c.path)
}

// crashNotice is the message the first cell of a kernel shows when the
// previous kernel of its notebook died; crash is the runtime's output.
func crashNotice(crash string) string {
	lines := strings.Split(crash, "\n")
	// The reason and the goroutine that failed are enough; the log may
	// hold thousands of lines of goroutine stacks.
	const keep = 40
	more := ""
	if len(lines) > keep {
		more = fmt.Sprintf("\n… (%d more lines)", len(lines)-keep)
		lines = lines[:keep]
	}
	return "The previous kernel process of this notebook ended: " + crashReason(crash) + "; " +
		"its variables are gone. The runtime said:\n\n" + strings.Join(lines, "\n") + more + "\n"
}

// crashReason returns the first line of the runtime's crash output that
// says what happened ("fatal error: …", "panic: …"). The runtime writes the
// message of a fatal error only to the standard error, not to the crash
// output, so without one the reason is read from the function that threw:
// a failed allocation is "fatal error: runtime: out of memory".
func crashReason(crash string) string {
	for _, line := range strings.Split(crash, "\n") {
		if strings.HasPrefix(line, "fatal error: ") || strings.HasPrefix(line, "panic: ") {
			return line
		}
	}
	lines := strings.Split(crash, "\n")
	for i, line := range lines {
		if !strings.HasPrefix(line, "runtime.throw(") {
			continue
		}
		for _, next := range lines[i+1:] {
			if strings.HasPrefix(next, "\t") {
				continue
			}
			switch {
			case strings.HasPrefix(next, "runtime.sysMap"), strings.HasPrefix(next, "runtime.(*mheap).grow"),
				strings.HasPrefix(next, "runtime.(*mheap).sysAlloc"), strings.HasPrefix(next, "runtime.persistentalloc"),
				strings.HasPrefix(next, "runtime.(*mcache).allocLarge"), strings.HasPrefix(next, "runtime.mallocgcLarge"):
				return "fatal error: runtime: out of memory"
			case strings.HasPrefix(next, "runtime.newstack"):
				return "fatal error: stack overflow (unbounded recursion?)"
			case strings.HasPrefix(next, "runtime.fatal") || strings.HasPrefix(next, "internal/runtime/maps.fatal"):
				return "fatal error: concurrent map access"
			}
			break
		}
		break
	}
	return "a fatal error of the Go runtime"
}
