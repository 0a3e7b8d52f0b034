package yaegifix

import (
	"go/ast"
	"go/token"
	"go/types"
)

// shiftCountEdits returns the edits that convert, in the count of a shift,
// each constant operation (1 - 0, -c) to the type go/types gives it there:
// x << (u & (1 - 0)), u an uint16, is x << (u & uint16(1 - 0)). Where such
// a shift is an operand of another operation or of an assignment
// operation (a *= x << (u & (1 - 0)), x of type int8), yaegi v0.16.1 gives
// the constant the type of the shifted operand and fails ("invalid
// operation: mismatched types uint16 and int8"; Go's
// fixedbugs/issue15175.go). The constant has that type in Go already, so
// the conversion changes nothing.
func shiftCountEdits(f *ast.File, info *types.Info, pkg *types.Package, cf *cellFile, fset *token.FileSet) []edit {
	at := func(p token.Pos) (int, bool) { return cf.cellOffset(fset.Position(p).Offset) }
	var edits []edit
	seen := map[[2]token.Pos]bool{}
	// convert converts x, a constant, to its type.
	convert := func(x ast.Expr) bool {
		tv, ok := info.Types[x]
		if !ok || tv.Value == nil {
			return false
		}
		b, ok := tv.Type.(*types.Basic)
		if !ok || b.Info()&types.IsInteger == 0 || b.Info()&types.IsUntyped != 0 {
			return false
		}
		name, ok := spellAt(b, x.Pos(), pkg, nil)
		if !ok {
			return false
		}
		s, ok1 := at(x.Pos())
		e, ok2 := at(x.End())
		if ok1 && ok2 && !seen[[2]token.Pos{x.Pos(), x.End()}] {
			seen[[2]token.Pos{x.Pos(), x.End()}] = true
			edits = append(edits, edit{s, s, name + "("}, edit{e, e, ")"})
		}
		return true
	}
	count := func(n ast.Node) bool {
		x, ok := n.(ast.Expr)
		if !ok {
			return true
		}
		switch ast.Unparen(x).(type) {
		case *ast.BinaryExpr, *ast.UnaryExpr:
			return !convert(x)
		}
		return true
	}
	// shiftCount converts y, a count, to uint where it is untyped and
	// not constant (it holds a shift of a constant by a count computed at
	// run time): Go makes it a uint, yaegi an int.
	shiftCount := func(y ast.Expr) {
		tv, ok := info.Types[y]
		if !ok || tv.Value != nil {
			return
		}
		if b, ok := tv.Type.(*types.Basic); !ok || b.Info()&types.IsUntyped == 0 || b.Info()&types.IsInteger == 0 {
			return
		}
		name, ok := spellAt(types.Typ[types.Uint], y.Pos(), pkg, nil)
		s, ok1 := at(y.Pos())
		e, ok2 := at(y.End())
		if ok && ok1 && ok2 && !seen[[2]token.Pos{y.Pos(), y.End()}] {
			seen[[2]token.Pos{y.Pos(), y.End()}] = true
			edits = append(edits, edit{s, s, name + "("}, edit{e, e, ")"})
		}
	}
	walk := func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.SHL || n.Op == token.SHR {
				shiftCount(n.Y)
				ast.Inspect(n.Y, count)
				if tv, ok := info.Types[n]; ok && tv.Value == nil {
					if _, call := ast.Unparen(n.X).(*ast.CallExpr); !call {
						convert(n.X)
					}
				}
			}
		case *ast.AssignStmt:
			if (n.Tok == token.SHL_ASSIGN || n.Tok == token.SHR_ASSIGN) && len(n.Rhs) == 1 {
				shiftCount(n.Rhs[0])
				ast.Inspect(n.Rhs[0], count)
			}
		}
		return true
	}
	for _, decl := range cf.cellDecls(f, fset) {
		ast.Inspect(decl, walk)
	}
	return edits
}
