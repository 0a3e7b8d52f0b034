package compare

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// Oracle is what the methods are compared on: an oracle to ask (a
// simulated machine), or stored measurements to learn from and replay (a
// host campaign), or both, with the problem every method is given.
type Oracle struct {
	// Name names the oracle in the table, e.g. "uops.info:SKL (simulated)".
	Name string
	// Oracle answers the methods' experiments; nil when Data alone
	// answers them (infer.Infer replays it: an experiment it does not
	// hold fails the method that asks for it).
	Oracle oracle.Oracle
	// Data, when not nil, are stored measurements every method is given
	// (infer.Problem.Data): the methods that learn from data use them,
	// the others ask for experiments answered from them.
	Data *portmap.ExperimentSet
	// Instructions are the forms to map; Ports the number of execution
	// ports to infer over; InstructionsPerCycle the front end's peak
	// (0: none), given to every method.
	Instructions         []string
	Ports                int
	InstructionsPerCycle float64
	// Truth, when not nil, predicts the truth (a simulated machine's
	// exact model): each disagreement shows its answer.
	Truth oracle.Predictor
}

// Method is one method of the comparison.
type Method struct {
	// Name is the method's registered name (infer.New), e.g. "pmevo", and
	// its row's label unless Label is set.
	Name, Label string
	// Method, when not nil, is the method to run (with its settings);
	// nil runs infer.New(Name) with its defaults.
	Method infer.Method
	// Forms, when not empty, is a sub-problem: the method maps only these
	// forms (for a method that handles only small problems, see
	// Representative).
	Forms []string
	// HeldOut, when not nil, is the held-out set this method is evaluated
	// on instead of SideBySide's (a set over Forms).
	HeldOut *portmap.ExperimentSet
	// Note is shown in the row, e.g. why a sub-problem.
	Note string
}

// Budget is what every method is given: infer.Settings' limits and seed.
type Budget struct {
	// MaxQueries bounds each method's oracle queries, TimeLimit its wall
	// time (0: no limit).
	MaxQueries int
	TimeLimit  time.Duration
	// Seed makes randomised methods repeatable; Workers bounds their
	// parallelism (0: GOMAXPROCS).
	Seed    uint64
	Workers int
}

// Settings returns the infer.Settings of the budget.
func (b Budget) Settings() *infer.Settings {
	return &infer.Settings{Seed: b.Seed, Workers: b.Workers, TimeLimit: b.TimeLimit, MaxQueries: b.MaxQueries}
}

// String describes the budget, e.g. "≤ 2000 queries, ≤ 1m0s, seed 1".
func (b Budget) String() string {
	q, t := "no query limit", "no time limit"
	if b.MaxQueries > 0 {
		q = fmt.Sprintf("≤ %d queries", b.MaxQueries)
	}
	if b.TimeLimit > 0 {
		t = fmt.Sprintf("≤ %v", b.TimeLimit)
	}
	return fmt.Sprintf("%s, %s, seed %d", q, t, b.Seed)
}

// Row is one method's run and evaluation.
type Row struct {
	// Method is the row's label, Note the method's note.
	Method, Note string
	// Forms is the number of forms the method was asked to map.
	Forms int
	// Result is the run's result; nil when the method did not run or
	// ended without a result (Err says why).
	Result *infer.Result
	// Err is why the method has no result, or the error it ended with
	// beside a result (a limit reached is no error).
	Err error
	// Budget says how the run kept to the budget: "within", the limit
	// that stopped it, or why the budget does not bound it.
	Budget string
	// Eval is the method's evaluation on its held-out set; nil without a
	// result.
	Eval *metrics.Evaluation
	// HeldOut names the held-out set Eval is on.
	HeldOut string
}

// OK reports whether the row has an evaluation with metrics.
func (r *Row) OK() bool { return r.Eval != nil && r.Eval.Err() == nil && r.Eval.Len() > 0 }

// Queries returns the run's oracle queries (0 without a result).
func (r *Row) Queries() int {
	if r.Result == nil {
		return 0
	}
	return r.Result.Queries
}

// Elapsed returns the run's wall time (0 without a result).
func (r *Row) Elapsed() time.Duration {
	if r.Result == nil {
		return 0
	}
	return r.Result.Elapsed
}

