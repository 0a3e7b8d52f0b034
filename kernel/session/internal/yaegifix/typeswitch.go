package yaegifix

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// typeSwitchEdits rewrites the type switches with a case that names a
// non-interface type of the cell or the session into tests by the
// comma-ok assertion, which yaegi v0.16.1 gets right for them: its type
// switch compares type names with the representation of the value, so
// that switch x.(type) { case A: } matched no value of a cell's type A,
// and switch v := x.(type) none of a cell type with methods, silently
// (types it cannot tell apart at all are refused by ConcreteAssertions).
// In a function that is not generic,
//
//	switch v := x.(type) { case A: body; case B, nil: body2; default: body3 }
//
// becomes, with fresh names s, c1 and c2,
//
//	{ s := x; c1, c2 := false, false
//	if _, ok := s.(A); ok { c1 = true }
//	if _, ok := s.(B); ok || s == nil { c2 = true }
//	switch { case c1: v := s.(A); _ = v; body; case c2: v := s; _ = v; body2; default: v := s; _ = v; body3 } }
//
// keeping an init statement first and a label on the switch; a case of
// an interface of the cell or the session with a variable binds it by
// switch v := s.(type) { case I: body; default: panic(…) }. isIface
// reports the interface types of the session and the cell.
func typeSwitchEdits(isIface func(string) bool) func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	return func(fset *token.FileSet, f *ast.File, off int, src string) []edit {
		pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
		var edits []edit
		cellType := func(x ast.Expr) bool {
			found := false
			ast.Inspect(x, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.SelectorExpr, *ast.InterfaceType, *ast.FuncType:
					return false
				case *ast.Ident:
					if o := types.Universe.Lookup(n.Name); o == nil && !isIface(n.Name) {
						found = true
					}
				}
				return !found
			})
			return found
		}
		rewrite := func(ts *ast.TypeSwitchStmt, start token.Pos) {
			var x ast.Expr
			bound := ""
			switch a := ts.Assign.(type) {
			case *ast.AssignStmt:
				bound = a.Lhs[0].(*ast.Ident).Name
				x = a.Rhs[0].(*ast.TypeAssertExpr).X
			case *ast.ExprStmt:
				x = a.X.(*ast.TypeAssertExpr).X
			default:
				return
			}
			any := false
			for _, c := range ts.Body.List {
				for _, t := range c.(*ast.CaseClause).List {
					if cellType(t) || isInterfaceType(t, isIface) {
						any = true
					}
				}
			}
			if !any {
				return
			}
			seq := blockSeq.Add(1)
			s := fmt.Sprintf("%sS%d", tempPrefix, seq)
			var pre strings.Builder
			pre.WriteString("{ ")
			if ts.Init != nil {
				pre.WriteString(exprText(src, pos, ts.Init) + "; ")
			}
			fmt.Fprintf(&pre, "%s := %s; ", s, exprText(src, pos, x))
			for i, c := range ts.Body.List {
				cc := c.(*ast.CaseClause)
				if len(cc.List) == 0 {
					continue
				}
				ci := fmt.Sprintf("%sC%d_%d", tempPrefix, seq, i)
				fmt.Fprintf(&pre, "%s := false; ", ci)
				for _, t := range cc.List {
					if id, ok := t.(*ast.Ident); ok && id.Name == "nil" {
						fmt.Fprintf(&pre, "if %s == nil { %s = true }; ", s, ci)
						continue
					}
					if compiledIfaceWithMethods(t) {
						// The interpreter's assertion of a nil interface to a
						// compiled interface type panics ("call of
						// reflect.Value.Type on zero Value"); nil matches no
						// such case.
						fmt.Fprintf(&pre, "if %s != nil { if _, ok := %s.(%s); ok { %s = true } }; ", s, s, exprText(src, pos, t), ci)
						continue
					}
					fmt.Fprintf(&pre, "if _, ok := %s.(%s); ok { %s = true }; ", s, exprText(src, pos, t), ci)
				}
				head := "case " + ci + ":"
				if bound != "" {
					v := s
					if len(cc.List) == 1 && cellInterface(cc.List[0], isIface) {
						// The assertion that keeps the value fails for an
						// interface of the cell: the interpreter's own switch
						// binds it, with the value known to match.
						t := exprText(src, pos, cc.List[0])
						head += fmt.Sprintf(" switch %s := %s.(type) { case %s: _ = %s;", bound, s, t, bound)
						miss := strconv.Quote(Refused + "the interpreter's type switch did not match case " + t + ": where the assertion does; " +
							"write the case as if " + bound + ", ok := x.(" + t + "); ok { … }")
						edits = append(edits, edit{pos(cc.End()), pos(cc.End()), "; default: panic(" + miss + ") }"})
						edits = append(edits, edit{pos(cc.Case), pos(cc.Colon) + 1, head})
						continue
					}
					if len(cc.List) == 1 && !(isNilIdent(cc.List[0])) {
						v = s + ".(" + exprText(src, pos, cc.List[0]) + ")"
					}
					head += " " + bound + " := " + v + "; _ = " + bound + ";"
				}
				edits = append(edits, edit{pos(cc.Case), pos(cc.Colon) + 1, head})
			}
			for _, c := range ts.Body.List {
				cc := c.(*ast.CaseClause)
				if len(cc.List) == 0 && bound != "" {
					edits = append(edits, edit{pos(cc.Colon) + 1, pos(cc.Colon) + 1, " " + bound + " := " + s + "; _ = " + bound + ";"})
				}
			}
			edits = append(edits, edit{pos(start), pos(start), pre.String()})
			edits = append(edits, edit{pos(ts.Switch), pos(ts.Body.Lbrace) + 1, "switch {"})
			edits = append(edits, edit{pos(ts.End()), pos(ts.End()), " }"})
		}
		for _, d := range fileDecls(f) {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Type.TypeParams != nil && len(fd.Type.TypeParams.List) > 0 {
				continue
			}
			if fd.Recv != nil && hasTypeParams(fd.Recv) {
				continue
			}
			labeled := map[*ast.TypeSwitchStmt]bool{}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.LabeledStmt:
					if ts, ok := n.Stmt.(*ast.TypeSwitchStmt); ok {
						labeled[ts] = true
						rewrite(ts, n.Pos())
					}
				case *ast.TypeSwitchStmt:
					if !labeled[n] {
						rewrite(n, n.Pos())
					}
				}
				return true
			})
		}
		return edits
	}
}

