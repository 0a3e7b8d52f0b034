package main

import "testing"

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
	if len(files) != len(Packages)+1 {
		t.Fatalf("generated %d files for %d packages", len(files), len(Packages))
	}
	if diffs := Compare("..", files); len(diffs) > 0 {
		t.Fatalf("stale generated files in kernel/symbols (run go generate ./kernel/symbols): %v", diffs)
	}
}
