package compare

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/portlab/portlab/lib/design"
	"github.com/portlab/portlab/lib/infer"
	_ "github.com/portlab/portlab/lib/infer/explainable"
	"github.com/portlab/portlab/lib/infer/pmevo"
	_ "github.com/portlab/portlab/lib/infer/uopsinfo"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// fixed is a method that answers with a given mapping after asking the
// oracle asks times.
type fixed struct {
	name string
	m    *portmap.Mapping
	asks int
}

func (f *fixed) Name() string      { return f.name }
func (f *fixed) Uses() infer.Needs { return infer.Needs{Queries: true} }
func (f *fixed) Infer(ctx context.Context, p *infer.Problem, s *infer.Settings) (*infer.Result, error) {
	for k := 0; k < f.asks; k++ {
		if _, err := p.Oracle.Measure(ctx, portmap.NewExperiment(p.Instructions[k%len(p.Instructions)])); err != nil {
			return &infer.Result{Mapping: f.m}, err
		}
	}
	return &infer.Result{Mapping: f.m}, nil
}

func toy() *portmap.Mapping {
	m := portmap.MustMapping("toy", "0", "1", "2", "3")
	return m.MustSetUsage("add", "1*p0123").MustSetUsage("mul", "1*p0").MustSetUsage("shl", "1*p01").MustSetUsage("load", "1*p23")
}

