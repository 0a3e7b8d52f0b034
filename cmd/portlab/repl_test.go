package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestREPLHasTheLibrary runs `portlab repl` on piped input: the library is
// imported, its documentation is there, and its values show. (The REPL
// itself, in a terminal, is tested in kernel/repl.)
func TestREPLHasTheLibrary(t *testing.T) {
	dir := t.TempDir()
	in := strings.NewReader(`m := portmap.MustMapping("fig", "p1", "p2")
m.MustSetUsage("add", "1*[p1,p2]").Instructions()
%doc throughput.LP
e, _ := portmap.ExperimentOf(map[string]int{"add": 3})
s, _ := throughput.LP(m, e)
s
`)
	var out, errOut strings.Builder
	err := cmdREPL(context.Background(), []string{"-history", filepath.Join(dir, "h"), "-out", filepath.Join(dir, "out")}, in, &out, &errOut)
	if err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"port-mapping library pre-loaded", "[2] [add]", "LP solves the throughput linear program", "[6] cycles 1.5; port pressure: p1=1.5 p2=1.5"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if errOut.Len() > 0 {
		t.Errorf("stderr: %s", errOut.String())
	}
}
