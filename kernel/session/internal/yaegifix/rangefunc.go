package yaegifix

import (
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"strings"
)

// The runtime.Errors of a range-over-function loop whose iterator calls
// yield when it must not, as Go's runtime words them.
var (
	ErrRangeAfterFalse error = runtimeError("range function continued iteration after function for loop body returned false")
	ErrRangeAfterExit  error = runtimeError("range function continued iteration after whole loop exit")
)

// yieldTypes finds, in f, the functions a range loop can range over with
// the types of their yield parameters: a function declared
// func seq(yield func(K, V) bool) (ranged over as seq), or one returning
// such a function, func all(…) func(func(K, V) bool) (ranged over as
// all(…)). The result maps seq to "K, V" and all( to "K, V"; it starts
// with those of outer (the cell's), which f's own replace.
func yieldTypes(fset *token.FileSet, f *ast.File, off int, src string, outer map[string]string) map[string]string {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	yield := func(t ast.Expr) (string, bool) {
		ft, ok := t.(*ast.FuncType)
		if !ok || ft.Results == nil || len(ft.Results.List) != 1 || len(ft.Results.List[0].Names) > 1 || identName(ft.Results.List[0].Type) != "bool" {
			return "", false
		}
		var types []string
		for _, p := range ft.Params.List {
			for range max(len(p.Names), 1) {
				types = append(types, src[pos(p.Type.Pos()):pos(p.Type.End())])
			}
		}
		if len(types) > 2 {
			return "", false
		}
		return strings.Join(types, ", "), true
	}
	seq := func(t ast.Expr) (string, bool) {
		ft, ok := t.(*ast.FuncType)
		if !ok || ft.Results != nil || len(ft.Params.List) != 1 || len(ft.Params.List[0].Names) > 1 {
			return "", false
		}
		return yield(ft.Params.List[0].Type)
	}
	out := map[string]string{}
	for k, v := range outer {
		out[k] = v
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Type.TypeParams != nil {
			continue
		}
		if t, ok := seq(fd.Type); ok {
			out[fd.Name.Name] = t
		}
		if r := fd.Type.Results; r != nil && len(r.List) == 1 && len(r.List[0].Names) <= 1 {
			if t, ok := seq(r.List[0].Type); ok {
				out[fd.Name.Name+"("] = t
			}
		}
	}
	return out
}

// rangeFuncType returns the yield parameter types of the range
// expression x from types (yieldTypes), if x is one it knows.
func rangeFuncType(x ast.Expr, types map[string]string) (string, bool) {
	switch x := x.(type) {
	case *ast.Ident:
		t, ok := types[x.Name]
		return t, ok
	case *ast.CallExpr:
		if id, ok := x.Fun.(*ast.Ident); ok {
			t, ok := types[id.Name+"("]
			return t, ok
		}
	}
	return "", false
}

