package symbols

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// generateArgs returns the go command of this package's go:generate line.
func generateArgs(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile("symbols.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(line, "//go:generate go "); ok {
			return strings.Fields(rest)
		}
	}
	t.Fatal("no go:generate line in symbols.go")
	return nil
}

// TestGeneratedFilesAreCurrent runs the go:generate line with -check: it
// regenerates the symbol and doc tables in memory and fails when the
// committed files differ. Run go generate in cmd/portlab/internal/symbols
// after changing an exported package.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("regenerating the symbol tables type-checks every exported package")
	}
	args := generateArgs(t)
	args = append([]string{args[0], args[1], "-check"}, args[2:]...)
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		t.Fatalf("stale generated files (run go generate in cmd/portlab/internal/symbols): %v\n%s", err, out)
	}
}

// TestEveryLibraryPackageIsExported lists the library's packages with go
// list and checks that each one (but internal packages and test helpers)
// has a committed symbol table, so that notebooks can import it.
func TestEveryLibraryPackageIsExported(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{.Name}}", "github.com/portlab/portlab/lib/...", "github.com/portlab/portlab/plots").Output()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, name, _ := strings.Cut(line, " ")
		if name == "main" || strings.HasSuffix(name, "test") || strings.Contains(path, "/internal") {
			continue
		}
		n++
		if !Has(path) {
			t.Errorf("%s has no symbol table: run go generate in cmd/portlab/internal/symbols", path)
		}
		if _, ok := Doc(path); !ok {
			t.Errorf("%s has no documentation", path)
		}
	}
	if n < 10 {
		t.Errorf("only %d library packages found", n)
	}
	if Has("github.com/portlab/portlab/kernel/display") {
		t.Error("the command's tables hold the kernel's display package, which the kernel provides itself")
	}
}
