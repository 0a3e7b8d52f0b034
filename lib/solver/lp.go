package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// LP solves linear programs without integer variables in process, with
// gonum's simplex method on the standard form (every constraint gets a
// slack variable, so the constraint matrix has full row rank). The matrix
// is dense: use it for problems up to a few thousand constraints.
type LP struct {
	// Tol is the simplex optimality tolerance; 0 means 1e-10.
	Tol float64
}

// Name returns "gonum simplex".
func (LP) Name() string { return "gonum simplex" }

// Solve solves p, which must not have integer variables.
func (s LP) Solve(ctx context.Context, p *Problem) (*Solution, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	if p.HasIntegers() {
		return nil, fmt.Errorf("solver: %s solves LPs only; the problem has integer variables (use CBC)", s.Name())
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	start := time.Now()
	tol := s.Tol
	if tol == 0 {
		tol = 1e-10
	}
	// Standard-form columns: each variable x_j = off_j + sign_j·(x⁺ [− x⁻]).
	type col struct{ plus, minus int } // minus -1 unless free
	cols := make([]col, len(p.Vars))
	off := make([]float64, len(p.Vars))
	sign := make([]float64, len(p.Vars))
	n := 0
	var boundRows [][2]float64 // (column, width) rows x' ≤ width
	for j, v := range p.Vars {
		lo, up := v.Lower, v.Upper
		switch {
		case !math.IsInf(lo, -1):
			off[j], sign[j] = lo, 1
			cols[j] = col{n, -1}
			n++
			if !math.IsInf(up, 1) {
				boundRows = append(boundRows, [2]float64{float64(cols[j].plus), up - lo})
			}
		case !math.IsInf(up, 1):
			off[j], sign[j] = up, -1
			cols[j] = col{n, -1}
			n++
		default:
			sign[j] = 1
			cols[j] = col{n, n + 1}
			n += 2
		}
	}
	type row struct {
		coef  map[int]float64
		sense Sense
		rhs   float64
	}
	var rows []row
	addRow := func(terms []Term, sense Sense, rhs float64) {
		r := row{coef: map[int]float64{}, sense: sense, rhs: rhs}
		for _, t := range terms {
			c := cols[t.Var]
			r.rhs -= t.Coeff * off[t.Var]
			r.coef[c.plus] += sign[t.Var] * t.Coeff
			if c.minus >= 0 {
				r.coef[c.minus] -= sign[t.Var] * t.Coeff
			}
		}
		rows = append(rows, r)
	}
	for _, c := range p.Constraints {
		if c.Sense == Equal {
			addRow(c.Terms, LessEq, c.RHS)
			addRow(c.Terms, GreaterEq, c.RHS)
		} else {
			addRow(c.Terms, c.Sense, c.RHS)
		}
	}
	for _, br := range boundRows {
		rows = append(rows, row{coef: map[int]float64{int(br[0]): 1}, sense: LessEq, rhs: br[1]})
	}
	cost := make([]float64, n)
	constant := 0.0
	for _, t := range p.Objective {
		c := cols[t.Var]
		constant += t.Coeff * off[t.Var]
		cost[c.plus] += sign[t.Var] * t.Coeff
		if c.minus >= 0 {
			cost[c.minus] -= sign[t.Var] * t.Coeff
		}
	}
	// Columns that appear in no row: fix at 0 unless the cost makes the
	// problem unbounded.
	used := make([]bool, n)
	for _, r := range rows {
		for k, v := range r.coef {
			if v != 0 {
				used[k] = true
			}
		}
	}
	keep := make([]int, n) // standard column → matrix column, -1 dropped
	m := 0
	for k := range n {
		if !used[k] {
			if cost[k] < 0 {
				return nil, fmt.Errorf("solver: %s: %w (a variable in no constraint lowers the objective without bound)", s.Name(), ErrUnbounded)
			}
			keep[k] = -1
			continue
		}
		keep[k] = m
		m++
	}
	nr := len(rows)
	A := mat.NewDense(max(nr, 1), m+nr, nil)
	b := make([]float64, max(nr, 1))
	c := make([]float64, m+nr)
	for k := range n {
		if keep[k] >= 0 {
			c[keep[k]] = cost[k]
		}
	}
	for i, r := range rows {
		neg := r.rhs < 0
		f := 1.0
		if neg {
			f = -1
		}
		for k, v := range r.coef {
			if keep[k] >= 0 {
				A.Set(i, keep[k], f*v)
			}
		}
		switch r.sense {
		case LessEq:
			A.Set(i, m+i, f)
		case GreaterEq:
			A.Set(i, m+i, -f)
		}
		b[i] = f * r.rhs
	}
	values := make([]float64, len(p.Vars))
	obj := constant
	if nr > 0 {
		f, x, err := lp.Simplex(c, A, b, tol, nil)
		switch {
		case errors.Is(err, lp.ErrInfeasible):
			return nil, fmt.Errorf("solver: %s: %w", s.Name(), ErrInfeasible)
		case errors.Is(err, lp.ErrUnbounded):
			return nil, fmt.Errorf("solver: %s: %w", s.Name(), ErrUnbounded)
		case err != nil:
			return nil, fmt.Errorf("solver: %s: %w", s.Name(), err)
		}
		obj += f
		for j := range p.Vars {
			cc := cols[j]
			v := 0.0
			if keep[cc.plus] >= 0 {
				v = x[keep[cc.plus]]
			}
			if cc.minus >= 0 && keep[cc.minus] >= 0 {
				v -= x[keep[cc.minus]]
			}
			values[j] = off[j] + sign[j]*v
		}
	} else {
		for j := range p.Vars {
			values[j] = off[j]
		}
	}
	return &Solution{Values: values, Objective: obj, Solver: s.Name(), Elapsed: time.Since(start)}, nil
}
