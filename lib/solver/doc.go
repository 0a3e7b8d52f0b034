// Package solver states linear and mixed-integer linear programs once and
// solves them with the right engine: pure LPs (continuous variables only)
// with gonum's simplex method (gonum.org/v1/gonum/optimize/convex/lp), in
// process; MILPs with the COIN-OR CBC solver, run as a subprocess on an LP
// file (Debian package coinor-cbc, conda package coin-or-cbc). There is no
// home-made branch and bound.
//
// A Problem minimises a linear objective over bounded variables subject to
// sparse linear constraints. Solve picks the engine; LP and CBC can be used
// directly. Infeasible and unbounded problems, a missing solver and a time
// limit reached without a proven optimum are errors (ErrInfeasible,
// ErrUnbounded, ErrNoSolver, ErrTimeout), never a solution.
package solver
