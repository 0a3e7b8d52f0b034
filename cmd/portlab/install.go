package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/portlab/portlab/kernel"
)

// cmdInstall writes the kernelspec "portlab" (display name "Go (portlab)")
// that runs this binary, into the user's Jupyter data directory, the
// prefix of the Jupyter installation on PATH, or PREFIX/share/jupyter.
func cmdInstall(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("install", flag.ContinueOnError)
	fs.SetOutput(stderr)
	user := fs.Bool("user", false, "install for the current user (the default)")
	sysPrefix := fs.Bool("sys-prefix", false, "install into the prefix of the Jupyter on PATH")
	prefix := fs.String("prefix", "", "install into `DIR`/share/jupyter/kernels")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: portlab install [--user | --sys-prefix | --prefix DIR]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	n := 0
	for _, set := range []bool{*user, *sysPrefix, *prefix != ""} {
		if set {
			n++
		}
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("install: unexpected argument %q (see portlab install -h)", fs.Arg(0))
	}
	if n > 1 {
		return fmt.Errorf("install: give at most one of -user, -sys-prefix and -prefix")
	}
	var dataDir string
	switch {
	case *prefix != "":
		abs, err := filepath.Abs(*prefix)
		if err != nil {
			return err
		}
		dataDir = filepath.Join(abs, "share", "jupyter")
	case *sysPrefix:
		jupyter, err := exec.LookPath("jupyter")
		if err != nil {
			return errors.New("--sys-prefix: no jupyter on PATH")
		}
		if jupyter, err = filepath.EvalSymlinks(jupyter); err != nil {
			return err
		}
		dataDir = filepath.Join(filepath.Dir(filepath.Dir(jupyter)), "share", "jupyter")
	default:
		dir, err := userDataDir()
		if err != nil {
			return err
		}
		dataDir = dir
	}
	binary, err := os.Executable()
	if err != nil {
		return err
	}
	if binary, err = filepath.EvalSymlinks(binary); err != nil {
		return err
	}
	folder, err := kernel.WriteKernelSpec(dataDir, kernel.NewKernelSpec(binary))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "installed kernelspec %s (%s) in %s\n", kernel.KernelName, kernel.DisplayName, folder)
	return nil
}

// userDataDir returns the user's Jupyter data directory as Jupyter finds
// it: $JUPYTER_DATA_DIR, else the platform's default.
func userDataDir() (string, error) {
	if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join(home, "Library", "Jupyter"), nil
	case "windows":
		return filepath.Join(os.Getenv("APPDATA"), "jupyter"), nil
	}
	if x := os.Getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "jupyter"), nil
	}
	return filepath.Join(home, ".local", "share", "jupyter"), nil
}