// Prediction is one method's (or the truth's) inverse throughput for an
// experiment.
type Prediction struct {
	Method string
	Cycles float64
}

// Disagreement is an instruction on which the methods' models differ,
// with the experiment on which their predictions differ most.
type Disagreement struct {
	// Insn is the instruction, Experiment the experiment containing it
	// that tells the methods apart best (the instruction alone, or with
	// one other instruction).
	Insn       string
	Experiment portmap.Experiment
	// Predictions are the methods' predictions for Experiment, in the
	// order of the table's rows.
	Predictions []Prediction
	// Truth is the truth's answer (NaN without one).
	Truth float64
	// Spread is (largest − smallest prediction) / smallest, e.g. 0.5 when
	// one method predicts 1.5 times the cycles of another.
	Spread float64
}

// Table is the side-by-side comparison on one oracle.
type Table struct {
	// Oracle names the oracle, Budget the budget every method was given,
	// HeldOut the held-out set and its size.
	Oracle  string
	Budget  Budget
	HeldOut string
	// Rows has one row per method, in the order asked.
	Rows []*Row
	// Disagreements lists the instructions on which the methods with a
	// result disagree by more than MinSpread, most first.
	Disagreements []Disagreement
}

// MinSpread is the relative difference of predictions below which the
// methods are taken to agree on an experiment (2 %: within the noise of a
// good measurement).
const MinSpread = 0.02

// SideBySide runs every method on o with budget b and evaluates each
// result on heldOut (measurements never given to the methods): a method
// with a sub-problem (Method.Forms) on its own held-out set or on the
// experiments of heldOut over its forms. A method that cannot run on o —
// it needs counters the oracle does not have, it asks for an experiment a
// replay does not hold, it ends without a result within the budget — gets
// a row with the reason (Row.Err), and the others go on. The error is
// non-nil only for a problem with the comparison itself (no methods, no
// forms, no held-out set, a name no method is registered under) or when
// ctx is done; the rows finished so far are returned with it.
func SideBySide(ctx context.Context, o *Oracle, methods []Method, b Budget, heldOut *portmap.ExperimentSet) (*Table, error) {
	if o == nil {
		return nil, errors.New("compare: no oracle")
	}
	t := &Table{Oracle: o.Name, Budget: b}
	switch {
	case len(methods) == 0:
		return nil, errors.New("compare: no methods to compare")
	case o.Oracle == nil && o.Data == nil:
		return nil, fmt.Errorf("compare %s: neither an oracle nor data", o.Name)
	case len(o.Instructions) == 0:
		return nil, fmt.Errorf("compare %s: no forms to map", o.Name)
	case heldOut == nil || heldOut.Len() == 0:
		return nil, fmt.Errorf("compare %s: no held-out measurements to evaluate on", o.Name)
	case b.MaxQueries < 0 || b.TimeLimit < 0 || b.Workers < 0:
		return nil, fmt.Errorf("compare %s: negative budget (%d queries, %v, %d workers), want ≥ 0 (0: none)", o.Name, b.MaxQueries, b.TimeLimit, b.Workers)
	}
	t.HeldOut = fmt.Sprintf("%d held-out experiments", heldOut.Len())
	// Every method is known before any runs.
	ms := make([]infer.Method, len(methods))
	for i, m := range methods {
		ms[i] = m.Method
		if ms[i] == nil {
			var err error
			if ms[i], err = infer.New(m.Name); err != nil {
				return nil, fmt.Errorf("compare %s: %w", o.Name, err)
			}
		}
	}
	for i, m := range methods {
		if err := ctx.Err(); err != nil {
			return t, err
		}
		t.Rows = append(t.Rows, run(ctx, o, m, ms[i], b, heldOut))
	}
	if err := ctx.Err(); err != nil {
		return t, err
	}
	d, err := disagreements(ctx, o, t.Rows)
	t.Disagreements = d
	return t, err
}

