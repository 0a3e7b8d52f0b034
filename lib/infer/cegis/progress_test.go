package cegis

import (
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/infer"
	"github.com/portlab/portlab/lib/oracle"
)

// TestProgressWithoutTotal checks the progress of `portlab infer cegis`,
// whose number of iterations is not known in advance: not "1/0" — each
// report says how far the run has come (iteration,
// experiments so far, the experiment's size, the time in the solver so
// far) and carries no total.
func TestProgressWithoutTotal(t *testing.T) {
	needZ3(t)
	truth := randomTwoLevel(4, 6, 3)
	var its []Iteration
	var sts []infer.Progress
	m := &Method{Config: DefaultConfig()}
	m.Config.Progress = func(it Iteration) { its = append(its, it) }
	res, err := infer.Infer(t.Context(), infer.Problem{Oracle: oracle.Simulate(truth, 0, 1), Instructions: truth.Instructions(), Ports: 4}, m,
		&infer.Settings{Progress: func(s infer.Progress) { sts = append(sts, s) }})
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report.(*Result)
	if len(its) < 2 || len(sts) != len(its) || len(rep.Iterations) != len(its) {
		t.Fatalf("%d iterations, %d progress reports, %d in the result", len(its), len(sts), len(rep.Iterations))
	}
	for k, it := range its {
		if k > 0 && (it.Solver < its[k-1].Solver || it.Measured < its[k-1].Measured) {
			t.Errorf("iteration %d: solver time %v or measurements %d went back (before: %v, %d)", it.Index, it.Solver, it.Measured, its[k-1].Solver, its[k-1].Measured)
		}
		if it.Solver > it.Elapsed {
			t.Errorf("iteration %d: %v in the solver of %v in all", it.Index, it.Solver, it.Elapsed)
		}
		s := sts[k]
		if s.Total != 0 || s.Done != it.Index || s.Message != it.Status() {
			t.Errorf("report %d: %+v, want Done %d, no Total, message %q", k, s, it.Index, it.Status())
		}
		for _, want := range []string{"iteration ", " experiments, ", "solver "} {
			if !strings.Contains(s.Message, want) {
				t.Errorf("report %q lacks %q", s.Message, want)
			}
		}
	}
	last := its[len(its)-1]
	if sum := rep.FindMapping + rep.FindOther + rep.Unbounded; last.Solver != sum || last.Step != "done" || last.Measured != rep.Measurements.Len() {
		t.Errorf("last report %+v; the run: solver %v, %d measured", last, sum, rep.Measurements.Len())
	}
}
