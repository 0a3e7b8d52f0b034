package measure

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

func toyMapping() *portmap.Mapping {
	m := portmap.MustMapping("toy", "p1", "p2", "p3")
	m.MustSetUsage("mul", "1*[p1]").MustSetUsage("add", "1*[p1,p2]").MustSetUsage("store", "1*[p3]").MustSetUsage("div", "3*[p1]")
	return m
}

// countingOracle counts calls and can fail on one instruction, or
// transiently (as a killed worker does) on the next few calls (of the
// experiment transientKey, if set).
type countingOracle struct {
	oracle.Oracle
	calls        atomic.Int64
	fail         string
	transient    atomic.Int64
	transientKey string
	delay        time.Duration
}

func (o *countingOracle) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	o.calls.Add(1)
	time.Sleep(o.delay)
	if (o.transientKey == "" || o.transientKey == e.Key()) && o.transient.Add(-1) >= 0 {
		return portmap.Measurement{}, &FaultError{Kernel: e.String(), Signal: "SIGKILL"}
	}
	if o.fail != "" && e.Count(o.fail) > 0 {
		return portmap.Measurement{}, errors.New("cannot measure " + o.fail)
	}
	return o.Oracle.Measure(ctx, e)
}

func openCampaign(t *testing.T, path string, o oracle.Oracle) *Campaign {
	t.Helper()
	c, err := OpenCampaign(path, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestCampaignResumes(t *testing.T) {
	ctx := context.Background()
	insns := []string{"add", "mul", "store", "div"}
	exps := append(design.Singletons(insns), design.Pairs(insns)...)
	path := filepath.Join(t.TempDir(), "c.jsonl")
	o := &countingOracle{Oracle: oracle.Simulate(toyMapping(), 0, 1), fail: "div"}
	var last oracle.Progress
	c := openCampaign(t, path, o)
	out, err := c.Run(ctx, exps[:5], func(p oracle.Progress) { last = p })
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
	c.Close()
	o.calls.Store(0)
	c = openCampaign(t, path, o)
	out, err = c.Run(ctx, exps, nil)
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
	out, _ = c.Run(ctx, exps, nil)
	if got := o.calls.Load(); got != 4 || len(out.Failures) != 0 {
		t.Errorf("retry: %d calls, %d failures; want 4 calls (the div experiments), 0 failures", got, len(out.Failures))
	}
	// A malformed line in the middle is an error naming file and line.
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte("{\"insns\":{\"add\":1},\"cycles\":0.5}\nnot json\n{\"insns\":{\"mul\":1},\"cycles\":1}\n"), 0o644)
	if _, err := OpenCampaign(bad, o); err == nil || !strings.Contains(err.Error(), "bad.jsonl:2") {
		t.Errorf("malformed line: %v", err)
	}
}

// TestCampaignRetriesKilledWorker: an experiment whose worker was killed
// from outside is measured again in the same run and, if that fails too,
// on the next run; every experiment ends up measured exactly once.
func TestCampaignRetriesKilledWorker(t *testing.T) {
	ctx := context.Background()
	insns := []string{"add", "mul", "store"}
	exps := append(design.Singletons(insns), design.Pairs(insns)...)
	path := filepath.Join(t.TempDir(), "k.jsonl")
	o := &countingOracle{Oracle: oracle.Simulate(toyMapping(), 0, 1), transientKey: exps[0].Key()}
	o.transient.Store(2) // the first experiment fails twice: the retry in the run fails too
	c := openCampaign(t, path, o)
	out, err := c.Run(ctx, exps, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Failures) != 1 || !strings.Contains(out.Failures[0].Reason, "killed") || out.Set.Len() != len(exps)-1 {
		t.Fatalf("first run: %d measured, failures %v", out.Set.Len(), out.Failures)
	}
	c.Close()
	o.calls.Store(0)
	c = openCampaign(t, path, o)
	out, err = c.Run(ctx, exps, nil)
	if err != nil || len(out.Failures) != 0 || out.Set.Len() != len(exps) || o.calls.Load() != 1 || out.Resumed != len(exps)-1 {
		t.Fatalf("rerun: %d measured, %d failed, %d calls, %d resumed, %v", out.Set.Len(), len(out.Failures), o.calls.Load(), out.Resumed, err)
	}
	set, failures, err := portmap.ReadCampaign(path)
	if err != nil || set.Len() != len(exps) || len(failures) != 0 {
		t.Errorf("the file holds %d measurements and failures %v (%v); want every experiment measured once", set.Len(), failures, err)
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
	exps := design.Random(insns, 5, 400, 3)
	var uniq []portmap.Experiment
	seen := map[string]bool{}
	for _, e := range exps {
		if !seen[e.Key()] {
			seen[e.Key()] = true
			uniq = append(uniq, e)
		}
	}
	if path := os.Getenv(envCampaignChild); path != "" {
		o := &countingOracle{Oracle: oracle.Simulate(toyMapping(), 0, 1), delay: 20 * time.Millisecond}
		c, err := OpenCampaign(path, o)
		if err == nil {
			c.Run(context.Background(), uniq, nil)
		}
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
	o := &countingOracle{Oracle: oracle.Simulate(toyMapping(), 0, 1)}
	out, err := openCampaign(t, path, o).Run(context.Background(), uniq, nil)
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

// killingHardware is the hardware oracle with a saboteur: in its first
// batch it kills the worker with SIGKILL after delay, while the passes run.
// (A worker killed between batches is restarted without a trace.)
type killingHardware struct {
	h      *Hardware
	delay  time.Duration
	kills  int
	killed []string       // experiments whose timing the kill broke
	calls  map[string]int // Measure calls (MeasureAll's second try)
	final  map[string]int // results of MeasureBatch
}

func (k *killingHardware) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	k.calls[e.Key()]++
	return k.h.Measure(ctx, e)
}

func (k *killingHardware) Prepare(ctx context.Context, exps []portmap.Experiment) error {
	return k.h.Prepare(ctx, exps)
}

func (k *killingHardware) MeasureBatch(ctx context.Context, exps []portmap.Experiment, done func(int, portmap.Measurement, error)) error {
	if k.kills > 0 {
		k.kills--
		time.AfterFunc(k.delay, func() {
			k.h.Timer.Runner.mu.Lock() // wait for the call in flight to start
			p := k.h.Timer.Runner.cmd
			k.h.Timer.Runner.mu.Unlock()
			if p != nil {
				p.Process.Signal(syscall.SIGKILL)
			}
		})
	}
	return k.h.MeasureBatch(ctx, exps, func(i int, m portmap.Measurement, err error) {
		k.final[exps[i].Key()]++
		if oracle.IsTransient(err) {
			k.killed = append(k.killed, exps[i].Key())
		}
		done(i, m, err)
	})
}

// TestCampaignWorkerKilledOnHardware kills the real measurement worker
// while a campaign measures a batch on this machine: the experiment whose
// timing broke is measured again (a worker killed from outside says
// nothing about the experiment), so the first run ends with no failure,
// the file holds every experiment, and a rerun measures nothing. (A
// failure recorded after repeated kills is re-measured by the rerun:
// TestCampaignRetriesKilledWorker.)
func TestCampaignWorkerKilledOnHardware(t *testing.T) {
	h, err := NewHardware(testCPU(t))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx := context.Background()
	forms := []string{"add RW:GPR:64, R:GPR:64", "imul RW:GPR:64, R:GPR:64", "vaddps W:XMM0..15, R:XMM0..15, R:XMM0..15"}
	exps := append(design.Singletons(forms), design.Pairs(forms)...)
	// Six experiments of at least three passes of tens of milliseconds:
	// the kill falls inside the batch.
	k := &killingHardware{h: h, delay: 100 * time.Millisecond, kills: 1, calls: map[string]int{}, final: map[string]int{}}
	path := filepath.Join(t.TempDir(), "killed.jsonl")
	c := openCampaign(t, path, k)
	out, err := c.Run(ctx, exps, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Failures) != 0 || out.Set.Len() != len(exps) || len(k.killed) != 1 || k.calls[k.killed[0]] != 1 || len(k.calls) != 1 {
		t.Fatalf("first run: %d measured, failures %v, broken by the kill %v, measured again %v; want all measured, one broken and measured again",
			out.Set.Len(), out.Failures, k.killed, k.calls)
	}
	for _, m := range out.Set.Measurements {
		if m.Passes < DefaultPasses || m.Spread < 0 {
			t.Errorf("%v: %d passes, spread %v", m.Experiment, m.Passes, m.Spread)
		}
	}
	c.Close()
	k.calls, k.final = map[string]int{}, map[string]int{}
	c = openCampaign(t, path, k)
	out, err = c.Run(ctx, exps, nil)
	if err != nil || len(out.Failures) != 0 || out.Set.Len() != len(exps) || out.Resumed != len(exps) || len(k.calls)+len(k.final) != 0 {
		t.Fatalf("rerun: %d measured, %d resumed, failures %v, measured again %v %v, %v", out.Set.Len(), out.Resumed, out.Failures, k.calls, k.final, err)
	}
	set, failures, err := portmap.ReadCampaign(path)
	if err != nil || set.Len() != len(exps) || len(failures) != 0 {
		t.Errorf("the file holds %d measurements and failures %v (%v); want every experiment measured once", set.Len(), failures, err)
	}
	for _, m := range set.Measurements {
		if m.Passes < DefaultPasses {
			t.Errorf("stored %v: %d passes", m.Experiment, m.Passes)
		}
	}
}

// unsettledOracle answers with a spread and contention scripted per
// experiment and call: the passes of "add" disagree at first and agree the
// second time, those of "mul" disagree both times (the second time worse),
// "div" runs contended at first, "store" is fine.
type unsettledOracle struct {
	calls map[string]int
}

func (o *unsettledOracle) Measure(_ context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	n := min(o.calls[e.Key()], 1)
	o.calls[e.Key()]++
	m := portmap.Measurement{Experiment: e, Cycles: 1, Passes: 3, Spread: 0.001}
	switch e.String() {
	case portmap.NewExperiment("add").String():
		m.Cycles, m.Spread = []float64{0.8, 1}[n], []float64{0.2, 0.01}[n]
	case portmap.NewExperiment("mul").String():
		m.Cycles, m.Spread = []float64{2, 3}[n], []float64{0.15, 0.3}[n]
	case portmap.NewExperiment("div").String():
		m.Cycles, m.Contention = []float64{4.5, 3}[n], []float64{0.5, 0.01}[n]
	}
	return m, nil
}

// TestCampaignResettles checks that a campaign run measures the
// experiments whose passes disagreed or ran contended once more at its
// end, keeps the measurement with less doubt, marks it in the file, and
// does not measure them a third time when resumed; Resettle < 0 turns it
// off.
func TestCampaignResettles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.jsonl")
	o := &unsettledOracle{calls: map[string]int{}}
	c := openCampaign(t, path, o)
	exps := []portmap.Experiment{portmap.NewExperiment("add"), portmap.NewExperiment("mul"), portmap.NewExperiment("div"), portmap.NewExperiment("store")}
	out, err := c.Run(context.Background(), exps, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.Remeasured != 3 || out.Improved != 2 {
		t.Errorf("remeasured %d, improved %d; want 3, 2", out.Remeasured, out.Improved)
	}
	want := []float64{1, 2, 3, 1}
	for i, m := range out.Set.Measurements {
		if m.Experiment.Key() != exps[i].Key() || m.Cycles != want[i] {
			t.Errorf("%v: %v cycles (spread %v, contention %v), want %v", m.Experiment, m.Cycles, m.Spread, m.Contention, want[i])
		}
	}
	if o.calls[exps[3].Key()] != 1 || countLines(t, path) != 7 {
		t.Errorf("store measured %d times, %d lines in the file; want 1, 7", o.calls[exps[3].Key()], countLines(t, path))
	}
	c.Close()

	// Resumed: everything from the file, the last line of each counting.
	c = openCampaign(t, path, o)
	out, err = c.Run(context.Background(), exps, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.Resumed != 4 || out.Remeasured != 0 || o.calls[exps[0].Key()] != 2 || o.calls[exps[1].Key()] != 2 {
		t.Errorf("resumed %d, remeasured %d, calls %v", out.Resumed, out.Remeasured, o.calls)
	}
	set, _, err := portmap.ReadCampaign(path)
	if err != nil || set.Len() != 4 {
		t.Fatalf("ReadCampaign: %v, %v", set, err)
	}
	for i, m := range set.Measurements {
		if m.Cycles != want[i] {
			t.Errorf("%v read back as %v cycles, want %v", m.Experiment, m.Cycles, want[i])
		}
	}

	// Off.
	path2 := filepath.Join(t.TempDir(), "c.jsonl")
	o2 := &unsettledOracle{calls: map[string]int{}}
	c2 := openCampaign(t, path2, o2)
	c2.Resettle = -1
	if out, err := c2.Run(context.Background(), exps, nil); err != nil || out.Remeasured != 0 || o2.calls[exps[0].Key()] != 1 {
		t.Errorf("Resettle -1: %+v, %v, calls %v", out, err, o2.calls)
	}
}

// cancelling cancels a context once its oracle has measured key n times.
type cancelling struct {
	*unsettledOracle
	key    string
	n      int
	cancel context.CancelFunc
}

func (o *cancelling) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	m, err := o.unsettledOracle.Measure(ctx, e)
	if e.Key() == o.key && o.calls[o.key] == o.n {
		o.cancel()
	}
	return m, err
}

// TestCampaignResettleInterrupted: an interrupt during the second look
// keeps every second measurement made until then in the file, and the
// rerun measures again only the rest.
func TestCampaignResettleInterrupted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.jsonl")
	exps := []portmap.Experiment{portmap.NewExperiment("add"), portmap.NewExperiment("mul"), portmap.NewExperiment("div"), portmap.NewExperiment("store")}
	ctx, cancel := context.WithCancel(context.Background())
	o := &cancelling{unsettledOracle: &unsettledOracle{calls: map[string]int{}}, key: exps[1].Key(), n: 2, cancel: cancel}
	c := openCampaign(t, path, o)
	if _, err := c.Run(ctx, exps, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	c.Close()
	if n := countLines(t, path); n != 6 {
		t.Errorf("%d lines after the interrupt, want 6 (4 first measurements, add and mul again)", n)
	}
	c = openCampaign(t, path, o.unsettledOracle)
	out, err := c.Run(context.Background(), exps, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.Remeasured != 1 || o.calls[exps[0].Key()] != 2 || o.calls[exps[1].Key()] != 2 || o.calls[exps[2].Key()] != 2 {
		t.Errorf("rerun: remeasured %d, calls %v; want div alone measured again", out.Remeasured, o.calls)
	}
	for i, want := range []float64{1, 2, 3, 1} {
		if m := out.Set.Measurements[i]; m.Cycles != want {
			t.Errorf("%v: %v cycles, want %v", m.Experiment, m.Cycles, want)
		}
	}
}

// TestCampaignCountsOnlyEarlierRuns: results this campaign measured are
// not counted as from earlier runs when asked for again — a fresh
// pipeline run said "11848 measured (120 from earlier runs)": the PMEvo
// design measures the singletons first (to choose its ratios), then asks
// for them with the rest — and an experiment a batch holds twice is
// measured once.
func TestCampaignCountsOnlyEarlierRuns(t *testing.T) {
	ctx := context.Background()
	insns := []string{"add", "mul", "store"}
	singles := design.Singletons(insns)
	pairs := design.Pairs(insns)
	exps := append(append(slices.Clone(singles), pairs...), singles[0], pairs[0])
	path := filepath.Join(t.TempDir(), "c.jsonl")
	o := &countingOracle{Oracle: oracle.Simulate(toyMapping(), 0, 1)}
	c := openCampaign(t, path, o)
	if _, _, err := oracle.MeasureAll(ctx, c, singles, nil); err != nil {
		t.Fatal(err)
	}
	out, err := c.Run(ctx, exps, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := o.calls.Load(), int64(len(exps)-2); got != want || out.Resumed != 0 || out.Set.Len()+len(out.Failures) != len(exps) {
		t.Errorf("fresh campaign: %d measured, %d from earlier runs, %d results; want %d, 0, %d", got, out.Resumed, out.Set.Len(), want, len(exps))
	}
	c.Close()
	c = openCampaign(t, path, o)
	defer c.Close()
	out, err = c.Run(ctx, exps, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.Resumed != len(exps) {
		t.Errorf("rerun: %d from earlier runs, want %d", out.Resumed, len(exps))
	}
}
