package portmap

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestReadCampaign(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.jsonl")
	lines := `{"insns":{"add":1},"cycles":0.5,"time":"2026-11-22T00:00:00Z"}
{"insns":{"add":1,"mul":1},"cycles":1.2,"time":"2026-11-22T00:00:01Z"}
{"insns":{"bad":1},"error":"SIGILL","time":"2026-11-22T00:00:02Z"}
{"insns":{"mul":1,"add":1},"cycles":1,"time":"2026-11-22T00:00:03Z"}
{"insns":{"mul":1},"cyc`
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(lines))
	zw.Close()
	if err := os.WriteFile(path+".gz", gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + ".gz"} {
		set, failures, err := ReadCampaign(p)
		if err != nil {
			t.Fatal(err)
		}
		// The re-measured pair keeps its last value and its first place; the
		// incomplete last line is in-flight work and ignored.
		if set.Len() != 2 || set.Measurements[1].Cycles != 1 || set.Measurements[1].Experiment.String() != "{add ↦ 1, mul ↦ 1}" {
			t.Errorf("%s: %v", p, set.Measurements)
		}
		if len(failures) != 1 || failures[0].Reason != "SIGILL" {
			t.Errorf("%s: failures %v", p, failures)
		}
	}
	// Reading does not modify the file.
	if data, _ := os.ReadFile(path); string(data) != lines {
		t.Error("ReadCampaign changed the file")
	}
	os.WriteFile(path, []byte("{\"insns\":{\"add\":1},\"cycles\":1}\nnot json\n"), 0o644)
	if _, _, err := ReadCampaign(path); err == nil || !strings.Contains(err.Error(), "c.jsonl:2:1") {
		t.Errorf("malformed line: %v", err)
	}
}

func TestReadExperimentsReadsCampaigns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.jsonl")
	os.WriteFile(path, []byte(`{"insns":{"add":1},"cycles":0.5,"min":0.49,"dispersion":0.01,"time":"2026-11-22T00:00:00Z"}
{"insns":{"ud2":1},"error":"SIGILL","time":"2026-11-22T00:00:02Z"}
`), 0o644)
	set, err := ReadExperiments(path)
	if err != nil || set.Len() != 1 || set.Measurements[0].Min != 0.49 || set.Measurements[0].Dispersion != 0.01 {
		t.Fatalf("%v %v", set, err)
	}
	// A record round-trips every field of a measurement.
	m := Measurement{Experiment: NewExperiment("a", "a", "b"), Cycles: 1.5, Min: 1.4, Max: 1.7, Dispersion: 0.02, Contention: 0.01, Uops: 3, PortUops: []float64{1, 2}}
	line, err := RecordOf(m, time.Unix(0, 0)).MarshalLine()
	if err != nil {
		t.Fatal(err)
	}
	recs, n, err := ParseCampaign("x", line)
	if err != nil || n != len(line) || len(recs) != 1 {
		t.Fatalf("%v %d %v", recs, n, err)
	}
	got := recs[0].Measurement()
	if !got.Experiment.Equal(m.Experiment) || got.Cycles != m.Cycles || got.Min != m.Min || got.Max != m.Max ||
		got.Dispersion != m.Dispersion || got.Contention != m.Contention || got.Uops != m.Uops || len(got.PortUops) != 2 || got.PortUops[1] != 2 {
		t.Errorf("round trip: %+v, want %+v", got, m)
	}
	f := FailedRecord(NewExperiment("ud2"), "SIGILL", true, time.Unix(0, 0))
	if line, _ := f.MarshalLine(); !strings.Contains(string(line), `"transient":true`) || !strings.Contains(string(line), `"error":"SIGILL"`) {
		t.Errorf("failed record: %s", line)
	}
}
