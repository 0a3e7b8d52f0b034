package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedFilesAreCurrent regenerates the symbol and doc tables in
// memory and fails when the committed files differ: run go generate in
// kernel/symbols after changing an exported package.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("regenerating the symbol tables type-checks every exported package")
	}
	files, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := Packages()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(pkgs)+1 {
		t.Fatalf("generated %d files for %d packages", len(files), len(pkgs))
	}
	if diffs := Compare("..", files); len(diffs) > 0 {
		t.Fatalf("stale generated files in kernel/symbols (run go generate ./kernel/symbols): %v", diffs)
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
		if !Exported(path, name) {
			continue
		}
		n++
		file := filepath.Join("..", strings.NewReplacer("/", "-", ".", "_", "~", "_").Replace(path)+".go")
		if _, err := os.Stat(file); err != nil {
			t.Errorf("%s has no symbol table (%v): run go generate ./kernel/symbols", path, err)
		}
	}
	if n < 10 {
		t.Errorf("only %d library packages found", n)
	}
}