// isNilIdent reports whether x is the identifier nil.
func isNilIdent(x ast.Expr) bool {
	id, ok := x.(*ast.Ident)
	return ok && id.Name == "nil"
}

// hasTypeParams reports whether a receiver list names type parameters
// (a method of a generic type).
func hasTypeParams(recv *ast.FieldList) bool {
	for _, f := range recv.List {
		t := f.Type
		if s, ok := t.(*ast.StarExpr); ok {
			t = s.X
		}
		switch t.(type) {
		case *ast.IndexExpr, *ast.IndexListExpr:
			return true
		}
	}
	return false
}

// cellInterface reports whether x is an interface type of the cell or
// the session (a name isIface reports, or an interface literal).
func cellInterface(x ast.Expr, isIface func(string) bool) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.InterfaceType:
		return true
	case *ast.Ident:
		return x.Name != "error" && isIface(x.Name)
	}
	return false
}

// compiledIfaceWithMethods reports whether x is a compiled interface
// type with methods: error, or one of the standard library's
// (fmt.Stringer).
func compiledIfaceWithMethods(x ast.Expr) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		return x.Name == "error"
	case *ast.SelectorExpr:
		if pkg, ok := x.X.(*ast.Ident); ok {
			return stdlibInterfaces()[pkg.Name+"."+x.Sel.Name]
		}
	}
	return false
}

// nilAssertEdits guards the comma-ok assertions to a compiled interface
// type with methods, v, ok := x.(fmt.Stringer): the interpreter panics
// ("call of reflect.Value.Type on zero Value") where x is a nil interface
// and Go gives false. x becomes _portlabNilSafe(x), which hands on x, or
// for nil a value of a type without methods (Builtins).
func nilAssertEdits(fset *token.FileSet, f *ast.File, off int, src string) []edit {
	pos := func(p token.Pos) int { return fset.Position(p).Offset - off }
	var edits []edit
	guard := func(x ast.Expr) {
		ta, ok := ast.Unparen(x).(*ast.TypeAssertExpr)
		if !ok || ta.Type == nil || !compiledIfaceWithMethods(ta.Type) {
			return
		}
		if c, ok := ast.Unparen(ta.X).(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == nilSafeFunc {
				return
			}
		}
		edits = append(edits, edit{pos(ta.X.Pos()), pos(ta.X.Pos()), nilSafeFunc + "("}, edit{pos(ta.X.End()), pos(ta.X.End()), ")"})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == 2 && len(n.Rhs) == 1 {
				guard(n.Rhs[0])
			}
		case *ast.ValueSpec:
			if len(n.Names) == 2 && len(n.Values) == 1 {
				guard(n.Values[0])
			}
		}
		return true
	})
	return edits
}
