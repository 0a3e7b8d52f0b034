package cegis

import (
	"errors"
	"strings"
	"testing"

	"github.com/portlab/portlab/lib/oracle"
	"github.com/portlab/portlab/lib/portmap"
)

// TestEndAskedOfNewSolver infers a random two-level truth of 20
// instructions on 10 ports from exact measurements (ε = 0, z3 seed 1).
// z3 4.8.12 answered the last question of this run — is any mapping other
// than the candidate consistent? — with unsat in the session that had
// answered the 80 questions before it, although a renaming of the truth
// satisfied every assertion in force (a new z3 process with the same
// assertions finds it); the run ended complete with a mapping that
// predicts 1 cycle for {i10 ↦ 3, i8 ↦ 1}, where the truth takes 4/3. The
// search now ends only on questions a new solver process answered after
// the last measurement, and then with a renaming of the truth.
func TestEndAskedOfNewSolver(t *testing.T) {
	needZ3(t)
	truth := randomTwoLevel(10, 20, 4)
	cfg := DefaultConfig()
	cfg.Epsilon, cfg.Validation, cfg.SolverSeed = 0, 0, 1
	res, err := Infer(t.Context(), oracle.Simulate(truth, 0, 1), truth.Instructions(), 10, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := portmap.EquivalentByRenaming(res.Mapping, truth); !ok || !res.Complete {
		t.Fatalf("complete %v, inferred\n%v\nnot a renaming of\n%v", res.Complete, res.Mapping, truth)
	}
	// Between the last measurement and the end, a new solver.
	its := res.Iterations
	if n := len(its); n < 2 || its[n-1].Step != "done" {
		t.Fatalf("the run did not end with \"done\": %v", its[len(its)-1])
	}
	fresh := false
	for k := len(its) - 2; k >= 0 && its[k].Measured == its[len(its)-1].Measured; k-- {
		fresh = fresh || its[k].Step == "new solver"
	}
	if !fresh {
		t.Errorf("the run ended without asking a new solver process after its last measurement; last steps %v, %v", its[len(its)-2], its[len(its)-1])
	}
}

// TestReproducesNamesExperiment: a mapping that does not reproduce a
// measurement it was found for is never the answer; the error names the
// experiment, the measured and the predicted cycles.
func TestReproducesNamesExperiment(t *testing.T) {
	sp := &space{insns: []string{"a", "b"}, ports: 2, owner: []int{0, 1}, unitsOf: [][]int{{0}, {1}}, enc: Bottleneck, eps: 0.02 + roundingSlack}
	r := &run{cfg: Config{Epsilon: 0.02}, sp: sp, portIDs: []string{"0", "1"}}
	add := func(e exp, cycles float64) {
		pe, err := portmap.ExperimentOfItems(portmap.Item{Insn: "a", Count: e[0]}, portmap.Item{Insn: "b", Count: e[1]})
		if err != nil {
			t.Fatal(err)
		}
		r.meas = append(r.meas, measured{e: e, cycles: cycles, m: portmap.Measurement{Experiment: pe, Cycles: cycles}})
	}
	// The truth: a on port 0, b on port 1.
	add(exp{1, 0}, 1)
	add(exp{0, 1}, 1)
	add(exp{1, 1}, 1)
	if err := r.reproduces(candidate{1, 2}); err != nil {
		t.Errorf("the truth: %v", err)
	}
	// Within ε·|e| = 0.04 of a measurement of 1.03 cycles.
	r.meas[2].cycles, r.meas[2].m.Cycles = 1.03, 1.03
	if err := r.reproduces(candidate{1, 2}); err != nil {
		t.Errorf("the truth within ε: %v", err)
	}
	// Both on port 0: {a ↦ 1, b ↦ 1} takes 2 cycles.
	err := r.reproduces(candidate{1, 1})
	var ue *UnexplainedError
	if !errors.As(err, &ue) || ue.Predicted != 2 || ue.Measurement.Cycles != 1.03 {
		t.Fatalf("both on port 0: %v, want an *UnexplainedError predicting 2 for {a ↦ 1, b ↦ 1}", err)
	}
	for _, want := range []string{"{a ↦ 1, b ↦ 1}", "predicts 2 cycles", "measured at 1.03,"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not name %q", err, want)
		}
	}
}
