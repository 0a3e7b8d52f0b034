package measure

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/portmap"
)

func toyMapping() *portmap.Mapping {
	m := portmap.MustMapping("toy", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]").MustSetUsage("div", "3*[p1]")
	return m
}

func TestDesign(t *testing.T) {
	insns := []string{"add", "mul", "store", "div"}
	if n := len(Singletons(insns)); n != 4 {
		t.Errorf("%d singletons", n)
	}
	if n := len(Pairs(insns)); n != 6 {
		t.Errorf("%d pairs, want 6", n)
	}
	single := map[string]float64{"add": 0.5, "mul": 1, "store": 1, "div": 3}
	rp, err := RatioPairs(insns, single)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range rp {
		got = append(got, e.String())
	}
	want := []string{"{add ↦ 2, mul ↦ 1}", "{add ↦ 2, store ↦ 1}", "{add ↦ 6, div ↦ 1}", "{div ↦ 1, mul ↦ 3}", "{div ↦ 1, store ↦ 3}"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("ratio pairs\n%v\nwant\n%v", got, want)
	}
	if _, err := RatioPairs([]string{"add", "nop"}, single); err == nil || !strings.Contains(err.Error(), `"nop"`) {
		t.Errorf("missing singleton: %v", err)
	}
	a, b := RandomExperiments(insns, 5, 100, 7), RandomExperiments(insns, 5, 100, 7)
	for i := range a {
		if !a[i].Equal(b[i]) || a[i].Len() != 5 {
			t.Fatalf("random experiment %d: %v vs %v", i, a[i], b[i])
		}
	}
}

func TestOracles(t *testing.T) {
	ctx := context.Background()
	e := portmap.NewExperiment("add", "add", "mul", "store")
	exact := NewSimulated(toyMapping(), 0, 1)
	if c, err := exact.Cycles(ctx, e); err != nil || c != 1.5 {
		t.Fatalf("exact: %v, %v", c, err)
	}
	noisy := NewSimulated(toyMapping(), 0.02, 1)
	var sum, sq float64
	const n = 4000
	for i := 0; i < n; i++ {
		c, _ := noisy.Cycles(ctx, e)
		sum += c
		sq += c * c
	}
	mean := sum / n
	sd := (sq/n - mean*mean)
	if mean < 1.49 || mean > 1.51 || sd < 0.0004 || sd > 0.0011 { // variance (0.02·1.5)² = 0.0009
		t.Errorf("noise: mean %v variance %v, want 1.5 and 0.0009", mean, sd)
	}
	set := &portmap.ExperimentSet{Measurements: []portmap.Measurement{{Experiment: e, Cycles: 1.6}}}
	rp := NewReplay("test set", set)
	if c, err := rp.Cycles(ctx, portmap.NewExperiment("mul", "store", "add", "add")); err != nil || c != 1.6 {
		t.Errorf("replay: %v %v", c, err)
	}
	if _, err := rp.Cycles(ctx, portmap.NewExperiment("div")); err == nil || !strings.Contains(err.Error(), "test set") {
		t.Errorf("replay of unknown: %v", err)
	}
}

// countingOracle counts calls and can fail on one instruction.
type countingOracle struct {
	Oracle
	calls atomic.Int64
	fail  string
	delay time.Duration
}

func (o *countingOracle) Cycles(ctx context.Context, e portmap.Experiment) (float64, error) {
	o.calls.Add(1)
	time.Sleep(o.delay)
	if o.fail != "" && e.Count(o.fail) > 0 {
		return 0, errors.New("cannot measure " + o.fail)
	}
	return o.Oracle.Cycles(ctx, e)
}

