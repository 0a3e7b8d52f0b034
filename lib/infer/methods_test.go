package infer_test

import (
	"context"
	"errors"
	"flag"
	"io"
	"math"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/infer/cegis"
	"github.com/portlab/portlab/lib/infer/explainable"
	"github.com/portlab/portlab/lib/infer/palmed"
	"github.com/portlab/portlab/lib/infer/pmevo"
	"github.com/portlab/portlab/lib/infer/uopsinfo"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/solver/z3"
	"github.com/portlab/portlab/lib/throughput"
)

// recorder is a simulation that keeps every measurement it answers, with
// the counters the run switched on.
type recorder struct {
	*oracle.Simulated
	mu  sync.Mutex
	set portmap.ExperimentSet
}

func (r *recorder) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	m, err := r.Simulated.Measure(ctx, e)
	if err == nil {
		r.mu.Lock()
		r.set.Measurements = append(r.set.Measurements, m)
		r.mu.Unlock()
	}
	return m, err
}

// methodCase is a small problem each method solves in seconds.
type methodCase struct {
	name   string
	method func() infer.Method
	truth  *portmap.Mapping
	ipc    float64 // the front end's peak, simulated and told
	ports  bool    // the method needs Problem.Ports
	z3     bool
}

func methodCases() []methodCase {
	two := portmap.MustMapping("toy", "0", "1")
	two.MustSetUsage("add", "1*p01").MustSetUsage("xor", "1*p01").MustSetUsage("mul", "1*p1").MustSetUsage("shuf", "2*p0")
	three := portmap.MustMapping("toy3", "0", "1", "2")
	three.MustSetUsage("add", "1*p012").MustSetUsage("mul", "1*p1").MustSetUsage("fma", "1*p01").MustSetUsage("load", "1*p2")
	fig1 := portmap.MustMapping("fig1", "0", "1", "6")
	fig1.MustSetUsage("DIVPS", "1*p0").MustSetUsage("VCVTT", "2*p01").MustSetUsage("ADDSS", "1*p01").MustSetUsage("BSR", "1*p1").
		MustSetUsage("JNLE", "1*p06").MustSetUsage("JMP", "1*p6")
	fig61 := portmap.MustMapping("fig6.1", "p1", "p2", "p3")
	fig61.MustSetUsage("add", "1*[p1,p2]").MustSetUsage("fma", "2*[p1,p2]+1*[p2]").MustSetUsage("mul", "1*[p2]").MustSetUsage("ld", "1*[p3]")
	four := portmap.MustMapping("toy4", "0", "1", "2", "3")
	four.MustSetUsage("add", "1*p01").MustSetUsage("mul", "1*p1").MustSetUsage("ld", "1*p23").MustSetUsage("shuf", "1*p3").
		MustSetUsage("addm", "1*p01+1*p23").MustSetUsage("fma", "2*p1+1*p01").MustSetUsage("or", "1*p01")
	return []methodCase{
		{"pmevo", func() infer.Method {
			m := pmevo.New()
			m.Config.Population, m.Config.Generations = 100, 30
			return m
		}, two, 0, true, false},
		{"cegis", func() infer.Method { return cegis.New() }, three, 0, true, true},
		{"palmed", func() infer.Method {
			m := palmed.New()
			m.Config.Basic = 5
			return m
		}, fig1, 0, false, false},
		{"uopsinfo", func() infer.Method { return uopsinfo.New() }, fig61, 0, false, false},
		{"explainable", func() infer.Method {
			m := explainable.New()
			m.Improper = nil
			return m
		}, four, 5, true, true},
	}
}