// run runs one method and evaluates it.
func run(ctx context.Context, o *Oracle, m Method, im infer.Method, b Budget, heldOut *portmap.ExperimentSet) *Row {
	row := &Row{Method: m.Label, Note: m.Note}
	if row.Method == "" {
		row.Method = im.Name()
	}
	p := infer.Problem{Oracle: o.Oracle, Data: o.Data, Instructions: o.Instructions, Ports: o.Ports, InstructionsPerCycle: o.InstructionsPerCycle}
	set, setName := heldOut, fmt.Sprintf("%d held-out experiments", heldOut.Len())
	if len(m.Forms) > 0 {
		p.Instructions = m.Forms
		if o.Data != nil {
			p.Data = over(o.Data, m.Forms)
		}
		if m.HeldOut != nil {
			set, setName = m.HeldOut, fmt.Sprintf("its own %d held-out experiments over its %d forms", m.HeldOut.Len(), len(m.Forms))
		} else {
			set = over(heldOut, m.Forms)
			setName = fmt.Sprintf("the %d held-out experiments over its %d forms", set.Len(), len(m.Forms))
		}
	} else if m.HeldOut != nil {
		set, setName = m.HeldOut, fmt.Sprintf("its own %d held-out experiments", m.HeldOut.Len())
	}
	row.Forms, row.HeldOut = len(p.Instructions), setName
	res, err := infer.Infer(ctx, p, im, b.Settings())
	row.Result, row.Err = res, err
	row.Budget = budgetNote(res, err, b, im)
	if res == nil {
		return row
	}
	if set.Len() == 0 {
		row.Eval = metrics.FailedEvaluation(row.Method, setName, fmt.Errorf("compare: no held-out experiment over the method's %d forms", len(p.Instructions)))
		return row
	}
	row.Eval = metrics.Evaluate(ctx, res.Predictor, set).Titled(row.Method)
	return row
}

// budgetNote says how a run kept to the budget.
func budgetNote(res *infer.Result, err error, b Budget, m infer.Method) string {
	st := infer.StatusOf(err)
	if res != nil {
		st = res.Status
	}
	var note string
	switch {
	case st == infer.QueryLimit:
		note = fmt.Sprintf("stopped at the query limit (%d)", b.MaxQueries)
	case st == infer.TimeLimit:
		note = fmt.Sprintf("stopped at the time limit (%v)", b.TimeLimit)
	case res == nil:
		note = "no result"
	case st == infer.Failed:
		note = "stopped by an error"
	default:
		note = "within"
	}
	if res != nil && b.TimeLimit > 0 && res.Elapsed > b.TimeLimit+b.TimeLimit/10 {
		note += fmt.Sprintf("; ran %v past it (the method ends its current step first)", round(res.Elapsed-b.TimeLimit))
	}
	if res != nil && res.Data > 0 && m.Uses().Data {
		note += fmt.Sprintf("; learns from %d stored measurements, which no query limit bounds", res.Data)
	}
	return note
}

// over returns the measurements of s whose every instruction is one of
// forms.
func over(s *portmap.ExperimentSet, forms []string) *portmap.ExperimentSet {
	in := make(map[string]bool, len(forms))
	for _, f := range forms {
		in[f] = true
	}
	return s.Filter(func(m portmap.Measurement) bool {
		for _, it := range m.Experiment.Items() {
			if !in[it.Insn] {
				return false
			}
		}
		return true
	})
}

// Representative returns n forms of insns spread evenly over the list (the
// first, then every len/n-th), for a method that handles only n forms: a
// sub-problem that keeps the list's variety when the list is ordered (by
// mnemonic, extension or port usage). It returns insns itself when it has
// at most n forms.
func Representative(insns []string, n int) []string {
	if n <= 0 || len(insns) <= n {
		return insns
	}
	out := make([]string, n)
	for k := range out {
		out[k] = insns[k*len(insns)/n]
	}
	return out
}