// funcRangeEdits rewrites rs, the n-th range statement of rangeEdits,
// over a function whose yield parameter types are types ("K, V"), into a
// call of the function with the body as the yield function (yaegi v0.16.1
// implements Go 1.21's range statement and panics on a function):
//
//	for k, v := range seq { body }
//	{ _s := 0; seq(func(k K, v V) bool { if _s != 0 { panic(…) }; body; return true }); _s = 2 }
//
// continue becomes return true and break (of this loop) _s = 1; return
// false; yield called again after the body returned false or after the
// loop panics with Go's runtime errors (ErrRangeAfterFalse,
// ErrRangeAfterExit). A body that returns, defers, jumps with goto or
// breaks or continues an enclosing statement cannot be moved into a
// function and is refused.
func funcRangeEdits(fset *token.FileSet, pos func(token.Pos) int, rs *ast.RangeStmt, label *ast.Ident, n int, src, types string,
	fn *ast.FuncType, isFuncRange func(*ast.RangeStmt) bool) ([]edit, error) {
	state := fmt.Sprintf("_portlab_s%d", n)
	returned := fmt.Sprintf("_portlab_ret%d", n)
	// The enclosing function's results: named ones are assigned by a
	// return in the body, unnamed ones held in variables declared
	// before the loop.
	var results, decls []string
	named := false
	if fn != nil && fn.Results != nil {
		for _, field := range fn.Results.List {
			t := src[pos(field.Type.Pos()):pos(field.Type.End())]
			if len(field.Names) == 0 {
				v := fmt.Sprintf("_portlab_v%d_%d", n, len(results))
				results = append(results, v)
				decls = append(decls, "var "+v+" "+t+";")
				continue
			}
			named = true
			for _, id := range field.Names {
				results = append(results, id.Name)
			}
		}
	}
	hasReturn := false
	var edits []edit
	var refusal string
	var where token.Pos
	refuse := func(p token.Pos, what string) {
		if refusal == "" {
			refusal, where = what, p
		}
	}
	inner := map[string]bool{} // labels declared in the body
	ast.Inspect(rs.Body, func(m ast.Node) bool {
		if l, ok := m.(*ast.LabeledStmt); ok {
			inner[l.Label.Name] = true
		}
		_, lit := m.(*ast.FuncLit)
		return !lit
	})
	// walk visits the body; loops and breakable say whether an unlabeled
	// continue or break belongs to a statement inside it.
	var walk func(m ast.Node, loop, breakable bool)
	walk = func(m ast.Node, loop, breakable bool) {
		ast.Inspect(m, func(c ast.Node) bool {
			if c == m {
				return true
			}
			switch c := c.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				hasReturn = true
				text := state + " = 1; " + returned + " = true; return false"
				if len(c.Results) > 0 {
					if named && containsBlank(results) {
						refuse(c.Pos(), "return with values to blank results")
					}
					text = returnValues(results, c.Results, fmt.Sprintf("_portlab_t%d_", n), func(x ast.Expr) string { return src[pos(x.Pos()):pos(x.End())] }) + text
				}
				edits = append(edits, edit{pos(c.Pos()), pos(c.End()), "{ " + text + " }"})
			case *ast.DeferStmt:
				refuse(c.Pos(), "defer")
			case *ast.ForStmt, *ast.RangeStmt:
				if r, ok := c.(*ast.RangeStmt); ok && isFuncRange(r) && hasReturnStmt(r.Body) {
					refuse(c.Pos(), "return in nested range loops")
				}
				walk(c, true, true)
				return false
			case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				walk(c, loop, true)
				return false
			case *ast.BranchStmt:
				switch c.Tok {
				case token.GOTO:
					refuse(c.Pos(), "goto")
				case token.BREAK, token.CONTINUE:
					ours := c.Label == nil && (c.Tok == token.BREAK && !breakable || c.Tok == token.CONTINUE && !loop) ||
						c.Label != nil && label != nil && c.Label.Name == label.Name
					if !ours && c.Label != nil && !inner[c.Label.Name] {
						refuse(c.Pos(), c.Tok.String()+" "+c.Label.Name+" out of the loop")
					}
					if ours {
						text := "return true"
						if c.Tok == token.BREAK {
							text = state + " = 1; return false"
						}
						edits = append(edits, edit{pos(c.Pos()), pos(c.End()), "{ " + text + " }"})
					}
				}
			}
			return true
		})
	}
	walk(rs.Body, false, false)
	if refusal != "" {
		var errs scanner.ErrorList
		errs.Add(fset.Position(where), Refused+refusal+" in the body of a range loop over a function (the kernel runs the body as the iterator's yield function, "+
			"where it would not act on the enclosing function or statements): call the iterator with a function literal yourself, "+
			"seq(func(v T) bool { …; return true }) (return false to stop), and carry results out in variables")
		return nil, errs
	}
	// The yield function's parameters: the loop's variables, or fresh ones
	// assigned to the loop's targets (for k, v = range seq).
	ptypes := strings.Split(types, ", ")
	if types == "" {
		ptypes = nil
	}
	vars := []ast.Expr{rs.Key, rs.Value}
	var params, targets, values []string
	for i, t := range ptypes {
		name := "_"
		if i < len(vars) && vars[i] != nil {
			if id, ok := vars[i].(*ast.Ident); ok && id.Name == "_" {
				// Blank: nothing to bind.
			} else if rs.Tok == token.DEFINE {
				name = vars[i].(*ast.Ident).Name
			} else {
				name = fmt.Sprintf("_portlab_y%d_%d", n, i)
				targets = append(targets, src[pos(vars[i].Pos()):pos(vars[i].End())])
				values = append(values, name)
			}
		}
		params = append(params, name+" "+t)
	}
	if rs.Key != nil && len(ptypes) < 1 || rs.Value != nil && len(ptypes) < 2 {
		var errs scanner.ErrorList
		errs.Add(fset.Position(rs.For), fmt.Sprintf("range over a function whose yield takes %d values permits only %d iteration variables", len(ptypes), len(ptypes)))
		return nil, errs
	}
	head := fmt.Sprintf("{ %s := 0; ", state)
	after := fmt.Sprintf("%s = 2 }", state)
	if hasReturn {
		head += "var " + returned + " bool; " + strings.Join(decls, " ") + " "
		ret := "return"
		if !named && len(results) > 0 {
			ret += " " + strings.Join(results, ", ")
		}
		after = fmt.Sprintf("%s = 2; if %s { %s } }", state, returned, ret)
	}
	open := fmt.Sprintf("(func(%s) bool { if %s == 1 { panic(_portlab.ErrRangeAfterFalse) }; if %s == 2 { panic(_portlab.ErrRangeAfterExit) };",
		strings.Join(params, ", "), state, state)
	if len(targets) > 0 {
		open += " " + strings.Join(targets, ", ") + " = " + strings.Join(values, ", ") + ";"
	}
	// The body in a block of its own, where the per-iteration copies of
	// loopEdits may redeclare the parameters.
	open += " {"
	edits = append(edits,
		edit{pos(rs.For), pos(rs.X.Pos()), head},
		edit{pos(rs.X.End()), pos(rs.Body.Lbrace) + 1, open},
		edit{pos(rs.Body.Rbrace), pos(rs.Body.Rbrace) + 1, "}; return true }); " + after})
	return edits, nil
}

