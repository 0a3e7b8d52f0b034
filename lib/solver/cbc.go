package solver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// CBC solves MILPs (and LPs) with the COIN-OR CBC solver, run as a
// subprocess on an LP file it writes to a temporary directory.
type CBC struct {
	// Path is the cbc executable; "" looks up "cbc" on PATH.
	Path string
	// TimeLimit bounds the solver's time. Reaching it after an integer
	// solution was found returns the best one found (Solution.Incumbent,
	// with a Warning); without one it is ErrTimeout. 0 means no limit
	// beyond the context's.
	TimeLimit time.Duration
	// Gap is the relative optimality gap CBC may stop at (0: CBC's default).
	Gap float64
}

// Name returns "cbc".
func (*CBC) Name() string { return "cbc" }

// Check reports whether cbc can be run: nil, or an error wrapping
// ErrNoSolver that names the package to install. Callers with a long way
// to their first solve check first.
func (s *CBC) Check() error {
	_, err := s.executable()
	return err
}

func (s *CBC) executable() (string, error) {
	path := s.Path
	if path == "" {
		path = "cbc"
	}
	exe, err := exec.LookPath(path)
	if err != nil {
		return "", fmt.Errorf("solver: %w: %q not found (install Debian's coinor-cbc or conda's coin-or-cbc): %v", ErrNoSolver, path, err)
	}
	return exe, nil
}

// Solve writes p as an LP file, runs cbc on it and reads its solution.
// It returns an error wrapping ErrNoSolver when cbc is not installed,
// ErrInfeasible or ErrUnbounded for such problems, ErrTimeout when the time
// limit or ctx's deadline stops cbc before it proves an optimum, and ctx's
// error when ctx is cancelled.
func (s *CBC) Solve(ctx context.Context, p *Problem) (*Solution, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	exe, err := s.executable()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "portlab-cbc-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	lpFile, solFile := filepath.Join(dir, "model.lp"), filepath.Join(dir, "solution.txt")
	if err := os.WriteFile(lpFile, []byte(WriteLP(p)), 0o644); err != nil {
		return nil, err
	}
	args := []string{lpFile}
	if s.TimeLimit > 0 {
		args = append(args, "-sec", strconv.FormatFloat(s.TimeLimit.Seconds(), 'f', 3, 64))
	}
	if s.Gap > 0 {
		args = append(args, "-ratio", strconv.FormatFloat(s.Gap, 'g', -1, 64))
	}
	args = append(args, "-solve", "-solution", solFile)
	start := time.Now()
	cmd := exec.CommandContext(ctx, exe, args...)
	out, runErr := cmd.CombinedOutput()
	if ctx.Err() != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("solver: cbc: %w (context deadline, %d variables, %d constraints)", ErrTimeout, len(p.Vars), len(p.Constraints))
		}
		return nil, ctx.Err()
	}
	if runErr != nil {
		return nil, fmt.Errorf("solver: cbc failed: %v: %s", runErr, lastLines(string(out), 5))
	}
	sol, err := readSolution(solFile, p)
	if err != nil {
		if !errors.Is(err, ErrInfeasible) && !errors.Is(err, ErrUnbounded) && !errors.Is(err, ErrTimeout) {
			// Keep the model that cbc rejected for inspection.
			if kept, kerr := os.CreateTemp("", "portlab-cbc-rejected-*.lp"); kerr == nil {
				kept.WriteString(WriteLP(p))
				kept.Close()
				err = fmt.Errorf("%w (model kept in %s)", err, kept.Name())
			}
		}
		return nil, fmt.Errorf("solver: cbc: %w (output: %s)", err, lastLines(string(out), 5))
	}
	sol.Solver, sol.Elapsed = s.Name(), time.Since(start)
	if sol.Incumbent {
		if why := infeasibility(p, sol.Values); why != "" {
			// Not a solution after all: no answer rather than a wrong one.
			return nil, fmt.Errorf("solver: cbc: %w: its best point %s", ErrTimeout, why)
		}
		sol.Warning = fmt.Sprintf("cbc: time limit %v reached: the best solution found (objective %g), not proven optimal (%d variables, %d constraints)",
			s.TimeLimit, sol.Objective, len(p.Vars), len(p.Constraints))
	}
	return sol, nil
}

