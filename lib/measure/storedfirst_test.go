package measure

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// writeStored writes a gzip campaign file holding exps measured by o, as
// if in three passes.
func writeStored(t *testing.T, path string, o oracle.Oracle, exps []portmap.Experiment) []byte {
	t.Helper()
	var lines bytes.Buffer
	for _, e := range exps {
		m, err := o.Measure(t.Context(), e)
		if err != nil {
			t.Fatal(err)
		}
		m.Passes, m.Spread = 3, 0.01
		line, err := portmap.RecordOf(m, time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)).MarshalLine()
		if err != nil {
			t.Fatal(err)
		}
		lines.Write(line)
	}
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write(lines.Bytes())
	w.Close()
	if err := os.WriteFile(path, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return gz.Bytes()
}

// The stored-first oracle of `portlab infer -measure -stored -campaign`: a
// stored campaign answers first, a new campaign file keeps what is
// measured live, and a crashed run resumes from both.
func TestStoredFirstCampaign(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	insns := []string{"add", "mul", "store", "div"}
	sim := oracle.Simulate(toyMapping(), 0, 1)
	storedExps := append(design.Singletons(insns), portmap.NewExperiment("add", "mul"))
	storedPath := filepath.Join(dir, "train.jsonl.gz")
	storedBytes := writeStored(t, storedPath, sim, storedExps)
	stored, _, err := portmap.ReadCampaign(storedPath)
	if err != nil {
		t.Fatal(err)
	}
	exps := append(design.Singletons(insns), design.Pairs(insns)...) // 4 stored singletons, 1 stored pair, 5 other pairs
	newPath := filepath.Join(dir, "palmed.jsonl")
	live := &countingOracle{Oracle: sim}

	// First run: cancelled (a crash) after two live measurements.
	c := openCampaign(t, newPath, live)
	s := oracle.NewStoredFirst(stored, storedPath, c)
	cctx, cancel := context.WithCancel(ctx)
	_, _, err = oracle.MeasureAll(cctx, s, exps, func(p oracle.Progress) {
		if c.Measured() == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: %v", err)
	}
	// (The oracle may have been asked a third time, with the cancelled
	// context: that attempt is not stored.)
	if c.Measured() != 2 || countLines(t, newPath) != 2 {
		t.Fatalf("first run: %d live measurements, %d lines; want 2, 2", c.Measured(), countLines(t, newPath))
	}
	c.Close()
	asked := live.calls.Load()

	// Resumed: the two measured ones come from the new file, the stored
	// ones from the stored file, only the three others are measured.
	c = openCampaign(t, newPath, live)
	s = oracle.NewStoredFirst(stored, storedPath, c)
	set, failures, err := oracle.MeasureAll(ctx, s, exps, nil)
	if err != nil || len(failures) != 0 || set.Len() != len(exps) {
		t.Fatalf("resumed: %d measured, failures %v, %v", set.Len(), failures, err)
	}
	if live.calls.Load()-asked != 3 || c.Resumed() != 2 || c.Measured() != 3 || s.Hits() != 5 || s.Asked() != 5 {
		t.Errorf("resumed: %d live measurements (want 3), campaign resumed %d measured %d, %v", live.calls.Load()-asked, c.Resumed(), c.Measured(), s)
	}
	if n := countLines(t, newPath); n != 5 {
		t.Errorf("the new file has %d lines, want the 5 experiments not stored", n)
	}
	for i, m := range set.Measurements {
		want, _ := oracle.Cycles(ctx, sim, exps[i])
		if m.Cycles != want {
			t.Errorf("%v: %v cycles, want %v", exps[i], m.Cycles, want)
		}
	}
	// A rerun measures nothing; the stored file was never written.
	c.Close()
	c = openCampaign(t, newPath, live)
	if _, _, err := oracle.MeasureAll(ctx, oracle.NewStoredFirst(stored, storedPath, c), exps, nil); err != nil || live.calls.Load() != asked+3 {
		t.Errorf("rerun: %v, %d live measurements", err, live.calls.Load()-asked-3)
	}
	if got, _ := os.ReadFile(storedPath); !bytes.Equal(got, storedBytes) {
		t.Error("the stored campaign file was modified")
	}
}

func TestStoredFirstBadFiles(t *testing.T) {
	dir := t.TempDir()
	good := `{"insns":{"add":1},"cycles":0.5}` + "\n"
	for name, data := range map[string]string{
		"garbage.jsonl": good + "not json\n" + good,
		"empty.jsonl":   good + good + `{"insns":{},"cycles":1}` + "\n",
	} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(data), 0o644)
		// As the stored data…
		_, _, err := portmap.ReadCampaign(path)
		if err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), ":"+map[string]string{"garbage.jsonl": "2", "empty.jsonl": "3"}[name]) {
			t.Errorf("stored %s: %v, want an error naming the file and line", name, err)
		}
		// …and as the new campaign file.
		_, err = OpenCampaign(path, oracle.Simulate(toyMapping(), 0, 1))
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("campaign %s: %v, want an error naming the file", name, err)
		}
	}
}
