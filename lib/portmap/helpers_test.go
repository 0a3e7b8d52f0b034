package portmap

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// sharedData returns the read-only data directory shared/data, found as
// "shared/data" beside an ancestor of the working directory (the checkout is
// e.g. /work/main and the data /work/shared/data). The test is skipped when
// it is missing, except in CI (env CI non-empty), where that is a failure.
func sharedData(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		cand := filepath.Join(dir, "shared", "data")
		if fi, err := os.Stat(cand); err == nil && fi.IsDir() {
			return cand
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if os.Getenv("CI") != "" {
		t.Fatal("shared/data not found beside any ancestor of the working directory")
	}
	t.Skip("shared/data not found beside any ancestor of the working directory")
	return ""
}

// dataFile returns the path of a file under shared/data, skipping (or
// failing in CI) when it is absent.
func dataFile(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(sharedData(t), filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	return p
}

// usages returns insn → Usage string for every mapped instruction of m.
func usages(m *Mapping) map[string]string {
	out := map[string]string{}
	for _, n := range m.Instructions() {
		out[n] = m.Usage(n)
	}
	return out
}

// sameMapping fails t unless a and b have the same name, ports and the same
// decomposition of every instruction.
func sameMapping(t testing.TB, a, b *Mapping) {
	t.Helper()
	if a.Name() != b.Name() {
		t.Errorf("name %q != %q", a.Name(), b.Name())
	}
	if !reflect.DeepEqual(a.Ports(), b.Ports()) {
		t.Errorf("ports %q != %q", a.Ports(), b.Ports())
	}
	ua, ub := usages(a), usages(b)
	if !reflect.DeepEqual(ua, ub) {
		var diff []string
		for k, v := range ua {
			if ub[k] != v {
				diff = append(diff, k+": "+v+" vs "+ub[k])
			}
		}
		for k := range ub {
			if _, ok := ua[k]; !ok {
				diff = append(diff, k+": missing in first")
			}
		}
		sort.Strings(diff)
		if len(diff) > 10 {
			diff = diff[:10]
		}
		t.Errorf("usages differ (%d vs %d instructions): %s", len(ua), len(ub), strings.Join(diff, "; "))
	}
}

// formatError asserts that err is a *FormatError for file and that its
// message contains every string of want.
func formatError(t testing.TB, err error, file string, want ...string) *FormatError {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want a FormatError containing %q", want)
	}
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T) is not a *FormatError", err, err)
	}
	if fe.File != file {
		t.Errorf("FormatError.File = %q, want %q", fe.File, file)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, file) {
		t.Errorf("error %q does not start with the file name %q", msg, file)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("error %q does not contain %q", msg, w)
		}
	}
	return fe
}

// errContains asserts that err is non-nil and its message contains each of want.
func errContains(t testing.TB, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", want)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not contain %q", err, w)
		}
	}
}

// fig31 is the two-level running example of thesis Fig. 3.1.
func fig31() *Mapping {
	m := MustMapping("fig3.1", "p1", "p2", "p3")
	for _, s := range []struct{ insn, usage string }{
		{"mul", "1*[p1]"}, {"add", "1*[p1,p2]"}, {"sub", "1*[p1,p2]"}, {"store", "1*[p3]"},
	} {
		m.MustSetUsage(s.insn, s.usage)
	}
	return m
}