// TestMethodsWithDataOrOracle runs each of the five methods through
// infer.Infer on a problem with only an oracle (a plain simulation: Infer
// switches on the counters a method reads) and on the same problem with
// only the data that run measured (Infer answers from a replay of it); both
// runs converge to the same model.
func TestMethodsWithDataOrOracle(t *testing.T) {
	for _, c := range methodCases() {
		t.Run(c.name, func(t *testing.T) {
			if c.z3 {
				needZ3(t)
			}
			sim := oracle.Simulate(c.truth, 0, 1)
			if c.ipc > 0 {
				sim.Model = sim.Model.WithFrontEnd(throughput.FrontEnd{InstructionsPerCycle: c.ipc})
			}
			rec := &recorder{Simulated: sim}
			p := infer.Problem{Oracle: rec, Instructions: c.truth.Instructions(), InstructionsPerCycle: c.ipc}
			if c.ports {
				p.Ports = c.truth.NumPorts()
			}
			live, err := infer.Infer(t.Context(), p, c.method(), &infer.Settings{Seed: 1})
			if err != nil {
				t.Fatalf("with only an oracle: %v", err)
			}
			if live.Status != infer.Converged || live.Predictor == nil || live.Queries == 0 {
				t.Fatalf("with only an oracle: %v, status %v", live, live.Status)
			}
			data := &rec.set
			p.Oracle, p.Instructions, p.Data = nil, nil, data
			stored, err := infer.Infer(t.Context(), p, c.method(), &infer.Settings{Seed: 1})
			if err != nil {
				t.Fatalf("with only the %d measurements of that run: %v", data.Len(), err)
			}
			if stored.Status != infer.Converged || stored.Data != data.Len() {
				t.Errorf("with only data: %v, status %v", stored, stored.Status)
			}
			exps := []portmap.Experiment{}
			for _, insn := range c.truth.Instructions() {
				exps = append(exps, portmap.NewExperiment(insn), portmap.NewExperiment(insn, c.truth.Instructions()[0]))
			}
			a, errA := live.Predictor.Predict(t.Context(), exps)
			b, errB := stored.Predictor.Predict(t.Context(), exps)
			if errA != nil || errB != nil {
				t.Fatalf("predictions: %v, %v", errA, errB)
			}
			for i := range exps {
				if a[i] != b[i] {
					t.Errorf("%v: %g cycles learnt from the oracle, %g from its data", exps[i], a[i], b[i])
				}
			}
		})
	}
}

// counting is an oracle that counts the queries it answers.
type counting struct {
	oracle.Oracle
	n atomic.Int64
}

func (c *counting) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	c.n.Add(1)
	return c.Oracle.Measure(ctx, e)
}

