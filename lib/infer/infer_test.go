package infer

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// echo maps every instruction to one µop on port 0 after asking the oracle
// about each instruction twice; it stops early when ctx is cancelled,
// returning what it has.
type echo struct{ asked []string }

func (*echo) Name() string { return "echo" }

func (*echo) Uses() Needs { return Needs{Queries: true} }

func (e *echo) Infer(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	m := portmap.MustMapping("echo", "0")
	for _, insn := range p.Instructions {
		if err := ctx.Err(); err != nil {
			return &Result{Mapping: m}, err
		}
		for range 2 {
			if _, err := p.Oracle.Measure(ctx, portmap.NewExperiment(insn)); err != nil {
				return nil, err
			}
		}
		e.asked = append(e.asked, insn)
		m.MustSetUsage(insn, "1*p0")
		s.Notify("asking", len(e.asked), len(p.Instructions), "")
	}
	return &Result{Mapping: m, Report: &echoReport{Asked: len(e.asked)}}, nil
}

// echoReport is echo's report.
type echoReport struct{ Asked int }

func (r *echoReport) String() string                      { return fmt.Sprintf("asked %d", r.Asked) }
func (r *echoReport) HTML() string                        { return (&HTML{}).Para(r.String()).String() }
func (r *echoReport) WriteFiles(string) ([]string, error) { return nil, nil }

func (e *echo) SetFlags(fs *flag.FlagSet) {}

func toy() *portmap.Mapping {
	m := portmap.MustMapping("toy", "0", "1")
	m.MustSetUsage("a", "1*p01").MustSetUsage("b", "1*p0")
	return m
}

func TestInfer(t *testing.T) {
	ctx := t.Context()
	data := &portmap.ExperimentSet{Measurements: []portmap.Measurement{
		{Experiment: portmap.NewExperiment("b", "a"), Cycles: 1}, {Experiment: portmap.NewExperiment("a"), Cycles: 0.5},
	}}
	var last Progress
	r, err := Infer(ctx, Problem{Oracle: oracle.Simulate(toy(), 0, 1), Data: data, Ports: 1}, &echo{}, &Settings{Progress: func(s Progress) { last = s }})
	if err != nil {
		t.Fatal(err)
	}
	if r.Method != "echo" || r.Queries != 4 || r.Distinct != 2 || r.Data != 2 || r.Elapsed <= 0 || last.Done != 2 {
		t.Errorf("result %+v, last status %+v", r, last)
	}
	if r.Mapping.Usage("b") != "1*p0" || r.Predictor == nil || !strings.Contains(r.String(), "4 oracle queries (2 distinct), 2 stored measurements") {
		t.Errorf("result %v", r)
	}
	got, _ := r.Predictor.Predict(ctx, []portmap.Experiment{portmap.NewExperiment("a", "b")})
	if got[0] != 2 {
		t.Errorf("prediction %v", got)
	}
	names, err := r.WriteFiles(filepath.Join(t.TempDir(), "out"))
	if err != nil || len(names) != 3 {
		t.Fatalf("%v %v", names, err)
	}
	if m, err := portmap.ReadMapping(names[1]); err != nil || m.Usage("a") != "1*p0" {
		t.Errorf("PMEvo mapping: %v %v", m, err)
	}
	if b, _ := os.ReadFile(names[2]); !strings.Contains(string(b), `"Asked": 2`) || !strings.Contains(string(b), `"Queries": 4`) {
		t.Errorf("report: %s", b)
	}

	// Cancelled: the best result so far comes with ctx's error.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	r, err = Infer(cctx, Problem{Oracle: oracle.Simulate(toy(), 0, 1), Instructions: []string{"a"}, Ports: 1}, &echo{}, nil)
	if !errors.Is(err, context.Canceled) || r == nil || r.Mapping == nil {
		t.Errorf("cancelled: %v, %v", r, err)
	}

	for _, c := range []struct {
		p    Problem
		want string
	}{
		{Problem{Ports: 1, Instructions: []string{"a"}}, "neither an oracle nor data"},
		{Problem{Oracle: oracle.Simulate(toy(), 0, 1), Ports: 1}, "no instructions"},
		{Problem{Oracle: oracle.Simulate(toy(), 0, 1), Instructions: []string{"a"}, Ports: 2, PortNames: []string{"x"}}, "1 port names for 2 ports"},
		{Problem{Oracle: oracle.Simulate(toy(), 0, 1), Instructions: []string{"nope"}, Ports: 1}, "nope"},
	} {
		if _, err := Infer(ctx, c.p, &echo{}, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.p, err, c.want)
		}
	}
}

func TestRegistry(t *testing.T) {
	Register("echo-test", func() Method { return &echo{} })
	m, err := New("echo-test")
	if err != nil || m.Name() != "echo" {
		t.Fatal(m, err)
	}
	if _, err := New("nonesuch"); !errors.Is(err, ErrUnknownMethod) || !strings.Contains(err.Error(), "echo-test") {
		t.Errorf("unknown: %v", err)
	}
	found := false
	for _, n := range Methods() {
		found = found || n == "echo-test"
	}
	if !found {
		t.Errorf("Methods() = %v", Methods())
	}
	defer func() {
		if recover() == nil {
			t.Error("registering twice does not panic")
		}
	}()
	Register("echo-test", func() Method { return &echo{} })
}

// batcher is an oracle that measures batches and reports its noise.
type batcher struct {
	oracle.Oracle
	batches []int
}

func (b *batcher) MeasureBatch(ctx context.Context, exps []portmap.Experiment, done func(int, portmap.Measurement, error)) error {
	b.batches = append(b.batches, len(exps))
	for i, e := range exps {
		m, err := b.Oracle.Measure(ctx, e)
		done(i, m, err)
	}
	return nil
}

func (b *batcher) Noise() (float64, int) { return 0.01, 7 }

// measureAll asks for every instruction alone in one MeasureAll and
// records the noise its oracle reports.
type measureAll struct{ sigma float64 }

func (*measureAll) Name() string { return "measureAll" }

func (*measureAll) Uses() Needs { return Needs{Queries: true} }

func (m *measureAll) Infer(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	var exps []portmap.Experiment
	for _, insn := range p.Instructions {
		exps = append(exps, portmap.NewExperiment(insn))
	}
	if _, _, err := oracle.MeasureAll(ctx, p.Oracle, exps, nil); err != nil {
		return nil, err
	}
	if nr, ok := p.Oracle.(oracle.NoiseReporter); ok {
		m.sigma, _ = nr.Noise()
	}
	return &Result{Mapping: toy()}, nil
}

// Infer's query counter passes batches and the noise figure through to
// the problem's oracle, counting each experiment of a batch.
func TestInferPassesBatches(t *testing.T) {
	b := &batcher{Oracle: oracle.Simulate(toy(), 0, 1)}
	m := &measureAll{}
	res, err := Infer(t.Context(), Problem{Oracle: b, Instructions: toy().Instructions(), Ports: 2}, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := len(toy().Instructions())
	if len(b.batches) != 1 || b.batches[0] != n || res.Queries != n || res.Distinct != n || m.sigma != 0.01 {
		t.Errorf("batches %v, queries %d (%d distinct), noise %g; want one batch of %d, 0.01", b.batches, res.Queries, res.Distinct, m.sigma, n)
	}
}
