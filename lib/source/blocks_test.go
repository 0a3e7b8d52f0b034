package source

import (
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/dataset/datasettest"
)

func TestBlocks(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		path string
		per  float64
		want string
	}{
		{"", 1, "no file given"},
		{filepath.Join(dir, "none.csv"), 1, "no such file"},
		{dir, 1, "a directory"},
		{filepath.Join(dir, "x.csv"), 0, "want a number > 0"},
	} {
		if _, err := ParseBlocks(c.path, c.per); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseBlocks(%q, %v): %v, want %q", c.path, c.per, err, c.want)
		}
	}
	if _, err := BlockCorpus("train"); err == nil || !strings.Contains(err.Error(), "want tune or heldout") {
		t.Errorf("BlockCorpus(train): %v", err)
	}
	p, err := BlockCorpus("heldout")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("objdump"); err != nil {
		t.Skip("needs binutils' objdump")
	}
	datasettest.Need(t)
	asm := filepath.Join(dir, "loop.s")
	if err := os.WriteFile(asm, []byte(".L1:\n\tadd rax, rbx\n\tdec rcx\n\tjne .L1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := ParseBlocks(asm, 1)
	if err != nil {
		t.Fatal(err)
	}
	set, bad, err := b.Load(context.Background(), nil)
	if err != nil || bad != 0 || set.Len() != 1 || len(set.Blocks[0].Insns) != 3 || !math.IsNaN(set.Cycles[0]) {
		t.Fatalf("assembly file: %v, %d bad, set %+v", err, bad, set)
	}
	csv := filepath.Join(dir, "b.csv")
	if err := os.WriteFile(csv, []byte("480fafc0,300\nzz,1\n4801d8,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, _ = ParseBlocks(csv, 100)
	var notes []string
	set, bad, err = b.Load(context.Background(), func(n string) { notes = append(notes, n) })
	if err != nil || bad != 1 || set.Len() != 2 || set.Cycles[0] != 3 || !math.IsNaN(set.Cycles[1]) {
		t.Fatalf("CSV file: %v, %d bad, cycles %v", err, bad, set.Cycles)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], csv+":2") {
		t.Errorf("notes %q, want one naming line 2", notes)
	}
	c, _ := ParseBlocks(p, 1)
	set, bad, err = c.Load(context.Background(), nil)
	if err != nil || bad != 0 || set.Len() < 100 {
		t.Errorf("the held-out corpus: %v, %d bad, %d blocks", err, bad, set.Len())
	}
}
