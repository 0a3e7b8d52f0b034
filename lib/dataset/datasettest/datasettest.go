// Package datasettest lets tests that read the shared data sets skip cleanly
// on a machine without them, and fail in CI, where they must be present.
package datasettest

import (
	"errors"
	"os"
	"testing"

	"github.com/portlab/portlab/lib/dataset"
)

// Need skips t when no data directory can be found (dataset.ErrNotFound),
// unless the environment variable CI is set, and fails t on any other
// lookup error (such as PORTLAB_DATA naming a missing directory). It returns
// the data directory.
func Need(t testing.TB) string {
	t.Helper()
	dir, err := dataset.Dir()
	if err != nil {
		if os.Getenv("CI") != "" || !errors.Is(err, dataset.ErrNotFound) {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	return dir
}
