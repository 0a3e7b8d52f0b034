package datasettest

import (
	"fmt"
	"path/filepath"
	"testing"
)

// recorder stands in for a *testing.T to see whether Need skips or fails.
type recorder struct {
	testing.TB
	skipped, failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Skip(args ...any)      { r.skipped = true; panic(stop{}) }
func (r *recorder) Fatal(args ...any)     { r.failed = true; panic(stop{}) }
func (r *recorder) Errorf(string, ...any) { r.failed = true }

type stop struct{}

func run(f func(testing.TB)) (r *recorder) {
	r = &recorder{}
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(stop); !ok {
				panic(v)
			}
		}
	}()
	f(r)
	return r
}

func TestNeed(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nowhere")
	t.Setenv("PORTLAB_DATA", missing)
	t.Setenv("CI", "")
	if r := run(func(tb testing.TB) { Need(tb) }); !r.failed {
		t.Errorf("PORTLAB_DATA=%s (missing): Need did not fail: %+v", missing, *r)
	}

	// No data anywhere: skip, except in CI.
	t.Setenv("PORTLAB_DATA", "")
	t.Setenv("PORTLAB_CACHE", filepath.Join(t.TempDir(), "no-cache"))
	t.Chdir(t.TempDir())
	if r := run(func(tb testing.TB) { Need(tb) }); !r.skipped || r.failed {
		t.Errorf("no data, not in CI: %s", fmt.Sprintf("%+v", *r))
	}
	t.Setenv("CI", "true")
	if r := run(func(tb testing.TB) { Need(tb) }); !r.failed {
		t.Errorf("no data in CI: Need did not fail: %+v", *r)
	}
}