// TestBinderRefusesBeforeAnyQuery: an out-of-range flag is refused when
// parsed, naming the flag and its range; the same setting made in code,
// and negative workers, are refused by Infer before the oracle is asked.
func TestBinderRefusesBeforeAnyQuery(t *testing.T) {
	for _, c := range []struct {
		method     string
		args       []string
		want       string
		set        func(infer.Method)
		configWant string
	}{
		{"pmevo", []string{"-population", "0"}, "-population 0: want ≥ 2", func(m infer.Method) { m.(*pmevo.Method).Config.Population = 0 }, "Population = 0: want ≥ 2"},
		{"pmevo", []string{"-mutation", "1.5"}, "-mutation 1.5: want 0 to 1", func(m infer.Method) { m.(*pmevo.Method).Config.Mutation = 1.5 }, "Mutation = 1.5: want 0 to 1"},
		{"cegis", []string{"-epsilon", "-0.1"}, "-epsilon -0.1: want ≥ 0", func(m infer.Method) { m.(*cegis.Method).Config.Epsilon = -0.1 }, "Epsilon = -0.1: want ≥ 0"},
		{"palmed", []string{"-basic", "0"}, "-basic 0: want 1 to 16", func(m infer.Method) { m.(*palmed.Method).Config.Basic = 0 }, "Basic = 0: want 1 to 16"},
		{"palmed", []string{"-front-end", "NaN"}, "-front-end NaN: want a finite number", func(m infer.Method) { m.(*palmed.Method).Config.FrontEnd = math.NaN() }, "FrontEnd = NaN: want ≥ 0"},
		{"uopsinfo", []string{"-tolerance", "0.7"}, "-tolerance 0.7: want 0 to 0.5", func(m infer.Method) { m.(*uopsinfo.Method).Tolerance = 0.7 }, "Tolerance = 0.7: want 0 to 0.5"},
		{"explainable", []string{"-smt-timeout", "-1s"}, "-smt-timeout -1s: want ≥ 0s", func(m infer.Method) { m.(*explainable.Method).SMT.Timeout = -1 }, "SMT.Timeout = -1ns: want ≥ 0s"},
		{"explainable", []string{"-runs", "-2"}, "-runs -2: want ≥ 1", func(m infer.Method) { m.(*explainable.Method).Runs = -2 }, "Runs = -2: want ≥ 1"},
	} {
		m, err := infer.New(c.method)
		if err != nil {
			t.Fatal(err)
		}
		fs := flag.NewFlagSet(c.method, flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		m.(infer.FlagSetter).SetFlags(fs)
		if err := fs.Parse(c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: %v, want %q", c.method, c.args, err, c.want)
		}
		truth := portmap.MustMapping("toy", "0", "1")
		truth.MustSetUsage("add", "1*p01").MustSetUsage("mul", "1*p1")
		o := &counting{Oracle: oracle.SimulateWithPortCounters(truth, 0, 1)}
		p := infer.Problem{Oracle: o, Instructions: truth.Instructions(), Ports: 2}
		m, _ = infer.New(c.method)
		c.set(m)
		if res, err := infer.Infer(t.Context(), p, m, nil); res != nil || err == nil || !strings.Contains(err.Error(), c.configWant) || o.n.Load() != 0 {
			t.Errorf("%s set in code: %v, %v after %d queries; want %q before any", c.method, res, err, o.n.Load(), c.configWant)
		}
		m, _ = infer.New(c.method)
		if _, err := infer.Infer(t.Context(), p, m, &infer.Settings{Workers: -1}); err == nil || !strings.Contains(err.Error(), "-1 workers") || o.n.Load() != 0 {
			t.Errorf("%s with -1 workers: %v after %d queries", c.method, err, o.n.Load())
		}
	}
}

// TestSettingsLimits: MaxQueries and TimeLimit stop a run with its best
// result, without error, and the status that says which limit.
func TestSettingsLimits(t *testing.T) {
	truth := portmap.MustMapping("toy", "0", "1")
	truth.MustSetUsage("add", "1*p01").MustSetUsage("xor", "1*p01").MustSetUsage("mul", "1*p1").MustSetUsage("shuf", "2*p0")
	fig61 := portmap.MustMapping("fig6.1", "p1", "p2", "p3")
	fig61.MustSetUsage("add", "1*[p1,p2]").MustSetUsage("fma", "2*[p1,p2]+1*[p2]").MustSetUsage("mul", "1*[p2]").MustSetUsage("ld", "1*[p3]")
	// uops.info measures the four instructions alone, then fma with its
	// blocking instructions: a budget of five stops it with fma pending.
	res, err := infer.Infer(t.Context(), infer.Problem{Oracle: oracle.Simulate(fig61, 0, 1), Instructions: fig61.Instructions()},
		uopsinfo.New(), &infer.Settings{MaxQueries: 5})
	if err != nil || res.Status != infer.QueryLimit || res.Queries != 5 || !strings.Contains(res.String(), "stopped: query limit") {
		t.Fatalf("query limit: %v, %v", res, err)
	}
	if in, _ := res.Report.(*uopsinfo.Report).Lookup("fma"); in.Outcome.Mapped() {
		t.Errorf("fma mapped within the query limit: %+v", in)
	}
	// PMEvo from data: a population this large is still evolving when
	// the time is up.
	train, _, err := design.PMEvo(t.Context(), oracle.Simulate(truth, 0.05, 1), truth.Instructions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	m := pmevo.New()
	m.Config.Population, m.Config.Generations, m.Config.Stall = 20000, 1000000, 0
	res, err = infer.Infer(t.Context(), infer.Problem{Data: train, Ports: 2}, m, &infer.Settings{Seed: 1, TimeLimit: 50 * time.Millisecond})
	if err != nil || res.Status != infer.TimeLimit || res.Mapping == nil {
		t.Fatalf("time limit: %v, %v", res, err)
	}
	cctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := infer.Infer(cctx, infer.Problem{Oracle: oracle.Simulate(truth, 0, 1), Instructions: truth.Instructions(), Ports: 2}, pmevo.New(), nil); infer.StatusOf(err) != infer.Interrupted {
		t.Errorf("cancelled: %v, status %v", err, infer.StatusOf(err))
	}
}

// needZ3 skips the test when z3 is missing (CI installs it).
func needZ3(t *testing.T) {
	t.Helper()
	s, err := z3.Start(t.Context(), z3.Options{})
	if err != nil {
		t.Skipf("z3: %v", err)
	}
	s.Close()
}

// Both counter methods account for an instruction with one type.
var _ uopsinfo.Insn = explainable.Insn{}

// TestZeroMethods: the zero value of every method is configured as New's.
func TestZeroMethods(t *testing.T) {
	for _, c := range []struct{ zero, fresh infer.Configured }{
		{&pmevo.Method{}, pmevo.New()}, {&cegis.Method{}, cegis.New()}, {&palmed.Method{}, palmed.New()}, {&uopsinfo.Method{}, uopsinfo.New()},
	} {
		if got, want := c.zero.Configuration(), c.fresh.Configuration(); !reflect.DeepEqual(got, want) {
			t.Errorf("%T: zero value configured as %+v, want %+v", c.zero, got, want)
		}
	}
}

// TestBinderPresets: a preset flag sets the preset, and the settings given
// by other flags hold whether they come before or after it.
func TestBinderPresets(t *testing.T) {
	for _, args := range [][]string{{"-population", "500", "-paper"}, {"-paper", "-population", "500"}} {
		m := pmevo.New()
		fs := flag.NewFlagSet("pmevo", flag.ContinueOnError)
		m.SetFlags(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		want := pmevo.PaperConfig(0)
		want.Population = 500
		if !reflect.DeepEqual(m.Config, want) {
			t.Errorf("%v: %+v, want %+v", args, m.Config, want)
		}
	}
	m := cegis.New()
	fs := flag.NewFlagSet("cegis", flag.ContinueOnError)
	m.SetFlags(fs)
	if err := fs.Parse([]string{"-validate", "5", "-pairs", "-thesis", "-encoding", "bottleneck"}); err != nil {
		t.Fatal(err)
	}
	want := cegis.ThesisConfig()
	want.Validation, want.Pairs, want.Encoding = 5, true, cegis.Bottleneck
	if !reflect.DeepEqual(m.Config, want) {
		t.Errorf("cegis flags: %+v, want %+v", m.Config, want)
	}
	x := explainable.New()
	fs = flag.NewFlagSet("explainable", flag.ContinueOnError)
	x.SetFlags(fs)
	if err := fs.Parse([]string{"-improper", "none", "-smt-timeout", "2m"}); err != nil || x.Improper != nil || x.SMT.Timeout != 2*time.Minute || x.SMT.Epsilon != cegis.DefaultConfig().Epsilon {
		t.Errorf("explainable flags: %v, improper %q, SMT %+v", err, x.Improper, x.SMT)
	}
}

// TestStatusNoFit: a run that ends without a model says why in its
// error's Status: cegis on one port where the truth needs two.
func TestStatusNoFit(t *testing.T) {
	needZ3(t)
	truth := portmap.MustMapping("toy", "0", "1")
	truth.MustSetUsage("add", "1*p01").MustSetUsage("mul", "1*p1")
	m := cegis.New()
	m.Config.Epsilon = 0
	res, err := infer.Infer(t.Context(), infer.Problem{Oracle: oracle.Simulate(truth, 0, 1), Instructions: truth.Instructions(), Ports: 1}, m, nil)
	var stop *infer.StopError
	if res != nil || !errors.As(err, &stop) || stop.Status != infer.NoFit || infer.StatusOf(err) != infer.NoFit || !errors.Is(err, cegis.ErrNoMapping) {
		t.Errorf("one port for two: %v, %v", res, err)
	}
}
