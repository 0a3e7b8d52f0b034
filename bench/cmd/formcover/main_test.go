package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGreedy: of three measured blocks (add; add+imul; imul+xor) and one
// not measured (xor), a machine mapping add covers one; imul completes one
// more block and comes first, then xor; an excluded form is never chosen.
func TestGreedy(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the uops.info forms and runs objdump")
	}
	dir := t.TempDir()
	mach := filepath.Join(dir, "m.json")
	os.WriteFile(mach, []byte(`{"format": "portlab.machine/v1", "name": "m", "mapping": {"format": "portlab.mapping/v1", "name": "m", "ports": ["0"], "instructions": [
	  {"name": "add RW:GPR:64, R:GPR:64", "uops": [{"count": 1, "ports": ["0"]}]}]}}`), 0o644)
	csv := filepath.Join(dir, "b.csv")
	os.WriteFile(csv, []byte("4801d8,1\n4801d8480fafc3,3\n480fafc34831d8,3\n4831d8,\n"), 0o644)
	var buf bytes.Buffer
	if err := run(t.Context(), mach, "", "", 5, []string{csv}, &buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	want := []string{"# 1 of 3 measured blocks", "", "1\t1\t2\t2\timul RW:GPR:64, R:GPR:64", "2\t1\t1\t3\txor RW:GPR:64, R:GPR:64"}
	if len(lines) != len(want) {
		t.Fatalf("got\n%s\nwant %d lines", buf.String(), len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d: %q, want %q", i+1, lines[i], w)
		}
	}
	ex := filepath.Join(dir, "ex.txt")
	os.WriteFile(ex, []byte("# never\nimul RW:GPR:64, R:GPR:64\n"), 0o644)
	buf.Reset()
	if err := run(t.Context(), mach, "", ex, 5, []string{csv}, &buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "\timul") || !strings.Contains(buf.String(), "1\t0\t1\t1\txor") {
		t.Errorf("with imul excluded:\n%s", buf.String())
	}
}
