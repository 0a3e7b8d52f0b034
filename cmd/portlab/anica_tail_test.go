package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTrimTornTail: a journal whose last line a kill cut short loses that
// line before the next records are appended, so that they start on a
// line of their own; a whole journal, an empty one and a missing one are
// left as they are.
func TestTrimTornTail(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ in, want string }{
		{"{\"kind\":\"header\"}\n{\"kind\":\"predic", "{\"kind\":\"header\"}\n"},
		{"{\"kind\":\"header\"}\n{\"kind\":\"batch\"}\n", "{\"kind\":\"header\"}\n{\"kind\":\"batch\"}\n"},
		{"{\"kind\":\"hea", ""},
		{"", ""},
	} {
		p := filepath.Join(dir, "journal.jsonl")
		if err := os.WriteFile(p, []byte(c.in), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := trimTornTail(p); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(p)
		if string(got) != c.want {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
	if err := trimTornTail(filepath.Join(dir, "none.jsonl")); err != nil {
		t.Errorf("missing journal: %v", err)
	}
}