// infeasibility says how values violate p (a bound, integrality or a
// constraint, beyond a small tolerance), or "" when they satisfy it.
func infeasibility(p *Problem, values []float64) string {
	const tol = 1e-6
	slack := func(v float64) float64 { return tol * max(1, math.Abs(v)) }
	for j, v := range p.Vars {
		x := values[j]
		if x < v.Lower-slack(v.Lower) || x > v.Upper+slack(v.Upper) {
			return fmt.Sprintf("puts %s = %g outside [%g, %g]", v.Name, x, v.Lower, v.Upper)
		}
		if v.Integer && math.Abs(x-math.Round(x)) > 1e-6 {
			return fmt.Sprintf("puts integer %s = %g", v.Name, x)
		}
	}
	for _, c := range p.Constraints {
		lhs := 0.0
		for _, t := range c.Terms {
			lhs += t.Coeff * values[t.Var]
		}
		d := slack(c.RHS)
		if (c.Sense == LessEq && lhs > c.RHS+d) || (c.Sense == GreaterEq && lhs < c.RHS-d) || (c.Sense == Equal && math.Abs(lhs-c.RHS) > d) {
			return fmt.Sprintf("violates %s (%g %s %g)", c.Name, lhs, c.Sense, c.RHS)
		}
	}
	return ""
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// readSolution reads CBC's solution file: a status line, then one line per
// non-zero variable "index name value reduced-cost".
func readSolution(path string, p *Problem) (*Solution, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("no solution file: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	if !sc.Scan() {
		return nil, errors.New("empty solution file")
	}
	status := sc.Text()
	sol := &Solution{Values: make([]float64, len(p.Vars))}
	switch {
	case strings.HasPrefix(status, "Optimal"):
	case strings.Contains(status, "nfeasible"):
		return nil, ErrInfeasible
	case strings.Contains(status, "nbounded"):
		return nil, ErrUnbounded
	case strings.HasPrefix(status, "Stopped") && strings.Contains(status, "objective value") &&
		!strings.Contains(status, "no integer solution") && !strings.Contains(status, "no solution"):
		// "Stopped on time - objective value 9048179": an integer
		// solution, the best found. Without one CBC writes "(no integer
		// solution - continuous used)": the relaxation, infeasible.
		sol.Incumbent = true
	case strings.HasPrefix(status, "Stopped"):
		return nil, fmt.Errorf("%w: %s", ErrTimeout, status)
	default:
		return nil, fmt.Errorf("unexpected status %q", status)
	}
	if i := strings.LastIndex(status, "objective value"); i >= 0 {
		sol.Objective, _ = strconv.ParseFloat(strings.TrimSpace(status[i+len("objective value"):]), 64)
	}
	for sc.Scan() {
		fields := strings.Fields(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "**"))
		if len(fields) < 3 {
			continue
		}
		name := fields[1]
		j, err := strconv.Atoi(strings.TrimPrefix(name, "x"))
		if !strings.HasPrefix(name, "x") || err != nil || j < 0 || j >= len(p.Vars) {
			return nil, fmt.Errorf("solution names unknown variable %q", name)
		}
		if sol.Values[j], err = strconv.ParseFloat(fields[2], 64); err != nil {
			return nil, fmt.Errorf("variable %q: value %q", name, fields[2])
		}
	}
	return sol, sc.Err()
}

// lpTermsPerLine is how many terms WriteLP puts on a line: CBC 2.10's LP
// reader (CoinLpIO) fails on a line of about 3,000 characters ("Unable to
// read objective function", seen with an objective of 127 terms), so
// longer rows continue on the next line as the LP format allows.
const lpTermsPerLine = 8

// WriteLP returns p in CPLEX LP format, the variables named x0, x1, … and
// the constraints c0, c1, … (the Problem's names go into comments), rows
// of more than lpTermsPerLine terms continued over several lines.
func WriteLP(p *Problem) string {
	var b strings.Builder
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', 17, 64) }
	terms := func(ts []Term) {
		ts = merged(ts)
		if len(ts) == 0 {
			b.WriteString(" 0 x0")
			return
		}
		for k, t := range ts {
			if k > 0 && k%lpTermsPerLine == 0 {
				b.WriteString("\n ") // CBC's LP reader rejects long lines
			}
			if t.Coeff < 0 {
				fmt.Fprintf(&b, " - %s x%d", num(-t.Coeff), t.Var)
			} else {
				fmt.Fprintf(&b, " + %s x%d", num(t.Coeff), t.Var)
			}
		}
	}
	b.WriteString("Minimize\n obj:")
	terms(p.Objective)
	b.WriteString("\nSubject To\n")
	for i, c := range p.Constraints {
		if c.Name != "" {
			fmt.Fprintf(&b, "\\ %s\n", strings.ReplaceAll(c.Name, "\n", " "))
		}
		fmt.Fprintf(&b, " c%d:", i)
		terms(c.Terms)
		fmt.Fprintf(&b, " %s %s\n", c.Sense, num(c.RHS))
	}
	b.WriteString("Bounds\n")
	for j, v := range p.Vars {
		switch {
		case math.IsInf(v.Lower, -1) && math.IsInf(v.Upper, 1):
			fmt.Fprintf(&b, " x%d free\n", j)
		case math.IsInf(v.Lower, -1):
			fmt.Fprintf(&b, " -inf <= x%d <= %s\n", j, num(v.Upper))
		case math.IsInf(v.Upper, 1):
			fmt.Fprintf(&b, " x%d >= %s\n", j, num(v.Lower))
		default:
			fmt.Fprintf(&b, " %s <= x%d <= %s\n", num(v.Lower), j, num(v.Upper))
		}
	}
	var ints []string
	for j, v := range p.Vars {
		if v.Integer {
			ints = append(ints, "x"+strconv.Itoa(j))
		}
	}
	if len(ints) > 0 {
		b.WriteString("General\n")
		for k := 0; k < len(ints); k += 10 {
			fmt.Fprintf(&b, " %s\n", strings.Join(ints[k:min(k+10, len(ints))], " "))
		}
	}
	b.WriteString("End\n")
	return b.String()
}

// merged returns ts with the terms of each variable added up, in order of
// first appearance, zero sums dropped (LP files reject repeated
// variables in a row).
func merged(ts []Term) []Term {
	at := map[int]int{}
	var out []Term
	for _, t := range ts {
		if k, ok := at[t.Var]; ok {
			out[k].Coeff += t.Coeff
			continue
		}
		at[t.Var] = len(out)
		out = append(out, t)
	}
	nz := out[:0]
	for _, t := range out {
		if t.Coeff != 0 {
			nz = append(nz, t)
		}
	}
	return nz
}
