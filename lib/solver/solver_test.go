package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func needCBC(t *testing.T) {
	if _, err := exec.LookPath("cbc"); err != nil {
		t.Skip("cbc not installed (Debian coinor-cbc)")
	}
}

// knapsack: maximise 5a + 4b + 3c subject to 2a + 3b + c ≤ 5, 4a + b + 2c ≤
// 11, 3a + 4b + 2c ≤ 8 (Chvátal's example: optimum 13 at a=2, b=0, c=1 for
// the LP; the same point is integral).
func chvatal(integer bool) *Problem {
	p := &Problem{}
	a := p.AddVar("a", 0, math.Inf(1), integer)
	b := p.AddVar("b", 0, math.Inf(1), integer)
	c := p.AddVar("c", 0, math.Inf(1), integer)
	p.AddConstraint("r1", []Term{{a, 2}, {b, 3}, {c, 1}}, LessEq, 5)
	p.AddConstraint("r2", []Term{{a, 4}, {b, 1}, {c, 2}}, LessEq, 11)
	p.AddConstraint("r3", []Term{{a, 3}, {b, 4}, {c, 2}}, LessEq, 8)
	p.Objective = []Term{{a, -5}, {b, -4}, {c, -3}}
	return p
}

func TestLPAndCBCAgree(t *testing.T) {
	ctx := context.Background()
	lp, err := LP{}.Solve(ctx, chvatal(false))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(lp.Objective+13) > 1e-9 || math.Abs(lp.Values[0]-2) > 1e-9 || math.Abs(lp.Values[2]-1) > 1e-9 {
		t.Errorf("LP: objective %v at %v, want -13 at [2 0 1]", lp.Objective, lp.Values)
	}
	needCBC(t)
	mi, err := Solve(ctx, chvatal(true), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if mi.Solver != "cbc" || math.Abs(mi.Objective+13) > 1e-6 {
		t.Errorf("CBC: %s objective %v at %v, want cbc -13", mi.Solver, mi.Objective, mi.Values)
	}
}

// An integer restriction that changes the optimum: max x+y, 2x+2y ≤ 3.
func TestIntegrality(t *testing.T) {
	needCBC(t)
	p := &Problem{}
	x, y := p.AddVar("x", 0, 10, true), p.AddVar("y", 0, 10, true)
	p.AddConstraint("half", []Term{{x, 2}, {y, 2}}, LessEq, 3)
	p.Objective = []Term{{x, -1}, {y, -1}}
	s, err := Solve(context.Background(), p, 0)
	if err != nil {
		t.Fatal(err)
	}
	if s.Objective != -1 {
		t.Errorf("objective %v, want -1 (the LP relaxation has -1.5)", s.Objective)
	}
}

func TestBoundsAndEqualities(t *testing.T) {
	// min x - y, x ∈ [1, 3], y ∈ (-∞, 2], y free-ish, x + y = 2, z free with z ≥ x - 5.
	p := &Problem{}
	x := p.AddVar("x", 1, 3, false)
	y := p.AddVar("y", math.Inf(-1), 2, false)
	z := p.AddVar("z", math.Inf(-1), math.Inf(1), false)
	p.AddConstraint("sum", []Term{{x, 1}, {y, 1}}, Equal, 2)
	p.AddConstraint("z", []Term{{z, 1}, {x, -1}}, GreaterEq, -5)
	p.Objective = []Term{{x, 1}, {y, -1}, {z, 1}}
	// Optimum: x=1, y=1, z=-4: 1 - 1 - 4 = -4.
	for _, s := range []Solver{LP{}, &CBC{}} {
		if _, ok := s.(*CBC); ok {
			needCBC(t)
		}
		sol, err := s.Solve(context.Background(), p)
		if err != nil {
			t.Fatalf("%s: %v", s.Name(), err)
		}
		if math.Abs(sol.Objective+4) > 1e-7 || math.Abs(sol.Values[z]+4) > 1e-7 {
			t.Errorf("%s: objective %v at %v, want -4 at [1 1 -4]", s.Name(), sol.Objective, sol.Values)
		}
	}
}

func TestInfeasibleUnbounded(t *testing.T) {
	inf := &Problem{}
	x := inf.AddVar("x", 0, 1, false)
	inf.AddConstraint("big", []Term{{x, 1}}, GreaterEq, 2)
	inf.Objective = []Term{{x, 1}}
	unb := &Problem{}
	y := unb.AddVar("y", 0, math.Inf(1), false)
	unb.AddConstraint("low", []Term{{y, 1}}, GreaterEq, 2)
	unb.Objective = []Term{{y, -1}}
	solvers := []Solver{LP{}}
	if _, err := exec.LookPath("cbc"); err == nil {
		solvers = append(solvers, &CBC{})
	}
	for _, s := range solvers {
		if _, err := s.Solve(context.Background(), inf); !errors.Is(err, ErrInfeasible) {
			t.Errorf("%s on an infeasible problem: %v", s.Name(), err)
		}
		if _, err := s.Solve(context.Background(), unb); !errors.Is(err, ErrUnbounded) {
			t.Errorf("%s on an unbounded problem: %v", s.Name(), err)
		}
	}
}

func TestMissingSolverAndTimeout(t *testing.T) {
	_, err := (&CBC{Path: "/nonexistent/cbc"}).Solve(context.Background(), chvatal(true))
	if !errors.Is(err, ErrNoSolver) || !strings.Contains(err.Error(), "coinor-cbc") {
		t.Errorf("missing cbc: %v; want ErrNoSolver naming the package", err)
	}
	// Fake cbcs that stop on their time limit, as CBC reports it: with an
	// integer solution (the best found is the answer, with a warning) and
	// without one (the relaxation's values are no answer: ErrTimeout).
	dir := t.TempDir()
	fake := func(name, status string) string {
		path := filepath.Join(dir, name)
		script := "#!/bin/sh\nfor a; do last=$a; done\nprintf '" + status + "\\n      0 x0 1 0\\n' > \"$last\"\n"
		if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	sol, err := (&CBC{Path: fake("incumbent", "Stopped on time - objective value -5"), TimeLimit: time.Second}).Solve(context.Background(), chvatal(true))
	if err != nil || !sol.Incumbent || sol.Values[0] != 1 || sol.Objective != -5 || !strings.Contains(sol.Warning, "not proven optimal") {
		t.Errorf("cbc stopped on time with a solution: %+v, %v; want the incumbent with a warning", sol, err)
	}
	// A "solution" that violates the problem is no answer.
	bad := filepath.Join(dir, "infeasible")
	os.WriteFile(bad, []byte("#!/bin/sh\nfor a; do last=$a; done\nprintf 'Stopped on time - objective value -50\\n      0 x0 10 0\\n' > \"$last\"\n"), 0o755)
	if _, err := (&CBC{Path: bad, TimeLimit: time.Second}).Solve(context.Background(), chvatal(true)); !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "violates r1") {
		t.Errorf("cbc stopped on time with an infeasible point: %v, want ErrTimeout naming the constraint", err)
	}
	if _, err := (&CBC{Path: fake("none", "Stopped on time (no integer solution - continuous used) - objective value -13.5"), TimeLimit: time.Second}).Solve(context.Background(), chvatal(true)); !errors.Is(err, ErrTimeout) {
		t.Errorf("cbc stopped on time without a solution: %v, want ErrTimeout", err)
	}
	// A context deadline that has passed.
	needCBC(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	time.Sleep(time.Millisecond)
	if _, err := (&CBC{}).Solve(ctx, chvatal(true)); !errors.Is(err, ErrTimeout) {
		t.Errorf("expired deadline: %v, want ErrTimeout", err)
	}
}

func TestCheck(t *testing.T) {
	p := &Problem{}
	p.AddVar("x", 2, 1, false)
	if err := p.Check(); err == nil || !strings.Contains(err.Error(), "variable 0 (x)") {
		t.Errorf("Check = %v", err)
	}
	q := &Problem{}
	q.AddVar("x", 0, 1, false)
	q.AddConstraint("bad", []Term{{3, 1}}, LessEq, 1)
	if _, err := (LP{}).Solve(context.Background(), q); err == nil || !strings.Contains(err.Error(), "constraint 0 (bad): variable index 3") {
		t.Errorf("Solve with a bad index: %v", err)
	}
}

// Repeated variables in a row or the objective are added up.
func TestRepeatedTerms(t *testing.T) {
	p := &Problem{}
	x := p.AddVar("x", 0, 4, false)
	p.AddConstraint("twice", []Term{{x, 1}, {x, 1}}, LessEq, 6)
	p.Objective = []Term{{x, -1}, {x, -1}}
	for _, s := range []Solver{LP{}, &CBC{}} {
		if _, ok := s.(*CBC); ok {
			needCBC(t)
		}
		sol, err := s.Solve(context.Background(), p)
		if err != nil || math.Abs(sol.Values[x]-3) > 1e-9 {
			t.Errorf("%s: %v, %v; want x = 3", s.Name(), sol, err)
		}
	}
}

// A model cbc rejects is kept for inspection and named in the error.
func TestRejectedModelKept(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "cbc")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho '** Current model not valid'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := (&CBC{Path: fake}).Solve(context.Background(), chvatal(true))
	if err == nil || !strings.Contains(err.Error(), "model kept in ") || !strings.Contains(err.Error(), "Current model not valid") {
		t.Fatalf("error %v, want the kept model and cbc's output", err)
	}
	kept := strings.TrimSuffix(strings.SplitN(strings.SplitN(err.Error(), "model kept in ", 2)[1], ")", 2)[0], ")")
	data, rerr := os.ReadFile(kept)
	os.Remove(kept)
	if rerr != nil || !strings.Contains(string(data), "Subject To") {
		t.Errorf("kept model %s: %v", kept, rerr)
	}
}

// Rows of hundreds of terms with 17-digit coefficients: CBC's LP reader
// failed on such an objective line before WriteLP wrapped rows (PALMED's
// LP2 on 120 host forms). max Σ c_j x_j, Σ x_j ≤ 1, 0 ≤ x_j ≤ 1: the
// largest c_j.
func TestLongRows(t *testing.T) {
	needCBC(t)
	p := &Problem{}
	var obj, sum []Term
	best := 0.0
	for j := range 300 {
		x := p.AddVar("x", 0, 1, false)
		c := 1 + float64(j%97)/7.123456789012345
		best = math.Max(best, c)
		obj = append(obj, Term{x, -c})
		sum = append(sum, Term{x, 1})
	}
	p.AddConstraint("one", sum, LessEq, 1)
	p.Objective = obj
	for _, line := range strings.Split(WriteLP(p), "\n") {
		if len(line) > 400 {
			t.Fatalf("a line of %d characters", len(line))
		}
	}
	sol, err := (&CBC{}).Solve(t.Context(), p)
	if err != nil || math.Abs(sol.Objective+best) > 1e-6 {
		t.Errorf("%v, %v; want objective %v", sol, err, -best)
	}
}

// hardMIP is a 0/1 problem CBC does not solve in a few milliseconds: an
// equality with large random coefficients (feasible solutions are rare)
// beside a knapsack constraint.
func hardMIP() *Problem {
	rng := rand.New(rand.NewPCG(3, 5))
	p := &Problem{}
	var w, c []Term
	sum := 0.0
	for i := range 40 {
		x := p.AddBinary(fmt.Sprintf("x%d", i))
		wi := float64(100000 + rng.IntN(900000))
		sum += wi
		w = append(w, Term{x, wi})
		c = append(c, Term{x, float64(1 + rng.IntN(1000000))})
		p.Objective = append(p.Objective, Term{x, -wi - float64(rng.IntN(1000))})
	}
	p.AddConstraint("knapsack", w, LessEq, math.Floor(sum/2))
	p.AddConstraint("equality", c, Equal, 10000001)
	return p
}

// TestTimeLimitNeverPanics: a time-limited CBC ends in a feasible best
// solution with a warning, a proven optimum, or ErrTimeout — under a
// limit of 10 ms (usually no integer solution yet) and of 1 s.
func TestTimeLimitNeverPanics(t *testing.T) {
	needCBC(t)
	for _, limit := range []time.Duration{10 * time.Millisecond, time.Second} {
		p := hardMIP()
		sol, err := (&CBC{TimeLimit: limit}).Solve(t.Context(), p)
		switch {
		case err != nil:
			if !errors.Is(err, ErrTimeout) {
				t.Errorf("limit %v: %v, want ErrTimeout or a solution", limit, err)
			}
		case sol.Incumbent:
			if !strings.Contains(sol.Warning, "not proven optimal") {
				t.Errorf("limit %v: incumbent without a warning: %q", limit, sol.Warning)
			}
			fallthrough
		default:
			for _, c := range p.Constraints {
				lhs := 0.0
				for _, tm := range c.Terms {
					lhs += tm.Coeff * sol.Values[tm.Var]
				}
				if ok := (c.Sense == Equal && math.Abs(lhs-c.RHS) < 1e-6) || (c.Sense == LessEq && lhs <= c.RHS+1e-6); !ok {
					t.Errorf("limit %v: constraint %s violated: %v vs %v", limit, c.Name, lhs, c.RHS)
				}
			}
		}
		t.Logf("limit %v: incumbent %v, err %v", limit, sol != nil && sol.Incumbent, err)
	}
}
