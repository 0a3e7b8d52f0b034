package palmed

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/oracle"
)

// TestSolverTimeLimitIncumbent: when CBC's time limit stops it after it
// found an integer solution, PALMED goes on with that solution and its
// trace says that it was not proven optimal (no error, no panic). The
// stand-in cbc runs the real one and reports its optimum as stopped on
// time.
func TestSolverTimeLimitIncumbent(t *testing.T) {
	real, err := exec.LookPath("cbc")
	if err != nil {
		t.Skip("cbc not installed (Debian coinor-cbc)")
	}
	dir := t.TempDir()
	script := "#!/bin/sh\n\"" + real + "\" \"$@\" || exit $?\nfor a; do last=$a; done\n" +
		"sed -i 's/^Optimal - objective value/Stopped on time - objective value/' \"$last\"\n"
	if err := os.WriteFile(filepath.Join(dir, "cbc"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	truth := toy()
	res, err := Infer(t.Context(), oracle.Simulate(truth, 0, 1), truth.Instructions(), toyConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	warned := false
	for _, s := range res.Trace {
		warned = warned || strings.Contains(s.Message, "not proven optimal")
	}
	if !warned {
		t.Errorf("no warning in the trace:\n%v", res.Trace)
	}
}