func TestCampaignResumes(t *testing.T) {
	ctx := context.Background()
	insns := []string{"add", "mul", "store", "div"}
	exps := append(Singletons(insns), Pairs(insns)...)
	path := filepath.Join(t.TempDir(), "c.jsonl")
	o := &countingOracle{Oracle: NewSimulated(toyMapping(), 0, 1), fail: "div"}
	var last Progress
	c := &Campaign{Path: path, Oracle: o, Progress: func(p Progress) { last = p }}
	out, err := c.Run(ctx, exps[:5])
	if err != nil {
		t.Fatal(err)
	}
	if out.Set.Len() != 4 || len(out.Failures) != 1 || last.Done != 5 || last.Failed != 1 {
		t.Fatalf("first run: %d measured, %d failed, progress %+v", out.Set.Len(), len(out.Failures), last)
	}
	// A crash while writing leaves half a line: it is dropped on resume.
	fh, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	fh.WriteString(`{"insns":{"add":1,"mu`)
	fh.Close()
	o.calls.Store(0)
	out, err = c.Run(ctx, exps)
	if err != nil {
		t.Fatal(err)
	}
	if got := o.calls.Load(); got != int64(len(exps)-5) {
		t.Errorf("second run measured %d experiments, want %d", got, len(exps)-5)
	}
	if out.Resumed != 5 || out.Set.Len()+len(out.Failures) != len(exps) {
		t.Errorf("second run: resumed %d, %d + %d results", out.Resumed, out.Set.Len(), len(out.Failures))
	}
	if n := countLines(t, path); n != len(exps) {
		t.Errorf("file has %d lines, want %d", n, len(exps))
	}
	// Failed ones are retried on request.
	o.calls.Store(0)
	o.fail = ""
	c.RetryErrors = true
	out, _ = c.Run(ctx, exps)
	if got := o.calls.Load(); got != 4 || len(out.Failures) != 0 {
		t.Errorf("retry: %d calls, %d failures; want 4 calls (the div experiments), 0 failures", got, len(out.Failures))
	}
	// A malformed line in the middle is an error naming file and line.
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte("{\"insns\":{\"add\":1},\"cycles\":0.5}\nnot json\n{\"insns\":{\"mul\":1},\"cycles\":1}\n"), 0o644)
	if _, err := (&Campaign{Path: bad, Oracle: o}).Run(ctx, exps); err == nil || !strings.Contains(err.Error(), "bad.jsonl:2") {
		t.Errorf("malformed line: %v", err)
	}
}

func countLines(t *testing.T, path string) int {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for s := bufio.NewScanner(f); s.Scan(); n++ {
	}
	return n
}

const envCampaignChild = "PORTLAB_TEST_CAMPAIGN_CHILD"

// TestCampaignSurvivesSIGKILL runs a slow campaign in a child process, kills
// it with SIGKILL mid-way and checks that a second run measures exactly the
// experiments that were not yet written.
func TestCampaignSurvivesSIGKILL(t *testing.T) {
	insns := []string{"add", "mul", "store", "div"}
	exps := RandomExperiments(insns, 5, 400, 3)
	var uniq []portmap.Experiment
	seen := map[string]bool{}
	for _, e := range exps {
		if !seen[e.Key()] {
			seen[e.Key()] = true
			uniq = append(uniq, e)
		}
	}
	if path := os.Getenv(envCampaignChild); path != "" {
		o := &countingOracle{Oracle: NewSimulated(toyMapping(), 0, 1), delay: 20 * time.Millisecond}
		(&Campaign{Path: path, Oracle: o}).Run(context.Background(), uniq)
		os.Exit(0)
	}
	path := filepath.Join(t.TempDir(), "killed.jsonl")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCampaignSurvivesSIGKILL$")
	cmd.Env = append(os.Environ(), envCampaignChild+"="+path)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if b, _ := os.ReadFile(path); strings.Count(string(b), "\n") >= 10 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Kill() // SIGKILL
	cmd.Wait()
	before := countLines(t, path)
	if before < 10 || before >= len(uniq) {
		t.Fatalf("child wrote %d of %d lines before the kill", before, len(uniq))
	}
	o := &countingOracle{Oracle: NewSimulated(toyMapping(), 0, 1)}
	out, err := (&Campaign{Path: path, Oracle: o}).Run(context.Background(), uniq)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := o.calls.Load(), int64(len(uniq)-before); got != want {
		t.Errorf("after SIGKILL with %d lines written, the rerun measured %d experiments, want %d", before, got, want)
	}
	if out.Set.Len() != len(uniq) || countLines(t, path) != len(uniq) {
		t.Errorf("after the rerun: %d results, %d lines; want %d", out.Set.Len(), countLines(t, path), len(uniq))
	}
	t.Logf("killed after %d of %d experiments; the rerun measured the other %d", before, len(uniq), o.calls.Load())
}

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
		if len(failures) != 1 || failures[0].Error != "SIGILL" {
			t.Errorf("%s: failures %v", p, failures)
		}
	}
	// Reading does not modify the file.
	if data, _ := os.ReadFile(path); string(data) != lines {
		t.Error("ReadCampaign changed the file")
	}
	os.WriteFile(path, []byte("{\"insns\":{\"add\":1},\"cycles\":1}\nnot json\n"), 0o644)
	if _, _, err := ReadCampaign(path); err == nil || !strings.Contains(err.Error(), "c.jsonl:2") {
		t.Errorf("malformed line: %v", err)
	}
}