// disagreements finds, per instruction, the experiment (the instruction
// alone or with one other) on which the predictions of the rows with a
// result differ most, and returns those above MinSpread, most first. An
// experiment counts when at least two rows predict it.
func disagreements(ctx context.Context, o *Oracle, rows []*Row) ([]Disagreement, error) {
	var preds []*Row
	for _, r := range rows {
		if r.Result != nil && r.Result.Predictor != nil && r.Forms == len(o.Instructions) {
			preds = append(preds, r)
		}
	}
	if len(preds) < 2 {
		return nil, nil
	}
	// Candidates: each instruction alone and every pair 1:1.
	insns := o.Instructions
	var exps []portmap.Experiment
	for i, a := range insns {
		exps = append(exps, portmap.NewExperiment(a))
		for _, c := range insns[i+1:] {
			exps = append(exps, portmap.NewExperiment(a, c))
		}
	}
	values := make([][]float64, len(preds))
	for k, r := range preds {
		v, _, err := oracle.Predict(ctx, r.Result.Predictor, exps)
		if err != nil {
			return nil, fmt.Errorf("compare: %s predicting the candidate experiments: %w", r.Method, err)
		}
		values[k] = v
	}
	// spread[j] is how far the predictions of exps[j] differ; an
	// instruction is credited with a pair's spread less the other
	// instruction's spread alone (what adding it changes), so that one
	// instruction the methods map differently does not make all its
	// partners look disputed.
	spread := make([]float64, len(exps))
	alone := map[string]float64{}
	for j, e := range exps {
		lo, hi, n := math.Inf(1), math.Inf(-1), 0
		for k := range preds {
			if v := values[k][j]; !math.IsNaN(v) && v > 0 {
				lo, hi, n = math.Min(lo, v), math.Max(hi, v), n+1
			}
		}
		spread[j] = math.NaN()
		if n >= 2 {
			spread[j] = (hi - lo) / lo
		}
		if e.Distinct() == 1 && n >= 2 {
			alone[e.Items()[0].Insn] = spread[j]
		}
	}
	best := map[string]int{} // instruction → index of its best experiment
	score := map[string]float64{}
	for j, e := range exps {
		if math.IsNaN(spread[j]) {
			continue
		}
		items := e.Items()
		for x, it := range items {
			s := spread[j]
			if len(items) == 2 {
				s -= alone[items[1-x].Insn]
			}
			if old, seen := score[it.Insn]; !seen || s > old {
				best[it.Insn], score[it.Insn] = j, s
			}
		}
	}
	var out []Disagreement
	for _, insn := range insns {
		j, seen := best[insn]
		if !seen || score[insn] <= MinSpread {
			continue
		}
		d := Disagreement{Insn: insn, Experiment: exps[j], Spread: spread[j], Truth: math.NaN()}
		for k, r := range preds {
			d.Predictions = append(d.Predictions, Prediction{Method: r.Method, Cycles: values[k][j]})
		}
		out = append(out, d)
	}
	sort.SliceStable(out, func(a, b int) bool { return score[out[a].Insn] > score[out[b].Insn] })
	if o.Truth != nil && len(out) > 0 {
		es := make([]portmap.Experiment, len(out))
		for i, d := range out {
			es[i] = d.Experiment
		}
		v, _, err := oracle.Predict(ctx, o.Truth, es)
		if err != nil {
			return out, fmt.Errorf("compare: the truth predicting the disagreements: %w", err)
		}
		for i := range out {
			out[i].Truth = v[i]
		}
	}
	return out, nil
}

// OneUopForms returns up to n forms of insns that one µop can explain —
// measured alone by o at 1/k cycles per execution for a whole number k of
// ports, within 2 % (a form of several µops may measure so too) — spread
// evenly over the list (Representative): a
// sub-problem for counter-example-guided inference, whose default search
// gives every instruction one µop (thesis §4.2). It costs one query per
// form of insns; forms o cannot measure are left out.
func OneUopForms(ctx context.Context, o oracle.Oracle, insns []string, n int) ([]string, error) {
	var keep []string
	for _, insn := range insns {
		c, err := oracle.Cycles(ctx, o, portmap.NewExperiment(insn))
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue
		}
		if k := math.Round(1 / c); c > 0 && k >= 1 && math.Abs(c*k-1) <= MinSpread {
			keep = append(keep, insn)
		}
	}
	if len(keep) == 0 {
		return nil, fmt.Errorf("compare: none of %d forms measures 1/k cycles alone (what one µop on k ports explains)", len(insns))
	}
	return Representative(keep, n), nil
}

// SingleUopForms returns up to n forms of insns to which the mapping truth
// gives exactly one µop, spread evenly over the list (Representative): on
// a simulated machine, a sub-problem that counter-example-guided
// inference's default search (one µop per instruction, thesis §4.2) can
// express exactly. Forms truth does not map are left out.
func SingleUopForms(truth *portmap.Mapping, insns []string, n int) []string {
	var keep []string
	for _, insn := range insns {
		if uops, ok := truth.Uops(insn); ok && len(uops) == 1 && uops[0].Count == 1 {
			keep = append(keep, insn)
		}
	}
	return Representative(keep, n)
}
