package classes

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// classPredictor predicts with the representatives' model: every form is
// replaced by its class's representative, forms without µops are left out
// of the ports' share and count for the front end only (a cap of ipc
// instructions per cycle, when positive).
type classPredictor struct {
	inner    oracle.Predictor
	rep      map[string]string
	portLess map[string]bool
	ipc      float64
}

func (p *classPredictor) Name() string { return "classes(" + p.inner.Name() + ")" }

func (p *classPredictor) Predict(ctx context.Context, exps []portmap.Experiment) ([]float64, error) {
	values := make([]float64, len(exps))
	var failures []portmap.Failure
	var ask []portmap.Experiment
	var at []int
	for i, e := range exps {
		var renamed portmap.Experiment
		bad := ""
		for _, it := range e.Items() {
			switch r, ok := p.rep[it.Insn]; {
			case ok:
				renamed = renamed.With(r, it.Count)
			case p.portLess[it.Insn]:
			default:
				bad = it.Insn
			}
		}
		if bad != "" {
			values[i] = math.NaN()
			failures = append(failures, portmap.Failure{Index: i, Experiment: e, Insn: bad, Reason: fmt.Sprintf("instruction %q is not mapped", bad)})
			continue
		}
		if p.ipc > 0 {
			values[i] = float64(e.Len()) / p.ipc
		}
		if renamed.Len() > 0 {
			ask = append(ask, renamed)
			at = append(at, i)
		}
	}
	if len(ask) > 0 {
		got, err := p.inner.Predict(ctx, ask)
		if err != nil && !errors.Is(err, oracle.ErrUnsupported) {
			return nil, err
		}
		for k, i := range at {
			if math.IsNaN(got[k]) {
				values[i] = math.NaN()
				failures = append(failures, portmap.Failure{Index: i, Experiment: exps[i], Reason: fmt.Sprintf("%s does not predict %v", p.inner.Name(), ask[k])})
				continue
			}
			values[i] = max(values[i], got[k])
		}
	}
	return oracle.Unsupported(p.Name(), values, failures)
}
