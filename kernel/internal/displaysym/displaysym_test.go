package displaysym

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestGeneratedFilesAreCurrent runs this package's go:generate line with
// -check: it fails when the committed tables differ from what the display
// package generates now (run go generate in kernel/internal/displaysym).
func TestGeneratedFilesAreCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("regenerating the tables type-checks the exported package")
	}
	src, err := os.ReadFile("displaysym.go")
	if err != nil {
		t.Fatal(err)
	}
	var args []string
	for _, line := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(line, "//go:generate go run "); ok {
			f := strings.Fields(rest)
			args = append([]string{"run", f[0], "-check"}, f[1:]...)
		}
	}
	if args == nil {
		t.Fatal("no go:generate line")
	}
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func TestTables(t *testing.T) {
	syms := Symbols["github.com/portlab/portlab/kernel/display/display"]
	for _, name := range []string{"Render", "Show", "Bundle", "HTML", "Text", "HTMLer"} {
		if _, ok := syms[name]; !ok {
			t.Errorf("display.%s is not in the symbol table", name)
		}
	}
	if d, ok := Doc("github.com/portlab/portlab/kernel/display.Bundle.With"); !ok || !strings.Contains(d, "func (b Bundle) With(mime string, data any) Bundle") {
		t.Errorf("Doc of Bundle.With: %v %q", ok, d)
	}
}