// funcRangeLoops rewrites the range loops of f over functions whose yield
// types yieldTypes finds (funcRangeEdits).
func funcRangeLoops(fset *token.FileSet, f *ast.File, off int, src string, seqs map[string]string) ([]edit, error) {
	types := yieldTypes(fset, f, off, src, seqs)
	if len(types) == 0 {
		return nil, nil
	}
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	labels := map[*ast.RangeStmt]*ast.Ident{}
	var edits []edit
	var err error
	n := 0
	isFuncRange := func(rs *ast.RangeStmt) bool {
		_, ok := rangeFuncType(rs.X, types)
		return ok
	}
	var funcs []*ast.FuncType // the enclosing functions
	var stack []ast.Node
	ast.Inspect(f, func(m ast.Node) bool {
		if err != nil {
			return false
		}
		if m == nil {
			switch stack[len(stack)-1].(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				funcs = funcs[:len(funcs)-1]
			}
			stack = stack[:len(stack)-1]
			return false
		}
		stack = append(stack, m)
		switch m := m.(type) {
		case *ast.FuncDecl:
			funcs = append(funcs, m.Type)
		case *ast.FuncLit:
			funcs = append(funcs, m.Type)
		case *ast.LabeledStmt:
			if rs, ok := m.Stmt.(*ast.RangeStmt); ok {
				labels[rs] = m.Label
			}
		case *ast.RangeStmt:
			t, ok := rangeFuncType(m.X, types)
			if !ok {
				return true
			}
			n++
			var e []edit
			var fn *ast.FuncType
			if len(funcs) > 0 {
				fn = funcs[len(funcs)-1]
			}
			e, err = funcRangeEdits(fset, pos, m, labels[m], n, src, t, fn, isFuncRange)
			edits = append(edits, e...)
		}
		return true
	})
	return edits, err
}

// hasReturnStmt reports whether body has a return statement outside
// function literals.
func hasReturnStmt(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(m ast.Node) bool {
		switch m.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
		}
		return !found
	})
	return found
}

// containsBlank reports whether names holds _.
func containsBlank(names []string) bool {
	for _, n := range names {
		if n == "_" {
			return true
		}
	}
	return false
}

// returnValues assigns the values of a return statement to results (the
// names of the enclosing function's results or of the variables standing
// for them): each value into a temporary first, in order, as Go evaluates
// them all before it assigns (yaegi v0.16.1 fails on a, err = x, nil),
// and nil directly.
func returnValues(results []string, values []ast.Expr, tmp string, text func(ast.Expr) string) string {
	if len(values) != len(results) || len(values) == 1 {
		var vs []string
		for _, v := range values {
			vs = append(vs, text(v))
		}
		return strings.Join(results, ", ") + " = " + strings.Join(vs, ", ") + "; "
	}
	var first, then string
	for i, v := range values {
		if id, ok := v.(*ast.Ident); ok && id.Name == "nil" {
			then += results[i] + " = nil; "
			continue
		}
		first += fmt.Sprintf("%s%d := %s; ", tmp, i, text(v))
		then += fmt.Sprintf("%s = %s%d; ", results[i], tmp, i)
	}
	return first + then
}
