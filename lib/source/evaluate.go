package source

import (
	"context"

	"github.com/portlab/portlab/lib/metrics"
	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// Evaluate compares predictor p with the measurements of set
// (metrics.Evaluate: experiments p cannot predict are left out and
// counted) and names the evaluation name alone (the predictor's name when
// name is ""; the data set is left out of it, for tables whose caption
// names the data). A prediction that fails as a whole is the error.
func Evaluate(ctx context.Context, name string, p oracle.Predictor, set *portmap.ExperimentSet) (*metrics.Evaluation, error) {
	ev := metrics.Evaluate(ctx, p, set)
	if err := ev.Err(); err != nil {
		return nil, err
	}
	ev.Data = ""
	if name != "" {
		ev.Titled(name)
	}
	return ev, nil
}

// MustEvaluate is Evaluate that panics on error, for notebook cells (the
// panic stops the cell with the error) and tables built in one
// expression, such as metrics.Table(MustEvaluate(…), MustEvaluate(…)).
func MustEvaluate(ctx context.Context, name string, p oracle.Predictor, set *portmap.ExperimentSet) *metrics.Evaluation {
	ev, err := Evaluate(ctx, name, p, set)
	if err != nil {
		panic(err)
	}
	return ev
}
