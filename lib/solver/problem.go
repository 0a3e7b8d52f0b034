package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// Var is a decision variable: Lower ≤ x ≤ Upper (either may be infinite),
// whole-numbered when Integer is set.
type Var struct {
	Name         string
	Lower, Upper float64
	Integer      bool
}

// Sense is the relation of a constraint's left side to its right side.
type Sense int

const (
	LessEq    Sense = iota // Σ a·x ≤ b
	GreaterEq              // Σ a·x ≥ b
	Equal                  // Σ a·x = b
)

func (s Sense) String() string {
	switch s {
	case LessEq:
		return "<="
	case GreaterEq:
		return ">="
	case Equal:
		return "="
	}
	return fmt.Sprintf("Sense(%d)", int(s))
}

// Term is a coefficient of a variable, by index, in a constraint or the
// objective.
type Term struct {
	Var   int
	Coeff float64
}

// Constraint is Σ Terms sense RHS.
type Constraint struct {
	Name  string
	Terms []Term
	Sense Sense
	RHS   float64
}

// Problem is: minimise Σ Objective over Vars subject to Constraints.
type Problem struct {
	Vars        []Var
	Constraints []Constraint
	Objective   []Term
}

// AddVar adds a variable and returns its index.
func (p *Problem) AddVar(name string, lower, upper float64, integer bool) int {
	p.Vars = append(p.Vars, Var{Name: name, Lower: lower, Upper: upper, Integer: integer})
	return len(p.Vars) - 1
}

// AddBinary adds a 0-1 variable and returns its index.
func (p *Problem) AddBinary(name string) int { return p.AddVar(name, 0, 1, true) }

// AddConstraint adds Σ terms sense rhs.
func (p *Problem) AddConstraint(name string, terms []Term, sense Sense, rhs float64) {
	p.Constraints = append(p.Constraints, Constraint{Name: name, Terms: terms, Sense: sense, RHS: rhs})
}

// HasIntegers reports whether p is a MILP.
func (p *Problem) HasIntegers() bool {
	for _, v := range p.Vars {
		if v.Integer {
			return true
		}
	}
	return false
}

// Check returns an error naming the first malformed part of p: a term
// naming a variable outside p, a NaN coefficient, bounds Lower > Upper.
func (p *Problem) Check() error {
	for j, v := range p.Vars {
		if math.IsNaN(v.Lower) || math.IsNaN(v.Upper) || v.Lower > v.Upper {
			return fmt.Errorf("solver: variable %d (%s): bounds [%v, %v]", j, v.Name, v.Lower, v.Upper)
		}
	}
	check := func(where string, terms []Term) error {
		for _, t := range terms {
			if t.Var < 0 || t.Var >= len(p.Vars) {
				return fmt.Errorf("solver: %s: variable index %d outside 0..%d", where, t.Var, len(p.Vars)-1)
			}
			if math.IsNaN(t.Coeff) || math.IsInf(t.Coeff, 0) {
				return fmt.Errorf("solver: %s: coefficient %v of %s", where, t.Coeff, p.Vars[t.Var].Name)
			}
		}
		return nil
	}
	if err := check("objective", p.Objective); err != nil {
		return err
	}
	for i, c := range p.Constraints {
		if math.IsNaN(c.RHS) || math.IsInf(c.RHS, 0) {
			return fmt.Errorf("solver: constraint %d (%s): right side %v", i, c.Name, c.RHS)
		}
		if err := check(fmt.Sprintf("constraint %d (%s)", i, c.Name), c.Terms); err != nil {
			return err
		}
	}
	return nil
}

// Solution is an optimal solution, or — when a time limit stopped the
// solver after it had found an integer-feasible solution — the best one
// found (Incumbent, with Warning saying so).
type Solution struct {
	Values    []float64 // by variable index
	Objective float64
	Solver    string // "gonum simplex" or "cbc"
	Elapsed   time.Duration
	// Incumbent is set when the solution is feasible but not proven
	// optimal: the time limit stopped the solver first. Warning says so
	// in a sentence for a report or trace ("" for a proven optimum).
	Incumbent bool
	Warning   string
}

// Errors the solvers wrap.
var (
	ErrInfeasible = errors.New("problem is infeasible")
	ErrUnbounded  = errors.New("problem is unbounded")
	ErrNoSolver   = errors.New("solver not installed")
	ErrTimeout    = errors.New("time limit reached without a proven optimum")
)

// Solver solves problems.
type Solver interface {
	Name() string
	Solve(ctx context.Context, p *Problem) (*Solution, error)
}

// MaxDenseRows is the largest number of constraints Solve gives gonum's
// dense simplex, which factorises the basis at every pivot; larger LPs go
// to CBC (its simplex, CLP, is sparse).
const MaxDenseRows = 150

// Solve solves p with LP when it has no integer variables and at most
// MaxDenseRows constraints, and with CBC otherwise; limit bounds CBC's time
// (0: none beyond ctx).
func Solve(ctx context.Context, p *Problem, limit time.Duration) (*Solution, error) {
	if p.HasIntegers() || len(p.Constraints) > MaxDenseRows {
		return (&CBC{TimeLimit: limit}).Solve(ctx, p)
	}
	return LP{}.Solve(ctx, p)
}
