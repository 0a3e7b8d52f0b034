package pmu

import "golang.org/x/sys/unix"

func errnoNamed(name string) error {
	return map[string]error{"ENOENT": unix.ENOENT, "EACCES": unix.EACCES, "ENOSYS": unix.ENOSYS}[name]
}
