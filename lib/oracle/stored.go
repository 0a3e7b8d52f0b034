package oracle

import (
	"context"
	"errors"
	"fmt"

	"github.com/portlab/portlab/lib/portmap"
)

// Replay answers from measured data, e.g. a PMEvo experiment list or a
// finished campaign: as an Oracle it returns the stored measurement (with
// its detail), as a Predictor the stored cycles. Experiments it has no
// measurement of are an error naming the data (an unsupported experiment
// of the Predictor). When the data holds an experiment twice, the last
// measurement counts.
type Replay struct {
	name  string
	byKey map[string]portmap.Measurement
}

// NewReplay indexes the measurements of s with a positive cycle count;
// name is the Name and is used in errors.
func NewReplay(name string, s *portmap.ExperimentSet) *Replay {
	r := &Replay{name: name, byKey: make(map[string]portmap.Measurement, s.Len())}
	for _, m := range s.Measurements {
		if m.Cycles > 0 {
			r.byKey[m.Experiment.Key()] = m
		}
	}
	return r
}

// Name returns the name given to NewReplay.
func (r *Replay) Name() string { return r.name }

// Len returns the number of stored measurements.
func (r *Replay) Len() int { return len(r.byKey) }

// Measure returns the stored measurement of e.
func (r *Replay) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	if err := ctx.Err(); err != nil {
		return portmap.Measurement{}, err
	}
	if m, ok := r.byKey[e.Key()]; ok {
		m.Experiment = e
		return m, nil
	}
	return portmap.Measurement{}, fmt.Errorf("%s has no measurement of %s", r.name, e)
}

// Predict returns the stored cycles of exps; see Predictor for the
// experiments without one.
func (r *Replay) Predict(ctx context.Context, exps []portmap.Experiment) ([]float64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	values := make([]float64, len(exps))
	var failures []portmap.Failure
	for i, e := range exps {
		if m, ok := r.byKey[e.Key()]; ok {
			values[i] = m.Cycles
		} else {
			failures = append(failures, portmap.Failure{Index: i, Experiment: e, Reason: "not in " + r.name})
		}
	}
	return Unsupported(r.name, values, failures)
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
	var failures []portmap.Failure
	for i, e := range exps {
		k := e.Key()
		v, ok := p.values[k]
		switch {
		case ok:
			values[i] = v
		case p.known[k]:
			failures = append(failures, portmap.Failure{Index: i, Experiment: e, Reason: fmt.Sprintf("no stored %s prediction", p.tool)})
		default:
			failures = append(failures, portmap.Failure{Index: i, Experiment: e, Reason: "not in the experiment set"})
		}
	}
	return Unsupported(p.Name(), values, failures)
}

// AsOracle returns an Oracle that measures an experiment by asking p to
// predict it, so that inference can learn from a predictor (what mapping
// does llvm-mca's model imply?). An experiment p cannot predict is an
// error with p's reason.
func AsOracle(p Predictor) Oracle { return predictorOracle{p} }

type predictorOracle struct{ p Predictor }

func (o predictorOracle) Measure(ctx context.Context, e portmap.Experiment) (portmap.Measurement, error) {
	v, err := o.p.Predict(ctx, []portmap.Experiment{e})
	var ue *UnsupportedError
	if errors.As(err, &ue) && len(ue.Failures) == 1 {
		f := ue.Failures[0]
		if f.Insn != "" {
			return portmap.Measurement{}, &InsnError{Insn: f.Insn, Err: errors.New(f.Reason)}
		}
		return portmap.Measurement{}, fmt.Errorf("%s: %s", o.p.Name(), f.Reason)
	}
	if err != nil {
		return portmap.Measurement{}, err
	}
	return portmap.Measurement{Experiment: e, Cycles: v[0]}, nil
}

// AsPredictor returns a Predictor named name that measures each experiment
// with o (one after the other, see MeasureAll), e.g. to compare a fresh
// measurement on the host with stored data. Experiments o fails to measure
// are unsupported.
func AsPredictor(name string, o Oracle) Predictor { return oraclePredictor{name, o} }

type oraclePredictor struct {
	name string
	o    Oracle
}

func (p oraclePredictor) Name() string { return p.name }

func (p oraclePredictor) Predict(ctx context.Context, exps []portmap.Experiment) ([]float64, error) {
	set, failures, err := MeasureAll(ctx, p.o, exps, nil)
	if err != nil {
		return nil, err
	}
	values := make([]float64, len(exps))
	k := 0
	for i := range exps {
		if k < len(failures) && failures[k].Index == i {
			k++
			continue
		}
		values[i] = set.Measurements[i-k].Cycles
	}
	return Unsupported(p.name, values, failures)
}