func heldOut(t *testing.T, m *portmap.Mapping, insns []string, n int) *portmap.ExperimentSet {
	t.Helper()
	set, _, err := oracle.MeasureAll(context.Background(), oracle.Simulate(m, 0, 1), design.Random(insns, 5, n, 3), nil)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// Two methods that differ on one instruction: the disagreement names it,
// with an experiment on which they differ and the truth's answer; the one
// equal to the truth scores 0 % on the held-out set.
func TestDisagreement(t *testing.T) {
	truth := toy()
	wrong := toy().MustSetUsage("shl", "1*p0") // shl on mul's port only
	o := &Oracle{Name: "toy", Oracle: oracle.Simulate(truth, 0, 1), Instructions: truth.Instructions(), Ports: 4, Truth: oracle.FromMapping(truth)}
	tab, err := SideBySide(context.Background(), o, []Method{{Name: "right", Method: &fixed{name: "right", m: truth}}, {Name: "wrong", Method: &fixed{name: "wrong", m: wrong}}}, Budget{}, heldOut(t, truth, truth.Instructions(), 100))
	if err != nil {
		t.Fatal(err)
	}
	if r := tab.Row("right"); !r.OK() || r.Eval.Summary.MAPE != 0 {
		t.Errorf("the truth's own mapping: %v", r.Eval)
	}
	if r := tab.Row("wrong"); !r.OK() || r.Eval.Summary.MAPE == 0 {
		t.Errorf("the wrong mapping scores %v", r.Eval)
	}
	if len(tab.Disagreements) == 0 {
		t.Fatal("no disagreement found")
	}
	d := tab.Disagreements[0]
	if d.Insn != "shl" && d.Insn != "mul" {
		t.Errorf("first disagreement on %q, want shl or mul (the instructions whose pair tells the mappings apart)", d.Insn)
	}
	if d.Experiment.Count("shl") == 0 {
		t.Errorf("experiment %v has no shl", d.Experiment)
	}
	want, _ := oracle.Cycles(context.Background(), oracle.Simulate(truth, 0, 1), d.Experiment)
	if d.Truth != want || d.Predictions[0].Cycles != want {
		t.Errorf("truth %v and the right method %v, want both %v", d.Truth, d.Predictions[0].Cycles, want)
	}
	if d.Spread <= MinSpread {
		t.Errorf("spread %v", d.Spread)
	}
	for _, dd := range tab.Disagreements {
		if dd.Insn == "add" || dd.Insn == "load" {
			t.Errorf("disagreement on %s, on which the mappings agree: %v", dd.Insn, dd)
		}
	}
	if s := tab.String(); !strings.Contains(s, "shl") || !strings.Contains(s, "truth") {
		t.Errorf("table:\n%s", s)
	}
}

// A method that needs counters a replay does not have gets a row with the
// reason; the others run.
func TestMissingCounters(t *testing.T) {
	truth := toy()
	data, _, err := oracle.MeasureAll(context.Background(), oracle.Simulate(truth, 0, 1), append(design.Singletons(truth.Instructions()), design.Pairs(truth.Instructions())...), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range data.Measurements {
		data.Measurements[i].Uops = 0 // cycles only, as a host without a PMU measures
	}
	o := &Oracle{Name: "replay", Data: data, Instructions: truth.Instructions(), Ports: 4}
	tab, err := SideBySide(context.Background(), o, []Method{{Name: "uopsinfo"}, {Name: "explainable"}, {Name: "right", Method: &fixed{name: "right", m: truth, asks: 2}}}, Budget{}, heldOut(t, truth, truth.Instructions(), 50))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"uopsinfo", "explainable"} {
		r := tab.Row(name)
		if r.Result != nil || r.Err == nil || r.Eval != nil {
			t.Errorf("%s on a replay without counters: %+v", name, r)
		}
	}
	if !errors.Is(tab.Row("uopsinfo").Err, oracle.ErrNoPortCounters) || !errors.Is(tab.Row("explainable").Err, oracle.ErrNoUopCounter) {
		t.Errorf("errors %v / %v do not name the missing counters", tab.Row("uopsinfo").Err, tab.Row("explainable").Err)
	}
	if r := tab.Row("right"); !r.OK() || r.Queries() != 2 {
		t.Errorf("the method that can run: %+v", r)
	}
	if s := tab.String(); !strings.Contains(s, "not run") || !strings.Contains(s, "per-port") {
		t.Errorf("table does not say why:\n%s", s)
	}
}

// The query limit is every method's: a method that asks more stops at it
// and says so.
func TestQueryLimit(t *testing.T) {
	truth := toy()
	o := &Oracle{Name: "toy", Oracle: oracle.Simulate(truth, 0, 1), Instructions: truth.Instructions(), Ports: 4}
	methods := []Method{{Name: "greedy", Method: &fixed{name: "greedy", m: truth, asks: 50}}, {Name: "frugal", Method: &fixed{name: "frugal", m: truth, asks: 5}}}
	tab, err := SideBySide(context.Background(), o, methods, Budget{MaxQueries: 10}, heldOut(t, truth, truth.Instructions(), 20))
	if err != nil {
		t.Fatal(err)
	}
	if r := tab.Row("greedy"); r.Result == nil || r.Result.Status != infer.QueryLimit || !strings.Contains(r.Budget, "query limit (10)") {
		t.Errorf("greedy: %+v", r)
	}
	if r := tab.Row("frugal"); r.Result == nil || r.Queries() != 5 || r.Budget != "within" {
		t.Errorf("frugal: %+v", r)
	}
}

// A sub-problem is evaluated on the held-out experiments over its forms.
func TestSubProblem(t *testing.T) {
	truth := toy()
	sub := []string{"add", "load"}
	held := heldOut(t, truth, truth.Instructions(), 200)
	mine := heldOut(t, truth, sub, 30)
	small := portmap.MustMapping("small", "0", "1", "2", "3").MustSetUsage("add", "1*p0123").MustSetUsage("load", "1*p23")
	o := &Oracle{Name: "toy", Oracle: oracle.Simulate(truth, 0, 1), Instructions: truth.Instructions(), Ports: 4}
	tab, err := SideBySide(context.Background(), o, []Method{
		{Name: "a", Method: &fixed{name: "a", m: small}, Forms: sub},
		{Name: "b", Method: &fixed{name: "b", m: small}, Forms: sub, HeldOut: mine},
	}, Budget{}, held)
	if err != nil {
		t.Fatal(err)
	}
	n := over(held, sub).Len()
	if r := tab.Row("a"); r.Forms != 2 || n > 0 && (!r.OK() || r.Eval.Len() != n) || n == 0 && r.OK() {
		t.Errorf("a: %d of %d held out over its forms, evaluated %+v", n, held.Len(), r.Eval)
	}
	if r := tab.Row("b"); !r.OK() || r.Eval.Len() != 30 || !strings.Contains(r.HeldOut, "its own 30") {
		t.Errorf("b: %+v", r)
	}
	if len(tab.Disagreements) != 0 {
		t.Errorf("disagreements from sub-problems: %v", tab.Disagreements)
	}
}

// Bad comparisons are refused before any method runs.
func TestRefused(t *testing.T) {
	truth := toy()
	held := heldOut(t, truth, truth.Instructions(), 10)
	o := &Oracle{Name: "toy", Oracle: oracle.Simulate(truth, 0, 1), Instructions: truth.Instructions(), Ports: 4}
	ran := &fixed{name: "ran", m: truth, asks: 1}
	for _, c := range []struct {
		name    string
		o       *Oracle
		methods []Method
		b       Budget
		held    *portmap.ExperimentSet
		want    string
	}{
		{"no methods", o, nil, Budget{}, held, "no methods"},
		{"unknown", o, []Method{{Name: "ran", Method: ran}, {Name: "nosuch"}}, Budget{}, held, "nosuch"},
		{"no held-out", o, []Method{{Name: "ran", Method: ran}}, Budget{}, nil, "held-out"},
		{"negative", o, []Method{{Name: "ran", Method: ran}}, Budget{MaxQueries: -1}, held, "negative"},
		{"no oracle", &Oracle{Name: "x", Instructions: []string{"add"}}, []Method{{Name: "ran", Method: ran}}, Budget{}, held, "neither"},
		{"no forms", &Oracle{Name: "x", Oracle: o.Oracle}, []Method{{Name: "ran", Method: ran}}, Budget{}, held, "no forms"},
	} {
		_, err := SideBySide(context.Background(), c.o, c.methods, c.b, c.held)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming %q", c.name, err, c.want)
		}
	}
	if ran.asks != 1 {
		t.Fatal("changed")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := SideBySide(ctx, o, []Method{{Name: "ran", Method: ran}}, Budget{}, held); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestRepresentative(t *testing.T) {
	in := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	if got := strings.Join(Representative(in, 3), ""); got != "adg" {
		t.Errorf("3 of 10: %q, want adg", got)
	}
	if got := Representative(in, 20); len(got) != 10 {
		t.Errorf("20 of 10: %v", got)
	}
}

// OneUopForms keeps the forms one µop explains (1/k cycles alone).
func TestOneUopForms(t *testing.T) {
	m := toy().MustSetUsage("div", "4*p0").MustSetUsage("st", "3*p0123")
	got, err := OneUopForms(context.Background(), oracle.Simulate(m, 0, 1), m.Instructions(), 10)
	if err != nil {
		t.Fatal(err)
	}
	if s := strings.Join(got, ","); s != "add,mul,shl,load" {
		t.Errorf("got %s, want add,mul,shl,load (not div: 4 cycles; not st: 0.75 cycles)", s)
	}
	if _, err := OneUopForms(context.Background(), oracle.Simulate(m, 0, 1), []string{"div", "st"}, 1); err == nil {
		t.Errorf("no form: %v", err)
	}
}

func TestSingleUopForms(t *testing.T) {
	m := toy().MustSetUsage("div", "4*p0").MustSetUsage("st", "1*p2+1*p3")
	if got := strings.Join(SingleUopForms(m, append(m.Instructions(), "unknown"), 3), ","); got != "add,mul,shl" {
		t.Errorf("3 forms: got %s, want add,mul,shl (not div: 4 µops; not st: two; not unknown: not mapped)", got)
	}
	if got := strings.Join(SingleUopForms(m, m.Instructions(), 10), ","); got != "add,mul,shl,load" {
		t.Errorf("got %s, want add,mul,shl,load", got)
	}
}

// slow asks until its context ends and returns no result.
type slow struct{}

func (slow) Name() string      { return "slow" }
func (slow) Uses() infer.Needs { return infer.Needs{Queries: true} }
func (slow) Infer(ctx context.Context, p *infer.Problem, s *infer.Settings) (*infer.Result, error) {
	for {
		if _, err := p.Oracle.Measure(ctx, portmap.NewExperiment(p.Instructions[0])); err != nil {
			return nil, err
		}
	}
}

// A method stopped by the budget before any result says so, not "not run".
func TestLimitWithoutResult(t *testing.T) {
	truth := toy()
	o := &Oracle{Name: "toy", Oracle: oracle.Simulate(truth, 0, 1), Instructions: truth.Instructions(), Ports: 4}
	tab, err := SideBySide(context.Background(), o, []Method{{Name: "slow", Method: slow{}}}, Budget{MaxQueries: 3}, heldOut(t, truth, truth.Instructions(), 10))
	if err != nil {
		t.Fatal(err)
	}
	r := tab.Row("slow")
	if r.Result != nil || infer.StatusOf(r.Err) != infer.QueryLimit {
		t.Fatalf("row %+v", r)
	}
	if s := tab.String(); !strings.Contains(s, "no result: stopped at the query limit (3)") || strings.Contains(s, "not run") {
		t.Errorf("table:\n%s", s)
	}
}

// The time limit is every method's too: PMEvo with a population whose
// first evaluation alone takes many times the budget stops within the
// budget and a grace, with a result, and its row says it stopped at the
// time limit (unless it converged within the budget).
func TestTimeLimit(t *testing.T) {
	truth := toy()
	o := &Oracle{Name: "toy", Oracle: oracle.Simulate(truth, 0, 1), Instructions: truth.Instructions(), Ports: 4}
	pm := pmevo.New()
	pm.Config.Population = 1 << 20
	b := Budget{TimeLimit: time.Second, Workers: 1, Seed: 1}
	tab, err := SideBySide(context.Background(), o, []Method{{Name: "pmevo", Method: pm}}, b, heldOut(t, truth, truth.Instructions(), 20))
	if err != nil {
		t.Fatal(err)
	}
	r := tab.Row("pmevo")
	if r.Result == nil {
		t.Fatalf("no result: %v", r.Err)
	}
	if grace := 2 * time.Second; r.Result.Elapsed > b.TimeLimit+grace {
		t.Errorf("ran %v with a budget of %v", r.Result.Elapsed, b.TimeLimit)
	}
	// On an idle machine PMEvo may find the toy's mapping before the
	// budget ends; otherwise its row must say where it stopped.
	switch {
	case r.Result.Status == infer.Converged && r.Result.Elapsed <= b.TimeLimit:
	case r.Result.Status == infer.TimeLimit && strings.Contains(r.Budget, "stopped at the time limit"):
	default:
		t.Errorf("status %v after %v, budget note %q", r.Result.Status, r.Result.Elapsed, r.Budget)
	}
}
