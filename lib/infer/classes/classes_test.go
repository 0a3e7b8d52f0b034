package classes_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/infer/classes"
	_ "github.com/portlab/portlab/lib/infer/palmed"
	_ "github.com/portlab/portlab/lib/infer/pmevo"
	"github.com/portlab/portlab/lib/measure"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// small is a 4-port machine whose forms fall into seven classes of equal
// port usage, with a form that costs no port (MOV, as a move the renamer
// eliminates).
func small() *portmap.Mapping {
	m := portmap.MustMapping("small", "p0", "p1", "p2", "p3")
	for _, u := range [][2]string{
		{"A1", "1*p0123"}, {"A2", "1*p0123"}, {"A3", "1*p0123"},
		{"B1", "1*p01"}, {"B2", "1*p01"},
		{"C1", "1*p23"}, {"C2", "1*p23"},
		{"D1", "1*p0"}, {"D2", "1*p0"},
		{"E1", "1*p3"},
		{"F1", "1*p0+1*p23"}, {"F2", "1*p0+1*p23"},
		{"G1", "3*p1"},
	} {
		m.MustSetUsage(u[0], u[1])
	}
	if err := m.Set("MOV"); err != nil {
		panic(err)
	}
	return m
}

// groups returns the forms of m grouped by equal usage, each group sorted
// and the groups sorted, without the forms of no µops.
func groups(m *portmap.Mapping) [][]string {
	by := map[string][]string{}
	for _, f := range m.Instructions() {
		if u := m.Usage(f); m.NumUops(f) > 0 {
			by[u] = append(by[u], f)
		}
	}
	var out [][]string
	for _, g := range by {
		sort.Strings(g)
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

func found(rep *classes.Report) [][]string {
	var out [][]string
	for _, c := range rep.Classes {
		g := append([]string{c.Representative}, c.Members...)
		sort.Strings(g)
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

func run(t *testing.T, o oracle.Oracle, forms []string, m *classes.Method, ports int) (*infer.Result, *classes.Report, error) {
	t.Helper()
	res, err := infer.Infer(context.Background(), infer.Problem{Oracle: o, Instructions: forms, Ports: ports}, m, &infer.Settings{Seed: 1, Workers: 1})
	if res == nil {
		return nil, nil, err
	}
	return res, res.Report.(*classes.Report), err
}

// The classes are the groups of equal port usage, exactly; every member
// predicts as its representative, every experiment of up to two forms as
// the truth, and the form without µops is reported, not put on a port.
func TestClassesExact(t *testing.T) {
	truth := small()
	forms := truth.Instructions()
	res, rep, err := run(t, oracle.Simulate(truth, 0, 1), forms, classes.New(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := found(rep), groups(truth); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("classes %v, want %v", got, want)
	}
	if len(rep.PortLess) != 1 || rep.PortLess[0].Form != "MOV" {
		t.Errorf("forms without a port: %v, want MOV", rep.PortLess)
	}
	if rep.Mapped != len(forms) || len(rep.Unmeasured) != 0 {
		t.Errorf("%d of %d mapped, unmapped %v", rep.Mapped, len(forms), rep.Unmeasured)
	}
	if c := rep.Counts(); c["ok"] != len(forms)-1-len(rep.Classes) {
		t.Errorf("checks %v, want every one of the %d members ok", c, len(forms)-1-len(rep.Classes))
	}
	var exps []portmap.Experiment
	for i, a := range forms {
		for _, b := range forms[i:] {
			exps = append(exps, portmap.NewExperiment(a, b))
		}
	}
	sim := oracle.Simulate(truth, 0, 1)
	got, err := res.Predictor.Predict(context.Background(), exps)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range exps {
		want, _ := oracle.Cycles(context.Background(), sim, e)
		// MOV beside anything costs the front end only: the predictor's
		// cap of the most instructions per cycle measured.
		if e.Count("MOV") > 0 {
			want = max(want, float64(e.Len())/rep.FrontEndIPC)
		}
		if d := got[i] - want; d > 1e-6 || d < -1e-6 {
			t.Errorf("%v: %.4g cycles predicted, %.4g true", e, got[i], want)
		}
	}
	design := len(forms) * len(forms)
	if res.Distinct >= design {
		t.Errorf("%d experiments measured, no fewer than the pairs design's %d", res.Distinct, design)
	}
}

// With a method that needs the number of ports, the count is chosen from
// the data: the independent mix runs 4 instructions per cycle, and 4
// ports fit as well as 5.
func TestPortsFromData(t *testing.T) {
	truth := small()
	truth.Delete("MOV")
	m := classes.New()
	m.Config.Method, m.Config.PortRange, m.Config.InnerTime, m.Config.Population = "pmevo", 1, 5*time.Second, 300
	res, rep, err := run(t, oracle.Simulate(truth, 0, 1), truth.Instructions(), m, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rep.MixIPC != 4 {
		t.Errorf("independent mix %s: %v instructions per cycle, want 4", rep.Mix, rep.MixIPC)
	}
	if len(rep.PortFits) != 2 || rep.Ports != 4 || res.Mapping.NumPorts() != 4 {
		t.Errorf("port counts tried %v, chosen %d, want 4 of 4 and 5", rep.PortFits, rep.Ports)
	}
	// Members carry their representative's µops.
	for _, c := range rep.Classes {
		u := res.Mapping.Usage(c.Representative)
		for _, f := range c.Members {
			if got := res.Mapping.Usage(f); got != u {
				t.Errorf("%s: %s, its representative %s: %s", f, got, c.Representative, u)
			}
		}
	}
}

// failing fails every experiment with the form bad in it, as the host
// fails a form it cannot assemble or run.
type failing struct {
	oracle.Oracle
	bad string
}

func (f failing) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	if e.Count(f.bad) > 0 {
		return portmap.Measurement{}, &oracle.InsnError{Insn: f.bad, Err: errors.New("cannot be assembled")}
	}
	return f.Oracle.Measure(ctx, e)
}

// A form that cannot be measured is recorded with the reason, and the rest
// are mapped.
func TestUnmeasurableForm(t *testing.T) {
	truth := small()
	forms := append(truth.Instructions(), "BAD")
	_, rep, err := run(t, failing{oracle.Simulate(truth, 0, 1), "BAD"}, forms, classes.New(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Unmeasured) != 1 || rep.Unmeasured[0].Form != "BAD" || !strings.Contains(rep.Unmeasured[0].Reason, "cannot be assembled") {
		t.Errorf("unmapped %v, want BAD with its reason", rep.Unmeasured)
	}
	if rep.Mapped != len(forms)-1 {
		t.Errorf("%d of %d forms mapped, want all but BAD", rep.Mapped, len(forms))
	}
}

// stopAfter cancels its context once n experiments were measured: a run
// killed halfway.
type stopAfter struct {
	oracle.Oracle
	n      int64
	done   atomic.Int64
	cancel context.CancelFunc
}

func (s *stopAfter) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	if s.done.Add(1) > s.n {
		s.cancel()
		return portmap.Measurement{}, context.Canceled
	}
	return s.Oracle.Measure(ctx, e)
}

// counting counts what reaches the simulation.
type counting struct {
	oracle.Oracle
	n atomic.Int64
}

func (c *counting) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	c.n.Add(1)
	return c.Oracle.Measure(ctx, e)
}

// A run killed halfway keeps what it measured in the campaign file; the
// rerun measures only the rest and finds the classes of a run never
// killed.
func TestResume(t *testing.T) {
	truth := small()
	forms := truth.Instructions()
	path := filepath.Join(t.TempDir(), "classes.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	killed := &stopAfter{Oracle: oracle.Simulate(truth, 0, 1), n: 150, cancel: cancel}
	c, err := measure.OpenCampaign(path, killed)
	if err != nil {
		t.Fatal(err)
	}
	_, err = infer.Infer(ctx, infer.Problem{Oracle: c, Instructions: forms}, classes.New(), &infer.Settings{Seed: 1, Workers: 1})
	if err == nil {
		t.Fatal("the killed run reported no error")
	}
	c.Close()
	kept := c.Measured()
	if kept == 0 {
		t.Fatal("the killed run kept no measurement")
	}

	inner := &counting{Oracle: oracle.Simulate(truth, 0, 1)}
	c, err = measure.OpenCampaign(path, inner)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, rep, err := run(t, c, forms, classes.New(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := int(inner.n.Load()); got+kept != res.Distinct {
		t.Errorf("the rerun measured %d experiments and the file held %d; the run needed %d distinct", got, kept, res.Distinct)
	}
	_, fresh, err := run(t, oracle.Simulate(truth, 0, 1), forms, classes.New(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := found(rep), found(fresh); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("resumed classes %v, uninterrupted %v", got, want)
	}
}

// A method name nobody registered is refused before anything is measured.
func TestUnknownMethod(t *testing.T) {
	inner := &counting{Oracle: oracle.Simulate(small(), 0, 1)}
	m := classes.New()
	m.Config.Method = "nosuch"
	if _, _, err := run(t, inner, small().Instructions(), m, 0); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("error %v, want one naming nosuch", err)
	}
	if n := inner.n.Load(); n != 0 {
		t.Errorf("%d experiments measured before the refusal", n)
	}
}

// On a machine with a front end (6 per cycle, given) where MOV costs no
// port but a front-end slot, PALMED maps MOV's class to the front end only and
// the classes inherit that: MOV is reported without µops, and every
// experiment of up to two forms is predicted as the truth runs it.
func TestClassesFrontEndOnly(t *testing.T) {
	truth := small()
	sim := oracle.Simulate(truth, 0, 1)
	sim.Model = sim.Model.WithFrontEnd(throughput.FrontEnd{InstructionsPerCycle: 6})
	forms := truth.Instructions()
	res, err := infer.Infer(context.Background(), infer.Problem{Oracle: sim, Instructions: forms, InstructionsPerCycle: 6}, classes.New(), &infer.Settings{Seed: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report.(*classes.Report)
	if len(rep.PortLess) != 1 || rep.PortLess[0].Form != "MOV" || !strings.Contains(rep.PortLess[0].Reason, "front end") {
		t.Errorf("forms without a port: %v, want MOV at the front end", rep.PortLess)
	}
	var exps []portmap.Experiment
	for i, a := range forms {
		for _, b := range forms[i:] {
			exps = append(exps, portmap.NewExperiment(a, b))
		}
	}
	got, err := res.Predictor.Predict(context.Background(), exps)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range exps {
		want, _ := oracle.Cycles(context.Background(), sim, e)
		if d := got[i] - want; d > 1e-6*want || d < -1e-6*want {
			t.Errorf("%v: %v cycles predicted, %v true", e, got[i], want)
		}
	}
}

// misfitting stands for an inner method whose model comes with an error
// (PALMED's misfit kernels): it maps every representative as the truth
// does and returns infer.ErrNoFit beside that result.
type misfitting struct{ truth *portmap.Mapping }

func (*misfitting) Name() string      { return "misfitting-test" }
func (*misfitting) Uses() infer.Needs { return infer.Needs{Queries: true} }
func (m *misfitting) Infer(ctx context.Context, p *infer.Problem, s *infer.Settings) (*infer.Result, error) {
	out := portmap.MustMapping("misfit", m.truth.Ports()...)
	for _, f := range p.Instructions {
		if u := m.truth.Usage(f); m.truth.NumUops(f) > 0 {
			out.MustSetUsage(f, u)
		} else if err := out.Set(f); err != nil {
			return nil, err
		}
	}
	return &infer.Result{Mapping: out}, fmt.Errorf("%w: 3 kernels sub-saturated", infer.ErrNoFit)
}

func init() {
	infer.Register("misfitting-test", func() infer.Method { return &misfitting{truth: small()} })
}

// An error of the inner method's model is the pipeline's too: the result
// is given with the inner method's status and the error, never as
// converged.
func TestInnerErrorIsKept(t *testing.T) {
	m := classes.New()
	m.Config.Method = "misfitting-test"
	res, _, err := run(t, oracle.Simulate(small(), 0, 1), small().Instructions(), m, 0)
	if res == nil || !errors.Is(err, infer.ErrNoFit) || res.Status != infer.NoFit || !strings.Contains(err.Error(), "3 kernels sub-saturated") {
		t.Fatalf("result %v, error %v; want the mapping with status no fit and the inner error", res, err)
	}
}
