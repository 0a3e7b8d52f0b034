package z3

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the kernel kill z3 when portlab dies, so that an
// interrupted program leaves no solver running.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
