//go:build unix

package session

import (
	"os"

	"golang.org/x/sys/unix"
)

// redirectStdio points the process's file descriptors 1 and 2 at out and
// errOut, so that compiled code writing to os.Stdout and os.Stderr reaches
// the session. It returns the original standard error, for the kernel's own
// diagnostics, and a function that undoes the redirection.
func redirectStdio(out, errOut *os.File) (origErr *os.File, restore func(), err error) {
	savedOut, err := unix.Dup(1)
	if err != nil {
		return nil, nil, err
	}
	savedErr, err := unix.Dup(2)
	if err != nil {
		unix.Close(savedOut)
		return nil, nil, err
	}
	if err := unix.Dup2(int(out.Fd()), 1); err != nil {
		return nil, nil, err
	}
	if err := unix.Dup2(int(errOut.Fd()), 2); err != nil {
		return nil, nil, err
	}
	origErr = os.NewFile(uintptr(savedErr), "/dev/stderr")
	restore = func() {
		unix.Dup2(savedOut, 1)
		unix.Dup2(savedErr, 2)
		unix.Close(savedOut)
	}
	return origErr, restore, nil
}
