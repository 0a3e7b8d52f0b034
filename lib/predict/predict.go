package predict

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/portlab/portlab/lib/portmap"
	"github.com/portlab/portlab/lib/throughput"
)

// Predictor maps experiments to inverse throughputs: core cycles per
// execution of the experiment's multiset in steady state, the quantity
// measured by package measure and stored in the PMEvo data sets.
//
// Predict returns one value per experiment, in order. A predictor may be
// unable to predict some experiments (an instruction the mapping does not
// map, one llvm-mca rejects): Predict then still returns the full slice,
// with NaN for each of them, together with an *UnsupportedError listing
// them (use Run to get them as a list instead of an error). Every other
// error — the context was cancelled, a peer tool is missing or fails as a
// whole — comes with a nil slice.
type Predictor interface {
	Name() string
	Predict(ctx context.Context, exps []portmap.Experiment) ([]float64, error)
}

// ErrUnsupported is matched (errors.Is) by every *UnsupportedError.
var ErrUnsupported = errors.New("predict: experiments not supported")

// Failure is an experiment a predictor could not predict.
type Failure struct {
	Index      int // position in the slice given to Predict
	Experiment portmap.Experiment
	Insn       string // the experiment's instruction at fault; "" when unknown
	Reason     string
}

// String formats f as "experiment INDEX {…}: instruction "INSN": REASON".
func (f Failure) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "experiment %d %v: ", f.Index, f.Experiment)
	if f.Insn != "" {
		fmt.Fprintf(&b, "instruction %q: ", f.Insn)
	}
	b.WriteString(f.Reason)
	return b.String()
}

// UnsupportedError reports the experiments a predictor could not predict,
// sorted by index. It accompanies a complete slice of predictions with NaN
// at those indices.
type UnsupportedError struct {
	Predictor string
	N         int // number of experiments asked for
	Failures  []Failure
}

func (e *UnsupportedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d of %d experiments not supported", e.Predictor, len(e.Failures), e.N)
	if len(e.Failures) > 0 {
		fmt.Fprintf(&b, ": %s", e.Failures[0])
		if len(e.Failures) > 1 {
			fmt.Fprintf(&b, " (and %d more)", len(e.Failures)-1)
		}
	}
	return b.String()
}

// Is reports whether target is ErrUnsupported.
func (e *UnsupportedError) Is(target error) bool { return target == ErrUnsupported }

// Run calls p.Predict and returns the experiments it could not predict as a
// list instead of an error: values holds NaN at their indices. err is
// non-nil only when the prediction failed as a whole.
func Run(ctx context.Context, p Predictor, exps []portmap.Experiment) (values []float64, unsupported []Failure, err error) {
	values, err = p.Predict(ctx, exps)
	var ue *UnsupportedError
	if errors.As(err, &ue) {
		return values, ue.Failures, nil
	}
	return values, nil, err
}

// Supported returns the indices of the values that are not NaN.
func Supported(values []float64) []int {
	var idx []int
	for i, v := range values {
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	return idx
}

// finish sorts failures, fills NaN into values at their indices and returns
// the error Predict reports: nil when nothing failed.
func finish(name string, values []float64, failures []Failure) ([]float64, error) {
	if len(failures) == 0 {
		return values, nil
	}
	sort.SliceStable(failures, func(i, j int) bool { return failures[i].Index < failures[j].Index })
	for _, f := range failures {
		values[f.Index] = math.NaN()
	}
	return values, &UnsupportedError{Predictor: name, N: len(values), Failures: failures}
}

// MappingPredictor predicts with a port mapping: the bottleneck formula
// of package throughput (thesis Thm 5.2), optionally capped by a front-end
// bound. It is what every inferred or published mapping is evaluated with.
type MappingPredictor struct {
	// Label is the Name; FromMapping sets it to the mapping's name.
	Label string
	// FrontEnd, when not zero, bounds the throughput by the instructions or
	// µops the core issues per cycle (see throughput.FrontEnd).
	FrontEnd throughput.FrontEnd

	model *throughput.Model
}

// FromMapping returns the predictor of mapping m. Later changes to m do not
// affect it. Experiments with an instruction m does not map are reported as
// unsupported.
func FromMapping(m *portmap.Mapping) *MappingPredictor {
	name := m.Name()
	if name == "" {
		name = "mapping"
	}
	return &MappingPredictor{Label: name, model: throughput.NewModel(m)}
}

// Name returns p.Label.
func (p *MappingPredictor) Name() string { return p.Label }

// Predict returns the modeled inverse throughputs of exps, evaluated in
// parallel; see Predictor for unsupported experiments.
func (p *MappingPredictor) Predict(ctx context.Context, exps []portmap.Experiment) ([]float64, error) {
	md := p.model
	if p.FrontEnd != (throughput.FrontEnd{}) {
		md = md.WithFrontEnd(p.FrontEnd)
	}
	var failures []Failure
	var ok []portmap.Experiment
	var at []int
	for i, e := range exps {
		if _, err := md.Index(e); err != nil {
			failures = append(failures, Failure{Index: i, Experiment: e, Insn: unmapped(md, e), Reason: err.Error()})
			continue
		}
		ok = append(ok, e)
		at = append(at, i)
	}
	pred, err := md.Predict(ctx, ok)
	if err != nil {
		return nil, err
	}
	values := make([]float64, len(exps))
	for k, i := range at {
		values[i] = pred[k]
	}
	return finish(p.Label, values, failures)
}

// unmapped returns the first instruction of e that md cannot index.
func unmapped(md *throughput.Model, e portmap.Experiment) string {
	for _, it := range e.Items() {
		if _, err := md.Index(portmap.NewExperiment(it.Insn)); err != nil {
			return it.Insn
		}
	}
	return ""
}

// StoredPredictor answers with the predictions of another tool stored with
// measured experiments: the "other_results" of the PMEvo data sets (IACA,
// llvm-mca, Ithemal), read into portmap.Measurement.Others.
type StoredPredictor struct {
	tool   string
	values map[string]float64 // experiment key → stored prediction
	known  map[string]bool    // experiment key → in the set
}

// Stored returns the predictor that looks experiments up in set and answers
// with the prediction stored for tool (e.g. "llvm-mca"; see
// ExperimentSet.OtherIDs). Experiments not in set, or stored without a
// prediction of tool, are unsupported. When set holds an experiment twice,
// the first occurrence counts.
func Stored(set *portmap.ExperimentSet, tool string) *StoredPredictor {
	p := &StoredPredictor{tool: tool, values: map[string]float64{}, known: map[string]bool{}}
	for _, m := range set.Measurements {
		k := m.Experiment.Key()
		if p.known[k] {
			continue
		}
		p.known[k] = true
		if v, ok := m.Others[tool]; ok {
			p.values[k] = v
		}
	}
	return p
}

// Name returns the tool followed by " (stored)".
func (p *StoredPredictor) Name() string { return p.tool + " (stored)" }

// Predict returns the stored predictions of exps; see Predictor for the
// experiments without one.
func (p *StoredPredictor) Predict(ctx context.Context, exps []portmap.Experiment) ([]float64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	values := make([]float64, len(exps))
	var failures []Failure
	for i, e := range exps {
		k := e.Key()
		v, ok := p.values[k]
		switch {
		case ok:
			values[i] = v
		case p.known[k]:
			failures = append(failures, Failure{Index: i, Experiment: e, Reason: fmt.Sprintf("no stored %s prediction", p.tool)})
		default:
			failures = append(failures, Failure{Index: i, Experiment: e, Reason: "not in the experiment set"})
		}
	}
	return finish(p.Name(), values, failures)
}
